import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { ANDROID_ALL, BUILD_DIR, type Coordinates, HELPER_DIR, javaSources, mavenJar, run } from './toolchain.js';

/**
 * `npm run test:robolectric [-- Class …]`: the helper's Android classes (HelperService, TreeReader,
 * AndroidDevice, HelperIme, Screenshots) on the real Android framework, by Robolectric, at SDK 26,
 * 30 and 34. No Gradle: Maven resolves the class path from helper/android/robolectric/pom.xml into
 * ~/.m2, the android-all-instrumented jars (one per SDK) come from Maven Central with
 * `mvn dependency:get`, javac compiles core + app + tests, and JUnit 4 runs them (RoboMain prints
 * `robolectric: N passed, N failed`). Robolectric runs offline on those jars: nothing is fetched
 * at test time.
 */

const ROBO_DIR = path.join(HELPER_DIR, 'robolectric');
const OUT = path.join(BUILD_DIR, 'robolectric');

/** The SDK levels the tests run at (`@Config(sdk = …)`), as Robolectric 4.14.1 names their jars. */
export const INSTRUMENTED: Coordinates[] = [
  '8.0.0_r4-robolectric-r1-i7', // 26
  '11-robolectric-6757853-i7', // 30
  '14-robolectric-10818077-i7', // 34
].map((version) => ({ group: 'org.robolectric', artifact: 'android-all-instrumented', version }));

/** Maven's class path for the pom; the two androidx.test AARs are replaced by their classes.jar. */
async function classPath(): Promise<string[]> {
  const cpFile = path.join(OUT, 'maven.cp');
  try {
    await run(
      'mvn',
      ['-B', '-q', '-f', path.join(ROBO_DIR, 'pom.xml'), 'dependency:build-classpath', `-Dmdep.outputFile=${cpFile}`],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (e) {
    const out = (e as { stdout?: string }).stdout ?? '';
    throw new Error(`mvn could not resolve helper/android/robolectric/pom.xml: ${out.slice(-800) || String(e)}`);
  }
  const entries = (await readFile(cpFile, 'utf8')).trim().split(path.delimiter).filter(Boolean);
  const jars: string[] = [];
  for (const e of entries) {
    if (!e.endsWith('.aar')) {
      jars.push(e);
      continue;
    }
    // An AAR is a zip with the classes in classes.jar; plain Maven cannot put it on a class path.
    const dir = path.join(OUT, 'aar', path.basename(e, '.aar'));
    await mkdir(dir, { recursive: true });
    await run('jar', ['xf', e, 'classes.jar'], { cwd: dir });
    jars.push(path.join(dir, 'classes.jar'));
  }
  return jars;
}

/** Robolectric's offline dependency folder: the instrumented jars under the names it looks for. */
async function sdkJars(): Promise<string> {
  const dir = path.join(OUT, 'sdk');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const c of INSTRUMENTED) {
    const jar = await mavenJar(c);
    await symlink(jar, path.join(dir, path.basename(jar)));
  }
  return dir;
}

/** The compiled tests and their run-time class path (the API 34 jar last: JUnit reads the annotations
 * outside Robolectric's sandbox, which loads each SDK's own framework inside). */
export async function compileRobolectric(): Promise<{ classes: string; cp: string[]; sdkDir: string }> {
  await mkdir(OUT, { recursive: true });
  const [cp, sdkDir, androidAll] = [await classPath(), await sdkJars(), await mavenJar(ANDROID_ALL)];
  const classes = path.join(OUT, 'classes');
  await rm(classes, { recursive: true, force: true });
  const sources = [
    ...(await javaSources(path.join(HELPER_DIR, 'core', 'src'))),
    ...(await javaSources(path.join(HELPER_DIR, 'app', 'src'))),
    ...(await javaSources(path.join(ROBO_DIR, 'src'))),
  ];
  // Compiled against the API 34 jar, as the APK is; Robolectric swaps in each SDK's own framework.
  await run(
    'javac',
    [
      '--release',
      '17',
      '-nowarn',
      '-encoding',
      'UTF-8',
      '-cp',
      [androidAll, ...cp].join(path.delimiter),
      '-d',
      classes,
      ...sources,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  // robolectric.properties (the package's default @Config) and the SDK plugin's service file.
  await copyTree(path.join(ROBO_DIR, 'resources'), classes);
  return { classes, cp: [...cp, androidAll], sdkDir };
}

async function copyTree(from: string, to: string): Promise<void> {
  for (const e of await readdir(from, { withFileTypes: true })) {
    const [a, b] = [path.join(from, e.name), path.join(to, e.name)];
    if (e.isDirectory()) {
      await mkdir(b, { recursive: true });
      await copyTree(a, b);
    } else await copyFile(a, b);
  }
}

/** The test classes: every `*Test.java` under robolectric/src. */
async function testClasses(): Promise<string[]> {
  const src = path.join(ROBO_DIR, 'src');
  return (await javaSources(src))
    .filter((f) => f.endsWith('Test.java'))
    .map((f) =>
      path
        .relative(src, f)
        .replace(/\.java$/, '')
        .split(path.sep)
        .join('.'),
    );
}

/** Run the tests (all, or the named classes); resolves with the JVM's exit code, output streamed. */
export async function runRobolectric(only: string[] = []): Promise<number> {
  const started = performance.now();
  const { classes, cp, sdkDir } = await compileRobolectric();
  const compiledMs = performance.now() - started;
  const tests = only.length ? only : await testClasses();
  const args = [
    '-Drobolectric.offline=true',
    `-Drobolectric.dependency.dir=${sdkDir}`,
    '-Drobolectric.logging.enabled=false',
    // Every test named with its SDK, "name[34]" too (by default the last SDK's is plain): RoboMain counts per SDK.
    '-Drobolectric.alwaysIncludeVariantMarkersInTestName=true',
    // The real AccessibilityNodeInfo/WindowInfo: queries go through InteractionBridge, not Robolectric's stand-ins.
    '-Drobolectric.useRealAni=true',
    // Real Skia: Region bounds, Bitmap copies, PNG/JPEG encoding.
    '-Drobolectric.graphicsMode=NATIVE',
    `-Dphoneagent.repo=${path.resolve(HELPER_DIR, '..', '..')}`,
    '-Xmx2g',
    '-cp',
    [classes, ...cp].join(path.delimiter),
    'dev.phoneagent.helper.RoboMain',
    ...tests,
  ];
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn('java', args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (c) => resolve(c ?? 1));
  });
  process.stderr.write(
    `robolectric: resolved + compiled in ${(compiledMs / 1000).toFixed(1)} s, total ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return code;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exit(await runRobolectric(process.argv.slice(2)));
  } catch (e) {
    process.stderr.write(`robolectric tests could not start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
