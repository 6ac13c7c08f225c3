import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ANDROID_ALL,
  APK_PATH,
  BUILD_DIR,
  checkTools,
  DALVIK_DX,
  HELPER_DIR,
  javaSources,
  mavenJar,
  run,
} from './toolchain.js';

/**
 * `npm run helper:build`: javac (against android-all) → dx → aapt package (linked against
 * android-all's API 34 resources) → zipalign → apksigner with a debug key generated here on first
 * build (helper/android/build/ is ignored by git; the key is never committed).
 */

async function debugKey(): Promise<string> {
  const ks = path.join(BUILD_DIR, 'debug.keystore');
  try {
    await stat(ks);
    return ks;
  } catch {
    // generated below
  }
  await run('keytool', [
    '-genkeypair',
    '-keystore',
    ks,
    '-storepass',
    'android',
    '-keypass',
    'android',
    '-alias',
    'phoneagentdebug',
    '-keyalg',
    'RSA',
    '-keysize',
    '2048',
    '-validity',
    '10000',
    '-dname',
    'CN=phone-agent helper debug key',
  ]);
  return ks;
}

export async function buildHelper(
  log: (line: string) => void = () => {},
): Promise<{ apk: string; bytes: number; ms: number }> {
  const started = performance.now();
  await checkTools();
  const [androidAll, dx] = [await mavenJar(ANDROID_ALL), await mavenJar(DALVIK_DX)];
  const out = (p: string) => path.join(BUILD_DIR, p);
  await mkdir(BUILD_DIR, { recursive: true });
  for (const p of [
    'classes',
    'dex',
    'unsigned.apk',
    'aligned.apk',
    'phone-agent-helper.apk',
    'phone-agent-helper.apk.idsig',
  ])
    await rm(out(p), { recursive: true, force: true });
  await mkdir(out('dex'), { recursive: true });

  const sources = [
    ...(await javaSources(path.join(HELPER_DIR, 'core', 'src'))),
    ...(await javaSources(path.join(HELPER_DIR, 'app', 'src'))),
  ];
  log(`javac: ${sources.length} files`);
  // Java 8 bytecode and API: what dx reads and what Android's runtime library offers.
  await run('javac', [
    '--release',
    '8',
    '-nowarn',
    '-encoding',
    'UTF-8',
    '-cp',
    androidAll,
    '-d',
    out('classes'),
    ...sources,
  ]);
  log('dx → classes.dex');
  await run('java', [
    '-cp',
    dx,
    'com.android.dx.command.Main',
    '--dex',
    '--min-sdk-version=26',
    `--output=${out('dex/classes.dex')}`,
    out('classes'),
  ]);
  log('aapt package');
  await run('aapt', [
    'package',
    '-f',
    '-M',
    path.join(HELPER_DIR, 'app', 'AndroidManifest.xml'),
    '-S',
    path.join(HELPER_DIR, 'app', 'res'),
    '-I',
    androidAll,
    '-F',
    out('unsigned.apk'),
  ]);
  await run('aapt', ['add', out('unsigned.apk'), 'classes.dex'], { cwd: out('dex') });
  log('zipalign + apksigner');
  await run('zipalign', ['-f', '-p', '4', out('unsigned.apk'), out('aligned.apk')]);
  const ks = await debugKey();
  await run('apksigner', [
    'sign',
    '--ks',
    ks,
    '--ks-pass',
    'pass:android',
    '--key-pass',
    'pass:android',
    '--out',
    APK_PATH,
    out('aligned.apk'),
  ]);
  await rm(out('unsigned.apk'), { force: true });
  await rm(out('aligned.apk'), { force: true });
  const bytes = (await stat(APK_PATH)).size;
  return { apk: APK_PATH, bytes, ms: Math.round(performance.now() - started) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const r = await buildHelper((l) => process.stderr.write(`${l}\n`));
    process.stdout.write(
      `built ${path.relative(process.cwd(), r.apk)} (${r.bytes} bytes) in ${(r.ms / 1000).toFixed(1)} s\n`,
    );
  } catch (e) {
    process.stderr.write(`helper build failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
