import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ActionableError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { APPS_PATH, AppsRequestSchema, LIST_APPS_CAPABILITY } from '../../../device/protocol/apps.js';
import { COMPAT_TOKEN_HEADER, CompatRequestSchema } from '../../../device/protocol/compat.js';
import { SnapshotRequestSchema } from '../../../device/protocol/wire.js';
import { launcherApps } from '../launcher-apps.js';
import type { PhoneSurface } from '../surface.js';
import { CompatHandler } from './compat.js';
import { V3Handler } from './handler.js';
import {
  BodyTooLarge,
  bearer,
  declaredLength,
  headerValue,
  parseJson,
  quoteBrief,
  readBody,
  refuse,
  sendJson,
  tokenMatches,
} from './http.js';
import { hello, snapshot } from './snapshot.js';

/**
 * The helper bridge (helper/PROTOCOL.md) served by the virtual phone over node:http. Loopback only
 * unless `allowRemote`; a random token per start; nothing of a request (token, screen text, typed
 * text) is ever logged — only method, path, action name, status and error code.
 */

export interface BridgeServerOptions {
  phone: PhoneSurface;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1; any non-loopback interface needs `allowRemote: true`. */
  host?: string;
  allowRemote?: boolean;
  /** Default: 32 random bytes, hex. */
  token?: string;
  logger?: Logger;
  /** Default 256 KiB. */
  maxBodyBytes?: number;
  /** A request's headers must be in within this (ms, default 10 000), else 408 and close. */
  headerTimeoutMs?: number;
  /** The whole request, body included, within this (ms, default 30 000), else 408 and close. */
  bodyTimeoutMs?: number;
  /** Capabilities to leave out of `hello` and refuse (an older helper: e.g. `guarded_touch`). */
  omitCapabilities?: readonly string[];
}

