import { execFile } from 'node:child_process';
import path from 'node:path';

/** Runs the installed bin (`bin/phone-agent.js`, as `npx phone-agent` does) as a process. */

const BIN = path.resolve(import.meta.dirname, '../../bin/phone-agent.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A clean environment: no model configured, no npm variables of the test runner, no terminal. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|OPENAI_|PHONE_AGENT_|ANDROID_)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export function cli(
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: opts.cwd, env: cleanEnv(opts.env), timeout: opts.timeoutMs ?? 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}
