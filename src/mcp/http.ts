import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ActionableError } from '../core/errors.js';
import { OriginPolicy } from './origin.js';

/**
 * The streamable HTTP transport on loopback only, behind a bearer token: the server drives a phone
 * and shows its screen, so nothing without the token gets past the door (401), nothing off this
 * machine can reach it, and no web page from a foreign origin can either (403, ./origin.ts). One MCP session (and McpServer) per client; they share the device.
 */

export interface HttpOptions {
  port: number;
  /** Default: 32 random bytes, hex (printed once at start). */
  token?: string;
  newServer: () => McpServer;
  /** Browser origins let in besides the server's own (`--allow-origin`): any other Origin gets 403. */
  allowedOrigins?: readonly string[];
}

export interface HttpMcp {
  url: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY = 4 * 1024 * 1024;

function authorized(req: IncomingMessage, token: string): boolean {
  const h = req.headers.authorization ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(h);
  if (!m) return false;
  const a = Buffer.from(m[1] as string);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, error: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `${error}: ${message}` }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Error(`request body over ${MAX_BODY} bytes`);
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startHttpMcp(opts: HttpOptions): Promise<HttpMcp> {
  if (opts.token !== undefined && opts.token.length < 16)
    throw new ActionableError(
      'USAGE',
      'the MCP bearer token is shorter than 16 characters',
      'omit --token to get a random one',
    );
  const token = opts.token ?? randomBytes(32).toString('hex');
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  let allowedHosts: string[] = [];
  const origins = new OriginPolicy(opts.allowedOrigins ?? []);

  const http = createServer(async (req, res) => {
    try {
      // First, before the token: a page from a foreign origin is refused whatever it sends.
      if (origins.refuse(req, res)) return;
      if (!authorized(req, token))
        return send(res, 401, 'unauthorized', 'send Authorization: Bearer <token> (printed when the server started)');
      if (!req.url?.startsWith('/mcp')) return send(res, 404, 'not found', 'the MCP endpoint is /mcp');
      const sid = req.headers['mcp-session-id'];
      const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
      if (req.method === 'POST') {
        const body = await readJson(req).catch((e: unknown) => e as Error);
        if (body instanceof Error) return send(res, 400, 'bad request', `the body is not JSON (${body.message})`);
        if (known) return await known.transport.handleRequest(req, res, body);
        if (sid !== undefined) return send(res, 404, 'unknown session', 'start a new session with initialize');
        if (!isInitializeRequest(body))
          return send(res, 400, 'bad request', 'no session: the first request must be initialize');
        const server = opts.newServer();
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableDnsRebindingProtection: true,
          allowedHosts,
          onsessioninitialized: (id) => {
            sessions.set(id, { transport, server });
          },
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await server.connect(transport);
        return await transport.handleRequest(req, res, body);
      }
      if (!known) return send(res, 400, 'bad request', 'GET and DELETE need a valid mcp-session-id');
      return await known.transport.handleRequest(req, res);
    } catch (e) {
      if (!res.headersSent) send(res, 500, 'internal error', e instanceof Error ? e.message : String(e));
    }
  });
  // Loopback only, always: there is no option to listen elsewhere.
  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(opts.port, '127.0.0.1', () => ok());
  });
  const port = (http.address() as AddressInfo).port;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  origins.allowSelf(port);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    token,
    async close() {
      for (const s of sessions.values()) await s.server.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((ok) => http.close(() => ok()));
    },
  };
}