export interface BridgeServer {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
export const DEFAULT_HEADER_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

type ErrCode = 'UNAUTHORIZED' | 'PAYLOAD_TOO_LARGE' | 'INVALID_ARGUMENT' | 'NO_SUCH_ENDPOINT' | 'INTERNAL';

function v3Body(code: ErrCode, message: string) {
  return { error: { code, message } };
}

function v3Error(res: ServerResponse, status: number, code: ErrCode, message: string): void {
  sendJson(res, status, v3Body(code, message));
}

export async function startBridgeServer(opts: BridgeServerOptions): Promise<BridgeServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopback(host) && !opts.allowRemote)
    throw new ActionableError(
      'BRIDGE_REMOTE',
      `refusing to listen on ${host}: the bridge drives the phone and exposes screen content`,
      'listen on 127.0.0.1, or pass allowRemote (CLI: --allow-remote) if you really mean it',
    );
  if (opts.token !== undefined && opts.token.length === 0)
    throw new ActionableError('BRIDGE_TOKEN', 'empty bridge token', 'omit the token to get a random one');
  const token = opts.token ?? randomBytes(32).toString('hex');
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { phone } = opts;
  const log = opts.logger?.child('bridge');
  const omit = opts.omitCapabilities ?? [];
  const v3 = new V3Handler(phone, omit);
  const compat = new CompatHandler(phone);
  const hung = new Set<ServerResponse>();
  const headerTimeout = opts.headerTimeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
  const bodyTimeout = Math.max(headerTimeout, opts.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
  const transport = { maxBodyBytes: maxBody, headerTimeoutMs: headerTimeout, bodyTimeoutMs: bodyTimeout };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<string> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const isCompat = path === '/action';
    const given = isCompat ? headerValue(req, COMPAT_TOKEN_HEADER) : bearer(req);
    const tooLarge = () => {
      if (isCompat) refuse(req, res, 413, { ok: false, summary: `body larger than ${maxBody} bytes` });
      else refuse(req, res, 413, v3Body('PAYLOAD_TOO_LARGE', `the body is larger than ${maxBody} bytes`));
      return 'too large';
    };
    // Token, method and size are decided from the headers, before a byte of the body is read.
    if (!tokenMatches(given, token)) {
      if (isCompat) refuse(req, res, 401, { ok: false, summary: `missing or wrong ${COMPAT_TOKEN_HEADER}` });
      else refuse(req, res, 401, v3Body('UNAUTHORIZED', 'missing or wrong token (authorization: Bearer <token>)'));
      return 'unauthorized';
    }
    if (req.method !== 'POST') {
      refuse(req, res, 405, v3Body('INVALID_ARGUMENT', 'use POST'));
      return 'method';
    }
    if ((declaredLength(req) ?? 0) > maxBody) return tooLarge();
    let body: Buffer;
    try {
      body = await readBody(req, maxBody);
    } catch (e) {
      if (!(e instanceof BodyTooLarge)) throw e;
      return tooLarge();
    }
    const json = parseJson(body);
    if (isCompat) {
      if (!json.ok) {
        sendJson(res, 400, { ok: false, summary: json.message });
        return 'bad json';
      }
      const name = (json.value as { action?: unknown } | null)?.action;
      const parsed = CompatRequestSchema.safeParse(json.value);
      if (!parsed.success) {
        const known = CompatRequestSchema.options.map((o) => o.shape.action.value);
        const summary = known.includes(name as never)
          ? z.prettifyError(parsed.error)
          : `unknown action ${quoteBrief(name)}; supported: ${known.join(', ')}`;
        sendJson(res, 400, { ok: false, summary });
        return 'invalid';
      }
      const out = await compat.handle(parsed.data);
      sendJson(res, 200, out);
      return `compat ${parsed.data.action} ${out.ok ? 'ok' : 'failed'}`;
    }
    if (!json.ok) {
      v3Error(res, 400, 'INVALID_ARGUMENT', json.message);
      return 'bad json';
    }
    switch (path) {
      case '/v3/hello':
        sendJson(res, 200, hello(phone, transport, omit));
        return 'hello';
      case '/v3/snapshot': {
        const parsed = SnapshotRequestSchema.safeParse(json.value);
        if (!parsed.success) {
          v3Error(res, 400, 'INVALID_ARGUMENT', z.prettifyError(parsed.error));
          return 'invalid';
        }
        sendJson(res, 200, await snapshot(phone, parsed.data));
        return 'snapshot';
      }
      case APPS_PATH: {
        // An older helper (omitted capability) has no such endpoint at all.
        if (omit.includes(LIST_APPS_CAPABILITY)) break;
        const parsed = AppsRequestSchema.safeParse(json.value);
        if (!parsed.success) {
          v3Error(res, 400, 'INVALID_ARGUMENT', z.prettifyError(parsed.error));
          return 'invalid';
        }
        sendJson(res, 200, { apps: launcherApps(phone) });
        return 'apps';
      }
      case '/v3/action': {
        const out = await v3.action(json.value);
        sendJson(res, out.status, out.body);
        return out.summary;
      }
      case '/v3/cancel': {
        const out = v3.cancel(json.value);
        sendJson(res, out.status, out.body);
        return 'cancel';
      }
    }
    v3Error(res, 404, 'NO_SUCH_ENDPOINT', `no endpoint ${path}; see helper/PROTOCOL.md`);
    return 'no endpoint';
  }

  // Node answers 408 and closes when a request's headers (headersTimeout) or all of it
  // (requestTimeout) are not in time; it looks every connectionsCheckingInterval.
  const server = createServer({
    headersTimeout: headerTimeout,
    requestTimeout: bodyTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headerTimeout / 4))),
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (phone.faults.helperDisconnected) {
      req.socket.destroy();
      return;
    }
    if (phone.faults.helperUnresponsive) {
      // Never answer: the client's deadline decides. Closing the server ends these sockets.
      hung.add(res);
      res.on('close', () => hung.delete(res));
      req.resume();
      return;
    }
    const started = phone.clock.now();
    route(req, res)
      .then((what) =>
        log?.debug(`${req.method} ${req.url?.split('?')[0]} ${what} ${res.statusCode}`, {
          ms: phone.clock.now() - started,
        }),
      )
      .catch((e: unknown) => {
        log?.error(`${req.method} ${req.url?.split('?')[0]} failed`, { error: e instanceof Error ? e.name : 'error' });
        v3Error(res, 500, 'INTERNAL', 'the helper failed; see its log');
      });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log?.info(`bridge listening on ${url}`);

  return {
    url,
    token,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        v3.abortAll();
        for (const res of hung) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
