import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Third-party clients whose telemetry we cannot prove off from their code run here: in a network
 * namespace of their own (`unshare -n`, only a loopback), where 127.0.0.1:PORT leads to our private
 * adb server through a Unix socket and nothing else is reachable. What they might send cannot leave.
 */

const RELAY = fileURLToPath(new URL('./netns-relay.mjs', import.meta.url));

export interface IsolatedRun {
  stdout: string;
  stderr: string;
  code: number;
}

export class IsolatedNetwork {
  private constructor(
    private readonly dir: string,
    private readonly sock: string,
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    readonly adbPort: number,
  ) {}

  private readonly children = new Set<ChildProcess>();

  /** A bridge from a Unix socket to the adb server on 127.0.0.1:adbPort (host side). */
  static async open(adbPort: number): Promise<IsolatedNetwork> {
    const dir = await mkdtemp(join(tmpdir(), 'isolated-'));
    const sock = join(dir, 'adb.sock');
    const sockets = new Set<Socket>();
    const server = createServer((inner) => {
      const outer = connect(adbPort, '127.0.0.1');
      sockets.add(inner);
      inner.on('close', () => sockets.delete(inner));
      inner.pipe(outer).pipe(inner);
      inner.on('error', () => outer.destroy());
      outer.on('error', () => inner.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(sock, () => resolve());
    });
    return new IsolatedNetwork(dir, sock, server, sockets, adbPort);
  }

  /** The shared HOME of everything run here (a fresh folder, removed by close()). */
  get home(): string {
    return this.dir;
  }

  private spawn(argv: string[], env: Record<string, string> = {}): ChildProcess {
    const script = 'ip link set lo up && exec "$@"';
    const args = ['-n', '--', 'sh', '-c', script, 'sh', process.execPath, RELAY, this.sock, String(this.adbPort), '--'];
    const child = spawn('unshare', [...args, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: `${process.env.PATH ?? ''}:/usr/sbin:/sbin`,
        HOME: this.dir,
        ANDROID_ADB_SERVER_PORT: String(this.adbPort),
        ...env,
      },
    });
    this.children.add(child);
    child.on('close', () => this.children.delete(child));
    return child;
  }

  /** Start a long-running argv (a client's daemon) here; close() stops it. */
  start(argv: string[], env: Record<string, string> = {}): void {
    const child = this.spawn(argv, env);
    child.stdout?.resume();
    child.stderr?.resume();
  }

  /** Run argv with no network but the adb server at 127.0.0.1:adbPort. */
  run(argv: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<IsolatedRun> {
    return new Promise((resolve) => {
      const child = this.spawn(argv, opts.env);
      if (!child.stdout || !child.stderr) throw new Error('unshare started without pipes');
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          code: code ?? 1,
        });
      });
    });
  }

  async close(): Promise<void> {
    const exits = [...this.children].map((c) => new Promise((resolve) => c.once('close', resolve)));
    for (const c of this.children) c.kill('SIGTERM');
    await Promise.all(exits);
    this.server.close();
    for (const s of this.sockets) s.destroy();
    await rm(this.dir, { recursive: true, force: true });
  }
}
