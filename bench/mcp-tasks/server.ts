import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `phone-agent mcp --http` as a user starts it — the real CLI in a process of its own, on loopback,
 * `--device SERIAL` on a given adb server (plain ADB: the virtual phone has no helper), the token
 * from the environment (never on the command line, where `ps` shows it), and `--call-log` so the
 * server itself records every call it served.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const START_MS = 60_000;

export interface McpServerProcess {
  url: string;
  port: number;
  /** What the process wrote to stderr (its warnings), for a report when it fails. */
  stderr(): string;
  /** SIGTERM, then wait for the exit (the server flushes its call log first). */
  stop(): Promise<void>;
}

export interface McpServerOptions {
  serial: string;
  adb: { host?: string; port?: number };
  token: string;
  /** 0 for a free one; a port the previous task's server used keeps the client's URL the same. */
  port: number;
  callLog: string;
  runsDir: string;
  lockDir?: string;
}

/** The model settings a server must not inherit: this harness measures the direct tools, not a model of ours. */
const MODEL_ENV = ['OPENAI_BASE_URL', 'PHONE_AGENT_MODEL', 'PHONE_AGENT_PRESET', 'OPENAI_API_KEY'];

export async function startMcpServer(o: McpServerOptions): Promise<McpServerProcess> {
  const argv = [
    'src/cli/main.ts',
    'mcp',
    '--http',
    '--port',
    String(o.port),
    '--device',
    o.serial,
    ...(o.adb.host ? ['--adb-host', o.adb.host] : []),
    ...(o.adb.port ? ['--adb-port', String(o.adb.port)] : []),
    '--runs-dir',
    o.runsDir,
    '--memory',
    path.join(path.dirname(o.callLog), 'page-memory.json'),
    '--call-log',
    o.callLog,
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, PHONE_AGENT_MCP_TOKEN: o.token };
  for (const k of MODEL_ENV) delete env[k];
  if (o.lockDir) env.PHONE_AGENT_LOCK_DIR = o.lockDir;
  const child = spawn(TSX, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const url = await firstLine(child, exited).catch(async (e: unknown) => {
    child.kill('SIGTERM');
    await exited;
    throw new Error(`phone-agent mcp did not start: ${e instanceof Error ? e.message : String(e)}\n${err.trim()}`);
  });
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The server's one stdout line, `{"url": …, "device": …}`, once it listens. */
function firstLine(child: ChildProcess, exited: Promise<number | null>): Promise<string> {
  return new Promise((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`no "listening" line within ${START_MS / 1000} s`)), START_MS);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      try {
        ok((JSON.parse(out.slice(0, nl)) as { url: string }).url);
      } catch {
        fail(new Error(`unexpected first line: ${out.slice(0, nl)}`));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`it exited with code ${code}`));
    });
  });
}
