import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { httpClient, httpServerPerFile, ROOT, serverArgs, TSX } from './harness.js';

/**
 * `phone-agent mcp --http` validates Origin (the MCP transport spec, against DNS rebinding): a
 * browser page from a foreign origin gets 403 whatever token it sends; requests without Origin (SDK
 * clients, curl) work as before; `--allow-origin` lets a listed page in, with the CORS answers a
 * browser needs. Driven over real HTTP (node:http) against the CLI process.
 */

const ALLOWED = 'http://app.example:5173';
const file = httpServerPerFile(['--allow-origin', `${ALLOWED}, https://tool.example`]);

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over node:http, which sends the Origin header as given (a browser would too). */
function send(method: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request(file.server().url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (b: Buffer) => {
        text += b.toString();
      });
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.once('error', fail);
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'origin-test', version: '1' } },
});
const post = (extra: Record<string, string>) =>
  send(
    'POST',
    {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${file.server().token}`,
      ...extra,
    },
    INIT,
  );

describe('Origin on phone-agent mcp --http', () => {
  it.each(['http://evil.example', 'http://127.0.0.1.nip.io:8765', 'null'])(
    'a page from %s gets 403 even with the right token, and is told how to allow it',
    async (origin) => {
      const r = await post({ origin });
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body).error.message).toContain(`Origin ${origin} is not allowed`);
      expect(r.body).toContain('--allow-origin');
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  it('a request without Origin (a non-browser client) still works: initialize, then an SDK client', async () => {
    const r = await post({});
    expect(r.status).toBe(200);
    expect(r.headers['mcp-session-id']).toEqual(expect.any(String));
    const c = await httpClient(file.server());
    const tools = await c.client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('observe');
    await c.client.close();
  });

  it("the server's own origin passes; a foreign one is refused before the token is looked at", async () => {
    const port = new URL(file.server().url).port;
    expect((await post({ origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await post({ origin: `http://localhost:${port}` })).status).toBe(200);
    const noToken = await send('POST', { 'content-type': 'application/json', origin: 'http://evil.example' }, INIT);
    expect(noToken.status).toBe(403);
  });

  it('a listed origin gets its preflight answered and CORS headers on the reply; the token still rules', async () => {
    const pre = await send('OPTIONS', {
      origin: ALLOWED,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, mcp-session-id',
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(pre.headers['access-control-allow-headers'])).toContain('mcp-session-id');
    const r = await post({ origin: ALLOWED });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(r.headers['access-control-expose-headers']).toBe('mcp-session-id');
    expect((await post({ origin: 'https://tool.example' })).status).toBe(200);
    const wrong = await post({ origin: ALLOWED, authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
  });

  it('an --allow-origin value that is not an origin is a usage error (exit 2) naming it', async () => {
    const p = spawn(
      TSX,
      serverArgs(file.phone(), file.dirs(), ['--http', '--port', '0', '--allow-origin', 'http://x.example/app']),
      {
        cwd: ROOT,
        env: file.dirs().env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    p.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    const code = await new Promise((ok) => p.once('exit', ok));
    expect(code).toBe(2);
    expect(err).toContain('--allow-origin: "http://x.example/app" is not an origin');
  });
});
