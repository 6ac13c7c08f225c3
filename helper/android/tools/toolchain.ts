import { execFile } from 'node:child_process';
import { access, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The helper's build toolchain without an Android SDK: Debian's aapt, zipalign, apksigner and dexdump,
 * the JDK's javac/keytool, and two jars from Maven Central — Robolectric's android-all (the Android
 * API as classes, and its resources.arsc to link against) and a repackaged dx.
 */

export const run = promisify(execFile);

export const ANDROID_ALL = { group: 'org.robolectric', artifact: 'android-all', version: '14-robolectric-10818077' };
export const DALVIK_DX = { group: 'com.jakewharton.android.repackaged', artifact: 'dalvik-dx', version: '11.0.0_r3' };
export type Coordinates = typeof ANDROID_ALL;

export const HELPER_DIR = path.resolve(import.meta.dirname, '..');
export const BUILD_DIR = path.join(HELPER_DIR, 'build');
export const APK_PATH = path.join(BUILD_DIR, 'phone-agent-helper.apk');
export const HELPER_PACKAGE = 'dev.phoneagent.helper';

function m2Path(c: Coordinates): string {
  const repo = process.env.MAVEN_REPO ?? path.join(homedir(), '.m2', 'repository');
  return path.join(repo, ...c.group.split('.'), c.artifact, c.version, `${c.artifact}-${c.version}.jar`);
}

async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}

/** The jar from ~/.m2, fetched from Maven Central with `mvn dependency:get` the first time. */
export async function mavenJar(c: Coordinates): Promise<string> {
  const jar = m2Path(c);
  if (await exists(jar)) return jar;
  const coords = `${c.group}:${c.artifact}:${c.version}`;
  try {
    await run('mvn', ['-B', '-q', 'dependency:get', `-Dartifact=${coords}`, '-Dtransitive=false'], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (e) {
    const out = (e as { stdout?: string; stderr?: string }).stdout ?? '';
    throw new Error(`mvn could not fetch ${coords} from Maven Central: ${out.slice(-800) || String(e)}`);
  }
  if (!(await exists(jar))) throw new Error(`mvn reported success but ${jar} is missing`);
  return jar;
}

/** Fail early, naming the Debian packages to install. */
export async function checkTools(): Promise<void> {
  const missing: string[] = [];
  const tools: [string, string][] = [
    ['aapt', 'aapt'],
    ['zipalign', 'zipalign'],
    ['apksigner', 'apksigner'],
    ['dexdump', 'dexdump'],
    ['javac', 'openjdk-17-jdk-headless'],
    ['keytool', 'openjdk-17-jdk-headless'],
    ['mvn', 'maven'],
  ];
  for (const [tool, pkg] of tools) {
    try {
      await run('sh', ['-c', 'command -v "$1"', 'sh', tool]);
    } catch {
      missing.push(`${tool} (Debian package ${pkg})`);
    }
  }
  if (missing.length)
    throw new Error(`the helper build needs ${missing.join(', ')}: apt-get install aapt zipalign apksigner dexdump`);
}

/** Every .java file under `dir`, sorted (javac's argument list for one source tree). */
export async function javaSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await javaSources(p)));
    else if (e.name.endsWith('.java')) out.push(p);
  }
  return out.sort();
}
