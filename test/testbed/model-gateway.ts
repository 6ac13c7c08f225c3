import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback gateway in front of a model server (the reference model over real HTTP) that can be
 * switched to answer 503 — a provider outside the project going away, or a relayed player gone —
 * and counts the requests that reached it. For the tests of what a long measurement does then.
 */
export interface ModelGateway {
  /** `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** While true, every request is answered 503. */
  down: boolean;
  /** Requests received (answered or not). */
  calls: number;
  close(): Promise<void>;
}

export async function startModelGateway(target: string): Promise<ModelGateway> {
  const state = { down: false, calls: 0 };
  const server = createServer(async (req, res) => {
    state.calls++;
    if (state.down) {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the model is gone' } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const r = await fetch(`${target}${(req.url ?? '').replace(/^\/v1/, '')}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(r.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get down() {
      return state.down;
    },
    set down(v: boolean) {
      state.down = v;
    },
    get calls() {
      return state.calls;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
