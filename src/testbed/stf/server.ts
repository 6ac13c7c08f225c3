import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STF_API_BASE, StfAddUserDevicePayloadSchema, type StfDevice, stfAddable } from '../../device/protocol/stf.js';
import { type FarmDevice, farmDevice, type Owner, type StandInPhone } from './farm.js';

/**
 * A stand-in STF farm on loopback, written from STF's API description (api_v1.yaml) and its
 * controllers' behaviour: bearer-token auth, `GET /devices` with `fields`, `POST /user/devices`
 * (403 when the device is not addable), `remoteConnect` handing out a `host:port` that relays to a
 * virtual phone's ADB transport, and releases — asked for, or by the lease running out. It is not
 * STF (no RethinkDB, no providers, no groups or bookings); it answers what phone-agent asks.
 */

export interface StandInOptions {
  phones: StandInPhone[];
  /** The one user's access token (default random). */
  token?: string;
  /** STF's provider group timeout: the lease when `POST /user/devices` gives none (default 15 min). */
  groupTimeoutMs?: number;
  /** 0 (default) picks a free port; always on 127.0.0.1. */
  port?: number;
}

export interface StandInCall {
  method: string;
  path: string;
  status: number;
}

export interface StandInStf {
  /** The farm's address (its API is under /api/v1). */
  url: string;
  token: string;
  devices: FarmDevice[];
  /** Every API call, in order (method, path without the query, status). */
  calls: StandInCall[];
  /** Each lease that ended, and why (`ungroup_request`, `automatic_timeout`). */
  leaves: { serial: string; reason: string }[];
  close(): Promise<void>;
}

const USER: Owner = { email: 'tester@stand-in.stf', name: 'tester', group: 'stand-in-group' };

type Reply = { status: number; body: Record<string, unknown> };
const ok = (description: string, extra: Record<string, unknown> = {}): Reply => ({
  status: 200,
  body: { success: true, description, ...extra },
});
const refuse = (status: number, description: string): Reply => ({ status, body: { success: false, description } });

function pick(d: StfDevice, fields: string | null): Partial<StfDevice> {
  if (!fields) return d;
  const wanted = new Set(fields.split(','));
  return Object.fromEntries(Object.entries(d).filter(([k]) => wanted.has(k)));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) return undefined;
    chunks.push(c as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
  } catch {
    return undefined;
  }
}

/** STF's `accessTokenAuth` (lib/units/api/helpers/securityHandlers.ts), its three refusals. */
function authError(req: IncomingMessage, token: string): Reply | undefined {
  const h = req.headers.authorization;
  if (!h) return refuse(401, 'Requires Authentication');
  const [format, id] = h.split(' ');
  if (format !== 'Bearer') return refuse(401, 'Authorization header should be in "Bearer $AUTH_TOKEN" format');
  if (!id || id !== token) return refuse(401, 'Bad Credentials');
  return undefined;
}

export async function startStandInStf(opts: StandInOptions): Promise<StandInStf> {
  const token = opts.token ?? randomBytes(16).toString('hex');
  const groupTimeoutMs = opts.groupTimeoutMs ?? 15 * 60_000;
  const calls: StandInCall[] = [];
  const leaves: { serial: string; reason: string }[] = [];
  const devices: FarmDevice[] = [];
  for (const p of opts.phones)
    devices.push(await farmDevice(p, (d, reason) => leaves.push({ serial: d.serial, reason })));
  const find = (serial: string) => devices.find((d) => d.serial === serial);
  const mine = (d: FarmDevice | undefined) => d?.owner?.email === USER.email && !d.spec.absent;

  async function route(req: IncomingMessage, url: URL): Promise<Reply> {
    const denied = authError(req, token);
    if (denied) return denied;
    const path = url.pathname.slice(STF_API_BASE.length);
    const fields = url.searchParams.get('fields');
    const m = /^\/user\/devices\/([^/]+)(\/remoteConnect)?$/.exec(path);
    const serial = m?.[1] ? decodeURIComponent(m[1]) : undefined;
    const d = serial === undefined ? undefined : find(serial);
    if (path === '/devices' && req.method === 'GET')
      return ok('Devices Information', { devices: devices.map((x) => pick(x.view(), fields)) });
    const one = /^\/devices\/([^/]+)$/.exec(path);
    if (one?.[1] && req.method === 'GET') {
      const x = find(decodeURIComponent(one[1]));
      return x ? ok('Device Information', { device: pick(x.view(), fields) }) : refuse(404, 'Device not found');
    }
    if (path === '/user/devices' && req.method === 'GET')
      return ok('Controlled devices information', {
        devices: devices.filter((x) => mine(x)).map((x) => pick(x.view(), fields)),
      });
    if (path === '/user/devices' && req.method === 'POST') {
      const body = StfAddUserDevicePayloadSchema.safeParse(await readJson(req));
      if (!body.success) return refuse(400, 'Bad Request: the body must be {"serial": …, "timeout"?: ms}');
      const x = find(body.data.serial);
      if (!x) return refuse(404, 'Device not found');
      if (!stfAddable(x.view())) return refuse(403, 'Device is being used or not available');
      x.join(USER, body.data.timeout || groupTimeoutMs);
      return ok('Device successfully added');
    }
    if (serial !== undefined && !m?.[2]) {
      if (!d) return refuse(404, 'Device not found');
      if (req.method === 'GET')
        return mine(d)
          ? ok('Controlled device information', { device: pick(d.view(), fields) })
          : refuse(403, 'Device is not owned by you');
      if (req.method === 'DELETE') {
        if (!mine(d)) return refuse(403, 'You cannot release this device. Not owned by you');
        await d.leave('ungroup_request');
        return ok('Device successfully removed');
      }
    }
    if (serial !== undefined && m?.[2]) {
      if (!d) return refuse(404, 'Device not found');
      if (!mine(d)) return refuse(403, 'Device is not owned by you or is not available');
      if (req.method === 'POST') return ok('Remote connection is enabled', { remoteConnectUrl: await d.startRemote() });
      if (req.method === 'DELETE') {
        await d.stopRemote();
        return ok('Device remote disconnected successfully');
      }
    }
    return refuse(404, `Not Found: ${req.method} ${url.pathname}`);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const answer = url.pathname.startsWith(STF_API_BASE)
      ? route(req, url)
      : Promise.resolve(refuse(404, 'Not Found: the API is under /api/v1'));
    answer
      .catch((e: unknown): Reply => refuse(500, `Internal Server Error: ${e instanceof Error ? e.message : String(e)}`))
      .then((r) => {
        calls.push({ method: req.method ?? '?', path: url.pathname, status: r.status });
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(r.body));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    devices,
    calls,
    leaves,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const d of devices) await d.close();
    },
  };
}
