import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLockKey, lockDevice } from '../../src/store/device-lock.js';
import {
  type Dirs,
  type HttpServerProc,
  httpClient,
  idOf,
  MAIN,
  type Phone,
  ROOT,
  sc,
  startHttpServer,
  startPhone,
  TSX,
  tempDirs,
  text,
} from './harness.js';

/**
 * `phone-agent mcp --http`: the streamable HTTP transport on 127.0.0.1 behind a bearer token, two
 * clients on one device, and the one device lock shared with other drivers (a CLI run, another
 * process) — a second driver gets BUSY naming the holder. The MCP Inspector CLI, a third-party
 * client, lists the tools and calls observe and tap.
 */

let phone: Phone;
let dirs: Dirs;
let server: HttpServerProc;

beforeAll(async () => {
  phone = await startPhone();
  dirs = await tempDirs();
  server = await startHttpServer(phone, dirs);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await phone?.close();
  await dirs?.close();
});

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = ROOT,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((ok) => {
    const p = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    p.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    p.once('exit', (code) => ok({ code, out, err }));
  });
}

describe('phone-agent mcp --http', () => {
  it('listens on loopback, prints a generated token once, and refuses requests without it (401)', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(server.url, { method: 'POST', headers, body });
    expect(none.status).toBe(401);
    const wrong = await fetch(server.url, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer nope' },
      body,
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/Authorization: Bearer/);
  });

  it('serves two clients on one device: one observes, the other taps, the first sees the delta', async () => {
    const a = await httpClient(server);
    const b = await httpClient(server);
    try {
      await a.client.callTool({ name: 'press_key', arguments: { key: 'home', verificationMode: 'none' } });
      const o = await a.client.callTool({ name: 'observe', arguments: {} });
      const rev = sc(o).snapshot_revision as number;
      const tap = sc(
        await b.client.callTool({
          name: 'tap',
          arguments: { element_id: idOf(text(o), 'Settings'), verificationMode: 'light', responseMode: 'compact' },
        }),
      );
      expect(tap).toMatchObject({ success: true, delivery_status: 'delivered' });
      const d = text(await a.client.callTool({ name: 'observe', arguments: { since_revision: rev } }));
      expect(d).toMatch(/\+ \[\w+\] "Network & internet/);
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  it('gives BUSY naming the holder while another driver holds the device, and works once it lets go', async () => {
    const lock = await lockDevice(deviceLockKey(phone.bridge.url), {
      command: 'phone-agent run test-holder',
      dir: dirs.locks,
    });
    const c = await httpClient(server);
    try {
      const r = await c.client.callTool({ name: 'tap', arguments: { point: { x: 500, y: 500 } } });
      expect(r.isError).toBe(true);
      expect(sc(r)).toMatchObject({ failure_code: 'BUSY', dispatch_started: false, retryable: true });
      expect(String(sc(r).message)).toContain(`phone-agent run test-holder (pid ${process.pid}`);
      const task = sc(await c.client.callTool({ name: 'mobile_run_task', arguments: { goal: 'Turn Wi-Fi off' } }));
      expect(task.failure_code).toBe('BUSY');
    } finally {
      await lock.release();
    }
    const ok = sc(await c.client.callTool({ name: 'observe', arguments: {} }));
    expect(ok.snapshot_revision).toEqual(expect.any(Number));
    await c.client.close();
  });

  it('a CLI run on a device an MCP task holds gets BUSY', async () => {
    // The task holds the device while it waits for the user's consent: the CLI run comes then.
    let cli: Awaited<ReturnType<typeof run>> | undefined;
    const c = await httpClient(server, {
      elicit: async () => {
        cli = await run(
          TSX,
          [
            MAIN,
            'run',
            'Turn Wi-Fi off',
            '--device',
            phone.bridge.url,
            '--token',
            phone.bridge.token,
            '--model',
            'reference',
            '--json',
            '--runs-dir',
            path.join(dirs.root, 'cli-runs'),
          ],
          dirs.env,
        );
        return false;
      },
    });
    try {
      await c.client.callTool({ name: 'press_key', arguments: { key: 'home' } });
      const t = sc(
        await c.client.callTool(
          { name: 'mobile_run_task', arguments: { goal: 'Text 15551234567: "On my way".', max_steps: 17 } },
          undefined,
          { timeout: 120_000 },
        ),
      );
      expect(cli?.code, `${cli?.err}${cli?.out}`).toBe(2);
      expect(cli?.err).toMatch(/device http:\/\/127\.0\.0\.1:\d+ is busy: driven by mcp mobile_run_task \S+ \(pid \d+/);
      expect(t.status).not.toBe('done');
      expect(phone.phone.world.sent).toHaveLength(0);
      expect(phone.phone.world.toggles.wifi ?? 0).toBe(0);
    } finally {
      await c.client.close();
    }
  }, 120_000);

  it('the MCP Inspector CLI lists the tools and calls observe and tap', async () => {
    const build = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');
    const base = [
      path.join(build, 'index.js'),
      server.url,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${server.token}`,
    ];
    // inspector-cli 1.0.3 checks for its package.json relative to the working directory but imports
    // it relative to itself: it runs from its own build folder.
    const inspect = (args: string[]) => run(process.execPath, [...base, ...args], dirs.env, build);
    const list = await inspect(['--method', 'tools/list']);
    expect(list.code, list.err).toBe(0);
    const names = (JSON.parse(list.out).tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['observe', 'tap', 'mobile_run_task', 'run_journey']));

    const home = await inspect(['--method', 'tools/call', '--tool-name', 'press_key', '--tool-arg', 'key=home']);
    expect(home.code, home.err).toBe(0);
    const obs = await inspect(['--method', 'tools/call', '--tool-name', 'observe']);
    expect(obs.code, obs.err).toBe(0);
    const view = JSON.parse(obs.out).content[0].text as string;
    const id = idOf(view, 'Clock');
    const tap = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'tap',
      '--tool-arg',
      `element_id=${id}`,
      '--tool-arg',
      'responseMode=compact',
    ]);
    expect(tap.code, tap.err).toBe(0);
    expect(JSON.parse(tap.out).structuredContent).toMatchObject({ success: true, delivery_status: 'delivered' });
    expect(text(await (await httpClient(server)).client.callTool({ name: 'observe', arguments: {} }))).toContain(
      'com.android.deskclock',
    );
  }, 60_000);
});
