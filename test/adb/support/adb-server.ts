import { spawn } from 'node:child_process';
import { freeAdbServerPort } from '../../../src/device/adb/server.js';

/**
 * A private adb server for one test file: its own port (never the machine's default 5037), every
 * call with `-P PORT`, killed at the end.
 */

export interface AdbRun {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/** A free port below the kernel's ephemeral range (why: src/device/adb/server.ts). */
export const freePort = freeAdbServerPort;

export class PrivateAdbServer {
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateAdbServer> {
    const server = new PrivateAdbServer(await freePort());
    const r = await server.run(['start-server']);
    if (r.code !== 0) throw new Error(`adb start-server failed: ${r.stderr}`);
    return server;
  }

  /** Run `adb -P PORT ...args` (stdin = `input`, then closed); never throws on a non-zero exit. */
  run(args: string[], opts: { timeoutMs?: number; input?: Buffer | string } = {}): Promise<AdbRun> {
    return new Promise((resolve) => {
      const child = spawn('adb', ['-P', String(this.port), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), code: code ?? 1 });
      });
      child.stdin.on('error', () => {});
      child.stdin.end(opts.input ?? '');
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
