import { execFile } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * The adb server as a user drives it from a shell — `adb connect host:port`, `adb disconnect`,
 * `adb devices`, and a private server of our own (`adb -P PORT start-server`) — through the `adb`
 * binary with argv arrays. Remote endpoints (an STF farm's `remoteConnectUrl`, a virtual phone's ADB
 * transport) join a server this way; adbkit then drives them by serial.
 */

export interface AdbServerAddress {
  /** adb server host and port (defaults: adb's own, localhost:5037); `-H` only when a host is given. */
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

/** `adb -H HOST -P PORT ...args`; resolves with the exit code, never throws on a failure. */
export function runAdb(server: AdbServerAddress, args: readonly string[], timeoutMs = 60_000): Promise<AdbResult> {
  // adb refuses to start a server when given -H ("cannot start server on remote host").
  const argv = [...(server.host ? ['-H', server.host] : []), '-P', String(server.port ?? 5037), ...args];
  return new Promise((resolve) => {
    execFile(server.bin ?? 'adb', argv, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (err && code === 1 ? err.message : '') });
    });
  });
}

const CONNECT_FAILED = /failed|cannot|unable|refused|no such|error/i;

/** The serials `adb devices` lists with their state (device, offline, unauthorized…). */
export async function adbDeviceStates(server: AdbServerAddress): Promise<Map<string, string>> {
  const r = await runAdb(server, ['devices'], 15_000);
  const out = new Map<string, string>();
  for (const line of r.stdout.split('\n')) {
    const m = /^(\S+)\s+(device|offline|unauthorized|connecting|authorizing|recovery|sideload|bootloader)\b/.exec(line);
    if (m?.[1] && m[2]) out.set(m[1], m[2]);
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `adb connect TARGET` on this server, then wait until `adb devices` lists it as a `device` (a fresh
 * connection is `offline`/`authorizing` for a moment). A value, never a throw.
 */
export async function adbConnect(
  server: AdbServerAddress,
  target: string,
  waitMs = 10_000,
): Promise<{ ok: true } | { ok: false; message: string }> {
  const r = await runAdb(server, ['connect', target], 20_000);
  const said = `${r.stdout} ${r.stderr}`.trim();
  if (r.code !== 0 || !/connected to/.test(said) || CONNECT_FAILED.test(r.stdout))
    return { ok: false, message: `adb connect ${target} failed: ${said || `exit ${r.code}`}` };
  const until = Date.now() + waitMs;
  let state: string | undefined;
  while (Date.now() < until) {
    state = (await adbDeviceStates(server)).get(target);
    if (state === 'device') return { ok: true };
    await sleep(100);
  }
  return {
    ok: false,
    message: `${target} is ${state ?? 'not listed'} in \`adb devices\` ${waitMs} ms after connecting`,
  };
}

/** `adb disconnect TARGET`; true when the server let it go (or never had it). */
export async function adbDisconnect(server: AdbServerAddress, target: string): Promise<boolean> {
  const r = await runAdb(server, ['disconnect', target], 15_000);
  return r.code === 0 || /no such device/i.test(`${r.stdout}${r.stderr}`);
}

/**
 * A free port BELOW the kernel's ephemeral range (32768+). The adb client first connects to the
 * server port before the server exists; with a port from the ephemeral range the kernel can pick
 * that very port as the client's source port, and TCP then connects the client to itself (adb
 * reports "protocol fault (status 30 30 30 63?!)" — its own request echoed back).
 */
export async function freeAdbServerPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port in 20000-32000 for a private adb server');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** An adb server of our own on a private port (never the machine's 5037), killed when done. */
export interface PrivateAdbServer extends AdbServerAddress {
  port: number;
  kill(): Promise<void>;
}

export async function startPrivateAdbServer(bin?: string): Promise<PrivateAdbServer> {
  const port = await freeAdbServerPort();
  const server = { port, bin };
  const r = await runAdb(server, ['start-server'], 30_000);
  if (r.code !== 0)
    throw new Error(
      `adb start-server -P ${port} failed (${r.code}): ${r.stderr.trim() || r.stdout.trim() || 'no output'} — is the \`adb\` binary installed (Debian: apt-get install adb)?`,
    );
  return {
    ...server,
    host: '127.0.0.1',
    kill: async () => {
      await runAdb(server, ['kill-server'], 15_000);
    },
  };
}
