import { shellCommand } from '../adb/commands.js';
import { type AdbResult, runAdb } from '../adb/server.js';

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

export type { AdbResult } from '../adb/server.js';

export class AdbCli {
  constructor(readonly target: AdbTarget) {}

  /** `adb -H … -P … -s SERIAL ...args`; resolves with the exit code, never throws on a failure. */
  run(args: string[], timeoutMs = 60_000): Promise<AdbResult> {
    const t = this.target;
    return runAdb({ host: t.host, port: t.port, bin: t.bin }, ['-s', t.serial, ...args], timeoutMs);
  }

  /** One device shell command, quoted for the phone's shell. */
  shell(argv: string[], timeoutMs?: number): Promise<AdbResult> {
    return this.run(['shell', shellCommand(argv)], timeoutMs);
  }
}
