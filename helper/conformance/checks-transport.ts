import { ACTION_NAMES } from '../../src/device/protocol/actions.js';
import type { WireSnapshot } from '../../src/device/protocol/wire.js';
import { type Check, CheckFailed, type Ctx, expect, need } from './suite.js';

/** Transport: auth, limits, malformed input, hello and snapshot. */

function errCode(json: unknown): string | undefined {
  return (json as { error?: { code?: string } } | undefined)?.error?.code;
}
function errMessage(json: unknown): string {
  return (json as { error?: { message?: string } } | undefined)?.error?.message ?? '';
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(buf: Buffer): { width: number; height: number } {
  const sig = buf.subarray(0, 8).toString('hex');
  if (sig !== '89504e470d0a1a0a' || buf.subarray(12, 16).toString('latin1') !== 'IHDR')
    throw new CheckFailed('the screenshot is not a PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** Width and height from a JPEG's SOF marker. */
export function jpegSize(buf: Buffer): { width: number; height: number } {
  if (buf[0] !== 0xff || buf[1] !== 0xd8) throw new CheckFailed('the screenshot is not a JPEG');
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) throw new CheckFailed('corrupt JPEG');
    const marker = buf[i + 1] ?? 0;
    const len = buf.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  throw new CheckFailed('JPEG without a frame header');
}

/**
 * True when hello declares `capability`. A helper without it (Android before API 30 has no
 * screenshot for accessibility services) must still answer a snapshot that asks for a picture: with
 * its tree and without a screenshot — checked here, and noted.
 */
export async function screenshotDeclared(ctx: Ctx, capability: string, snap?: WireSnapshot): Promise<boolean> {
  if ((await ctx.client.hello()).capabilities.includes(capability)) return true;
  if (snap) {
    expect(snap.nodes.length > 0, `a snapshot asking for a picture without ${capability} lost its tree`);
    expect(
      snap.screenshot === undefined,
      `hello does not declare ${capability}, yet the snapshot carries a screenshot`,
    );
  }
  ctx.note(`hello does not declare ${capability}: the tree alone, no picture`);
  return false;
}

export const transportChecks: Check[] = [
  {
    name: 'auth: v3 without a token → 401',
    async run({ client }) {
      const r = await client.post('/v3/hello', {}, 'none');
      expect(r.status === 401 && errCode(r.json) === 'UNAUTHORIZED', `got HTTP ${r.status} ${r.text.slice(0, 120)}`);
    },
  },
  {
    name: 'auth: v3 with a wrong token → 401',
    async run({ client }) {
      const r = await client.post('/v3/action', { action: 'key', key: 'home' }, 'wrong-bearer');
      expect(r.status === 401, `got HTTP ${r.status}`);
    },
  },
  {
    name: 'auth: compat without / with a wrong token → 401',
    async run({ client }) {
      const a = await client.post('/action', { action: 'read_screen' }, 'none');
      const b = await client.post('/action', { action: 'read_screen' }, 'wrong-compat');
      const c = await client.post('/action', { action: 'read_screen' }, 'bearer');
      for (const r of [a, b, c])
        expect(
          r.status === 401 && (r.json as { ok?: boolean })?.ok === false,
          `got HTTP ${r.status} ${r.text.slice(0, 80)}`,
        );
    },
  },
  {
    name: 'hello: protocol 3, capabilities, screen, limits',
    async run({ client, state, note }) {
      const h = await client.hello();
      state.hello = h;
      expect(h.protocol === 3, `protocol ${h.protocol}`);
      const missing = ACTION_NAMES.filter((a) => !h.capabilities.includes(a));
      expect(missing.length === 0, `capabilities lack ${missing.join(', ')}`);
      expect(h.screen.width > 0 && h.screen.height > 0, 'screen size');
      expect(h.apiLevel > 0 && h.helperVersion !== '', 'apiLevel / helperVersion');
      note(`${h.device.manufacturer} ${h.device.model}, API ${h.apiLevel}, ${h.screen.width}x${h.screen.height}`);
    },
  },
  {
    name: 'limits: a body over the limit → 413',
    async run({ client, state }) {
      const limit = state.hello?.limits?.maxBodyBytes ?? 1024 * 1024;
      const filler = 'x'.repeat(limit + 1);
      const r = await client.post('/v3/action', undefined, 'bearer', `{"action":"key","key":"home","pad":"${filler}"}`);
      expect(r.status === 413, `got HTTP ${r.status}`);
    },
  },
  {
    name: 'malformed JSON → 400 INVALID_ARGUMENT',
    async run({ client }) {
      const r = await client.post('/v3/action', undefined, 'bearer', '{"action": "tap", ');
      expect(
        r.status === 400 && errCode(r.json) === 'INVALID_ARGUMENT',
        `got HTTP ${r.status} ${r.text.slice(0, 120)}`,
      );
      const c = await client.post('/action', undefined, 'compat', '{not json');
      expect(c.status === 400 && (c.json as { ok?: boolean })?.ok === false, `compat: HTTP ${c.status}`);
    },
  },
  {
    name: 'schema violation → 400 with the validation message',
    async run({ client }) {
      const r = await client.post('/v3/action', { action: 'tap', x: 'left', y: 10 });
      expect(r.status === 400 && errCode(r.json) === 'INVALID_ARGUMENT', `got HTTP ${r.status}`);
      expect(/\bx\b/.test(errMessage(r.json)), `message does not name the field: ${errMessage(r.json)}`);
      const extra = await client.post('/v3/action', { action: 'key', key: 'home', bogus: 1 });
      expect(extra.status === 400, `unknown key accepted: HTTP ${extra.status}`);
    },
  },
  {
    name: 'unknown action → 400 listing the supported actions',
    async run({ client }) {
      const r = await client.post('/v3/action', { action: 'teleport' });
      expect(r.status === 400 && errCode(r.json) === 'INVALID_ARGUMENT', `got HTTP ${r.status}`);
      const msg = errMessage(r.json);
      const missing = ACTION_NAMES.filter((a) => !msg.includes(a));
      expect(missing.length === 0, `message lacks ${missing.join(', ')}: ${msg}`);
      const c = await client.post('/action', { action: 'teleport' }, 'compat');
      const summary = (c.json as { summary?: string })?.summary ?? '';
      expect(c.status === 400 && summary.includes('read_screen'), `compat: HTTP ${c.status} ${summary}`);
    },
  },
  {
    name: 'unknown endpoint → 404',
    async run({ client }) {
      const r = await client.post('/v3/nothing-here', {});
      expect(r.status === 404, `got HTTP ${r.status}`);
    },
  },
  {
    name: 'snapshot: tree shape',
    async run({ client, note }) {
      const s = await client.snapshot();
      expect(s.nodes.length > 0, 'no nodes');
      expect(s.windows.length > 0, 'no windows');
      s.nodes.forEach((n, i) => {
        expect(n.id === i, `node ${i} has id ${n.id}`);
        expect(n.parent < n.id, `node ${i}: parent ${n.parent} does not come first`);
        expect(
          s.windows.some((w) => w.id === n.window),
          `node ${i} belongs to unknown window ${n.window}`,
        );
      });
      note(`${s.nodes.length} nodes, ${s.windows.length} windows, foreground ${s.foreground.package}`);
    },
  },
  {
    name: 'snapshot: PNG screenshot of the declared size',
    async run(ctx) {
      const { client, state } = ctx;
      const h = need(state.hello, 'hello');
      const s = await client.snapshot({ format: 'png' });
      if (!(await screenshotDeclared(ctx, 'screenshot', s))) return;
      const shot = need(s.screenshot, 'screenshot in the snapshot');
      const size = pngSize(Buffer.from(shot.base64, 'base64'));
      expect(
        size.width === shot.width && size.height === shot.height,
        `declared ${shot.width}x${shot.height}, PNG ${size.width}x${size.height}`,
      );
      expect(shot.width === h.screen.width && shot.height + shot.offsetY === h.screen.height, 'not the full screen');
    },
  },
  {
    name: 'snapshot: scaled JPEG screenshot',
    async run(ctx) {
      const { client } = ctx;
      const s = await client.snapshot({ format: 'jpeg', scale: 0.5 });
      if (!(await screenshotDeclared(ctx, 'screenshot_jpeg', s))) return;
      const shot = need(s.screenshot, 'screenshot in the snapshot');
      const size = jpegSize(Buffer.from(shot.base64, 'base64'));
      expect(shot.format === 'jpeg', `format ${shot.format}`);
      expect(
        size.width === shot.width && size.height === shot.height,
        `declared ${shot.width}x${shot.height}, JPEG ${size.width}x${size.height}`,
      );
      expect(Math.abs(shot.width - s.screen.width / 2) <= 1, `width ${shot.width} is not half of ${s.screen.width}`);
    },
  },
];
