import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import { RealClock } from '../../src/core/clock.js';
import { type BridgeServer, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

/**
 * The MCP tests' rig: a virtual phone in this process behind its real bridge server (so the test
 * can read the world and inject latency), and `phone-agent mcp` as a child process driving it over
 * that bridge — spoken to with the SDK's own Client over stdio or streamable HTTP.
 */

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
export const MAIN = path.join(ROOT, 'src/cli/main.ts');

export interface Phone {
  phone: VirtualPhone;
  bridge: BridgeServer;
  close(): Promise<void>;
}

export async function startPhone(): Promise<Phone> {
  const phone = new VirtualPhone({ clock: new RealClock(), seed: 1, locale: 'en' });
  const bridge = await startBridgeServer({ phone });
  return { phone, bridge, close: () => bridge.close() };
}

export interface Dirs {
  root: string;
  runs: string;
  locks: string;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** A temp root with the runs folder and a private lock dir (shared by every process of the test). */
export async function tempDirs(): Promise<Dirs> {
  const root = await mkdtemp(path.join(tmpdir(), 'pa-mcp-'));
  const locks = path.join(root, 'locks');
  return {
    root,
    runs: path.join(root, 'runs'),
    locks,
    // The server's knowledge store is the test's own, not the checkout's .phone-agent.
    env: { ...process.env, PHONE_AGENT_LOCK_DIR: locks, PHONE_AGENT_KNOWLEDGE_DIR: path.join(root, 'knowledge') },
    close: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * Only the bridge is spoken to: any phone behind a bridge server (the virtual phone, a replay phone).
 * `withModel: false`: no model configured (nor inherited from the environment, see `serverEnv`).
 */
export function serverArgs(p: Pick<Phone, 'bridge'>, d: Dirs, extra: string[] = [], withModel = true): string[] {
  return [
    MAIN,
    'mcp',
    '--device',
    p.bridge.url,
    '--token',
    p.bridge.token,
    ...(withModel ? ['--model', 'reference'] : []),
    '--runs-dir',
    d.runs,
    '--memory',
    path.join(d.root, 'memory.json'),
    ...extra,
  ];
}

export interface Elicited {
  messages: string[];
}

/** An SDK client; with `elicit`, it declares elicitation and answers every request with it. */
export function newClient(elicit?: (message: string) => boolean | Promise<boolean>): {
  client: Client;
  elicited: Elicited;
} {
  const elicited: Elicited = { messages: [] };
  const client = new Client(
    { name: 'phone-agent-test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      const message = String(req.params.message);
      elicited.messages.push(message);
      return { action: 'accept', content: { approve: await elicit(message) } };
    });
  return { client, elicited };
}

export async function stdioClient(
  p: Pick<Phone, 'bridge'>,
  d: Dirs,
  opts: { elicit?: (message: string) => boolean } = {},
): Promise<{ client: Client; elicited: Elicited }> {
  const c = newClient(opts.elicit);
  const transport = new StdioClientTransport({
    command: TSX,
    args: serverArgs(p, d),
    cwd: ROOT,
    env: d.env as Record<string, string>,
    stderr: 'pipe',
  });
  await c.client.connect(transport);
  return c;
}

export interface HttpServerProc {
  url: string;
  token: string;
  proc: ChildProcess;
  stderr: () => string;
  close(): Promise<void>;
}

/** `phone-agent mcp --http --port 0`: waits for the line naming its URL. */
export async function startHttpServer(
  p: Phone,
  d: Dirs,
  token?: string,
  extra: string[] = [],
  withModel = true,
): Promise<HttpServerProc> {
  const args = ['--http', '--port', '0', ...(token ? ['--http-token', token] : []), ...extra];
  const env = { ...d.env };
  if (!withModel) for (const k of ['OPENAI_BASE_URL', 'PHONE_AGENT_MODEL', 'PHONE_AGENT_PRESET']) delete env[k];
  const proc = spawn(TSX, serverArgs(p, d, args, withModel), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr?.on('data', (b: Buffer) => {
    err += b.toString();
  });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`no URL from mcp --http: ${err}`)), 20_000);
    proc.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        ok(JSON.parse(line).url);
      }
    });
    proc.once('exit', (code) => fail(new Error(`mcp --http exited ${code}: ${err}`)));
  });
  const printed = /bearer token: (\w+)/.exec(err)?.[1];
  return {
    url,
    token: token ?? printed ?? '',
    proc,
    stderr: () => err,
    close: async () => {
      if (proc.exitCode !== null) return;
      const exited = new Promise((ok) => proc.once('exit', ok));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

export async function httpClient(
  s: HttpServerProc,
  opts: { elicit?: (message: string) => boolean | Promise<boolean> } = {},
): Promise<{ client: Client; elicited: Elicited }> {
  const c = newClient(opts.elicit);
  const transport = new StreamableHTTPClientTransport(new URL(s.url), {
    requestInit: { headers: { Authorization: `Bearer ${s.token}` } },
  });
  await c.client.connect(transport);
  return c;
}

/** The structured result of a tool call. */
export function sc(r: unknown): Record<string, unknown> {
  return ((r as CallToolResult).structuredContent ?? {}) as Record<string, unknown>;
}

export function text(r: unknown): string {
  const c = (r as CallToolResult).content ?? [];
  return c.map((x) => (x.type === 'text' ? x.text : `[${x.type}]`)).join('\n');
}

/** The id of the element whose compact line carries `label`. */
export function idOf(view: string, label: string): string {
  const line = view.split('\n').find((l) => l.includes(`"${label}"`));
  const m = line && /^\[([0-9a-f~]+)\]/.exec(line);
  if (!m) throw new Error(`no element "${label}" in:\n${view}`);
  return m[1] as string;
}

/** A virtual phone, temp dirs and one `mcp --http` server (with `extra` flags) for a test file's life. */
export function httpServerPerFile(
  extra: string[] | ((d: Dirs) => string[]) = [],
  withModel = true,
): {
  phone: () => Phone;
  dirs: () => Dirs;
  server: () => HttpServerProc;
} {
  let phone: Phone | undefined;
  let dirs: Dirs | undefined;
  let server: HttpServerProc | undefined;
  beforeAll(async () => {
    phone = await startPhone();
    dirs = await tempDirs();
    server = await startHttpServer(
      phone,
      dirs,
      undefined,
      typeof extra === 'function' ? extra(dirs) : extra,
      withModel,
    );
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await phone?.close();
    await dirs?.close();
  });
  const need = <T>(v: T | undefined): T => {
    if (!v) throw new Error('httpServerPerFile: used outside a test');
    return v;
  };
  return { phone: () => need(phone), dirs: () => need(dirs), server: () => need(server) };
}
