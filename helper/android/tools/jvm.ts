import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { BUILD_DIR, HELPER_DIR, javaSources, run } from './toolchain.js';

/**
 * The helper's core on the JVM: compile core + the scripted-tree runner + the core's tests (plain
 * javac, no Android jar), run the tests, and start the runner so `npm run conformance` can talk to the
 * helper's own protocol code. `npm run helper:jvm -- [--port P] [--token T]` starts it by hand.
 */

export const JVM_CLASSES = path.join(BUILD_DIR, 'jvm');

export async function compileJvm(): Promise<void> {
  await rm(JVM_CLASSES, { recursive: true, force: true });
  await mkdir(JVM_CLASSES, { recursive: true });
  const files = [
    ...(await javaSources(path.join(HELPER_DIR, 'core', 'src'))),
    ...(await javaSources(path.join(HELPER_DIR, 'core', 'test'))),
    ...(await javaSources(path.join(HELPER_DIR, 'jvm', 'src'))),
  ];
  await run('javac', ['--release', '8', '-nowarn', '-encoding', 'UTF-8', '-d', JVM_CLASSES, ...files]);
}

/** Run the core's tests; resolves with their output whether they pass or not. */
export async function runCoreTests(): Promise<{ code: number; output: string }> {
  try {
    const r = await run('java', ['-cp', JVM_CLASSES, 'dev.phoneagent.helper.core.TestMain']);
    return { code: 0, output: r.stdout };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : 1, output: `${x.stdout ?? ''}${x.stderr ?? ''}` };
  }
}

export interface JvmHelper {
  url: string;
  close(): Promise<void>;
}

/** Start the runner over the scripted tree; resolves once it listens on 127.0.0.1. */
export async function startJvmHelper(opts: {
  token: string;
  port?: number;
  api?: number;
  /** HTTP deadlines (PROTOCOL §3; the helper's defaults 10 000 / 30 000), announced in hello.limits. */
  headerTimeoutMs?: number;
  bodyTimeoutMs?: number;
}): Promise<JvmHelper> {
  const args = ['-cp', JVM_CLASSES, 'dev.phoneagent.helper.jvm.JvmMain', '--token', opts.token];
  if (opts.port !== undefined) args.push('--port', String(opts.port));
  if (opts.api !== undefined) args.push('--api', String(opts.api));
  if (opts.headerTimeoutMs !== undefined) args.push('--header-timeout-ms', String(opts.headerTimeoutMs));
  if (opts.bodyTimeoutMs !== undefined) args.push('--body-timeout-ms', String(opts.bodyTimeoutMs));
  const child: ChildProcess = spawn('java', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (l) => {
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(l);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the JVM helper exited (${code}) before listening`)));
    child.once('error', reject);
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import('node:util');
  const { randomBytes } = await import('node:crypto');
  const { values } = parseArgs({ options: { port: { type: 'string' }, token: { type: 'string' } } });
  await compileJvm();
  const token = values.token ?? randomBytes(32).toString('hex');
  const h = await startJvmHelper({ token, ...(values.port ? { port: Number(values.port) } : {}) });
  // Started by hand: the operator needs the token once, as `phone-agent sim` shows it.
  process.stdout.write(`helper core on the JVM: ${h.url}\n  npm run conformance -- --url ${h.url} --token ${token}\n`);
  process.on('SIGINT', () => void h.close().then(() => process.exit(0)));
}
