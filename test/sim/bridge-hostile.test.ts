import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './bridge-harness.js';

// Hostile and broken requests: every one gets a clear 4xx (or a receipt), never a 500, and the
// server keeps serving afterwards.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.server.close();
});

async function raw(path: string, body: string, headers: Record<string, string> = {}) {
  const r = await fetch(`${h.server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.server.token}`, 'x-android-bridge-token': h.server.token, ...headers },
    body,
  });
  return { status: r.status, text: await r.text() };
}

const bodies = [
  '',
  'null',
  '[]',
  '"tap"',
  '42',
  '{"action":null}',
  '{"action":{"x":1}}',
  '{"action":"tap","x":1e309,"y":5}',
  '{"action":"tap","x":-1,"y":5}',
  '{"action":"tap","x":5,"y":5,"coord_space":"inches"}',
  '{"action":"touch_gesture","frames":[]}',
  '{"action":"touch_gesture","frames":[{"at_ms":0,"points":[]},{"at_ms":5,"points":[]}]}',
  '{"action":"pinch","x":500,"y":500,"start_distance":-1,"end_distance":5}',
  '{"action":"read_control","selector":{}}',
  '{"action":"read_control","selector":{"text":7}}',
  '{"action":"read_control","selector":{"text":"a","__proto__":{"x":1}}}',
  '{"action":"control_action","request":{"selector":{"text":"a"},"action":"explode"}}',
  '{"action":"action_sequence","actions":[{"action":"action_sequence","actions":[]}]}',
  '{"action":"wait_until","condition":"appears","selector":{"text":"a"},"timeout_ms":"soon"}',
  '{"action":"launch_app"}',
  '{"action":"key","key":"power"}',
  `{"action":"set_text","text":"${'x'.repeat(20_000)}"}`,
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  '{"action":"tap","x":1,"y":1}garbage',
];

describe('bridge: hostile input', () => {
  it.each(bodies.map((b) => [b.length > 60 ? `${b.slice(0, 60)}…` : b, b]))('v3 %s → 4xx', async (_l, body) => {
    const r = await raw('/v3/action', body);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(JSON.parse(r.text).error.message.length).toBeGreaterThan(0);
  });

  it.each(bodies.map((b) => [b.length > 60 ? `${b.slice(0, 60)}…` : b, b]))('compat %s → 4xx', async (_l, body) => {
    const r = await raw('/action', body);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(JSON.parse(r.text).ok).toBe(false);
  });

  it('still serves afterwards, with nothing dispatched', async () => {
    expect((await h.post('/v3/hello', {})).status).toBe(200);
    expect(h.phone.foreground().package).toBe('com.android.launcher3');
  });
});
