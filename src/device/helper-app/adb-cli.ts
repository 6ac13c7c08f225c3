import { execFile } from 'node:child_process';
import { shellCommand } from '../adb/commands.js';

/**
 * The `adb` binary as the helper's installer uses it (argv arrays, never a shell string on the host):
 * the same commands a user would type, against the chosen adb server and device.
 */

export interface AdbTarget {
  serial: string;
  /** adb server host and port (defaults 127.0.0.1:5037). */
  host?: string;
  port?: number;
  /** The adb executable (default `adb` on PATH). */
  bin?: string;
}

export interface AdbResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class AdbCli {
  constructor(readonly target: AdbTarget) {}

  /** `adb -H … -P … -s SERIAL ...args`; resolves with the exit code, never throws on a failure. */
  run(args: string[], timeoutMs = 60_000): Promise<AdbResult> {
    const t = this.target;
    const argv = ['-H', t.host ?? '127.0.0.1', '-P', String(t.port ?? 5037), '-s', t.serial, ...args];
    return new Promise((resolve) => {
      execFile(t.bin ?? 'adb', argv, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) || (err && code === 1 ? err.message : '') });
      });
    });
  }

  /** One device shell command, quoted for the phone's shell. */
  shell(argv: string[], timeoutMs?: number): Promise<AdbResult> {
    return this.run(['shell', shellCommand(argv)], timeoutMs);
  }
}
