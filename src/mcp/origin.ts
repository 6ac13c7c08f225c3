import type { IncomingMessage, ServerResponse } from 'node:http';
import { ActionableError } from '../core/errors.js';

/**
 * The Origin check of the MCP streamable HTTP transport (spec: servers MUST validate Origin, and
 * answer 403 to an invalid one, against DNS rebinding): a web page — whatever host name it was
 * loaded from — must not drive the phone through a browser on this machine. A request without
 * Origin (a non-browser client: an SDK, curl, the Inspector CLI) is not a page and passes on to the
 * token check; one from the server's own origin is harmless; any other origin is refused unless the
 * person who started the server listed it (`--allow-origin`, PHONE_AGENT_MCP_ORIGINS). A listed
 * origin gets the CORS answers a browser client needs (preflight, exposed session header).
 */

/** `https://a.example, http://localhost:5173` → exact origins; anything else is a usage error. */
export function parseOrigins(list: string | undefined, from: string): string[] {
  if (!list?.trim()) return [];
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((o) => {
      let url: URL | undefined;
      try {
        url = new URL(o);
      } catch {
        url = undefined;
      }
      // What a browser sends: scheme, host and a port other than the default — no path, no query.
      const bare =
        url &&
        url.pathname === '/' &&
        !url.search &&
        !url.hash &&
        !url.username &&
        !/\/.+/.test(o.slice(url.protocol.length + 2));
      const origin = bare ? url?.origin : undefined;
      if (!origin || origin === 'null')
        throw new ActionableError(
          'USAGE',
          `${from}: "${o}" is not an origin`,
          'give scheme://host[:port] with nothing after it, e.g. http://localhost:5173',
        );
      return origin;
    });
}

export class OriginPolicy {
  private readonly allowed: Set<string>;
  constructor(configured: readonly string[]) {
    this.allowed = new Set(configured);
  }

  /** The server's own origins, once its port is known. */
  allowSelf(port: number): void {
    this.allowed.add(`http://127.0.0.1:${port}`);
    this.allowed.add(`http://localhost:${port}`);
  }

  /**
   * Answers the request itself when it must not go further (403 for a foreign origin, 204 for an
   * allowed preflight) and returns true; otherwise adds the CORS headers an allowed origin needs.
   */
  refuse(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return false;
    if (!this.allowed.has(origin.toLowerCase())) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: {
            code: -32000,
            message: `forbidden: Origin ${origin} is not allowed (DNS-rebinding protection); start the server with --allow-origin ${origin} (or PHONE_AGENT_MCP_ORIGINS) to let that page in`,
          },
          id: null,
        }),
      );
      return true;
    }
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'Origin');
    res.setHeader('access-control-expose-headers', 'mcp-session-id');
    if (req.method !== 'OPTIONS') return false;
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers':
        'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
      'access-control-max-age': '600',
    });
    res.end();
    return true;
  }
}
