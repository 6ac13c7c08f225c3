import { execFile } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * A private adb server for one test file: its own port (never the machine's default 5037), every
 * call with `-P PORT`, killed at the end.
 */

export interface AdbRun {
  stdout: Buffer;
  stderr: string;
  code: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export class PrivateAdbServer {
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateAdbServer> {
    const server = new PrivateAdbServer(await freePort());
    const r = await server.run(['start-server']);
    if (r.code !== 0) throw new Error(`adb start-server failed: ${r.stderr}`);
    return server;
  }

  /** Run `adb -P PORT ...args`; never throws on a non-zero exit. */
  run(args: string[], opts: { timeoutMs?: number } = {}): Promise<AdbRun> {
    return new Promise((resolve) => {
      execFile(
        'adb',
        ['-P', String(this.port), ...args],
        { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: opts.timeoutMs ?? 30_000 },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
          resolve({ stdout, stderr: stderr.toString('utf8'), code });
        },
      );
    });
  }

  /** `adb connect` the device and wait until `adb devices` lists it as a device. */
  async connect(serial: string): Promise<void> {
    const r = await this.run(['connect', serial]);
    const out = r.stdout.toString();
    if (!/connected to/.test(out)) throw new Error(`adb connect ${serial} failed: ${out} ${r.stderr}`);
    for (let i = 0; i < 100; i++) {
      const d = await this.run(['devices']);
      if (new RegExp(`^${serial.replace(/\./g, '\\.')}\\s+device$`, 'm').test(d.stdout.toString())) return;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error(`${serial} never became a device`);
  }

  async kill(): Promise<void> {
    await this.run(['kill-server']);
  }
}
