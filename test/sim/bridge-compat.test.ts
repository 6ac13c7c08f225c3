import { afterEach, describe, expect, it } from 'vitest';
import { READ_SCREEN_LINE } from '../../src/device/protocol/compat.js';
import { type Harness, startHarness } from './bridge-harness.js';

// The plugin-compatible endpoint's ref semantics on the virtual phone: refs are re-found on the
// current screen (the keyboard moved the button), and touched like a finger (a dialog intercepts).
let h: Harness | undefined;
afterEach(async () => {
  await h?.server.close();
  h = undefined;
});

async function compat(harness: Harness, body: Record<string, unknown>) {
  const r = await fetch(`${harness.server.url}/action`, {
    method: 'POST',
    headers: { 'x-android-bridge-token': harness.server.token },
    body: JSON.stringify(body),
  });
  expect(r.status).toBe(200);
  return (await r.json()) as { ok: boolean; payload?: string; summary?: string };
}

function refOf(payload: string, text: string): number {
  for (const line of payload.split('\n')) {
    const m = READ_SCREEN_LINE.exec(line);
    if (m && m[3] === text) return Number(m[1]);
  }
  throw new Error(`no line with "${text}" in\n${payload}`);
}

describe('compat endpoint', () => {
  it('a ref read before the keyboard opened still taps the moved button', async () => {
    h = await startHarness();
    expect((await compat(h, { action: 'launch_app', query: 'Acme' })).ok).toBe(true);
    await h.act({ action: 'wait_until', condition: 'stable', timeout_ms: 2_000 });
    const screen = await compat(h, { action: 'read_screen' });
    const email = refOf(screen.payload ?? '', 'Email');
    const login = refOf(screen.payload ?? '', 'Log in');
    expect((await compat(h, { action: 'tap_node', ref: email })).ok).toBe(true);
    expect((await h.snapshot()).keyboard.shown).toBe(true);
    expect((await compat(h, { action: 'type_text', text: '测试@例子.com' })).ok).toBe(true);
    const snap = await h.snapshot();
    expect(snap.nodes.some((n) => n.text === '测试@例子.com')).toBe(true);
    await h.act({ action: 'set_text', selector: { resource_id: 'com.acme.bank:id/password' }, text: 'pw' });
    const tapped = await compat(h, { action: 'tap_node', ref: login });
    expect(tapped.ok).toBe(true);
    expect(h.phone.world.session.attempts).toBe(1);
  });

  it('a ref fully covered by a dialog is refused; refs end with the next read_screen', async () => {
    h = await startHarness();
    expect((await compat(h, { action: 'launch_app', query: 'com.foodshop' })).ok).toBe(true);
    await h.act({ action: 'wait_until', condition: 'stable', timeout_ms: 2_000 });
    const snap = await h.snapshot();
    const dialog = snap.windows.find((w) => w.type === 'dialog')?.bounds;
    const covered = snap.nodes.find(
      (n) =>
        dialog &&
        n.text !== '' &&
        n.bounds.top >= dialog.top &&
        n.bounds.bottom <= dialog.bottom &&
        snap.windows.find((w) => w.id === n.window)?.type === 'application',
    );
    const screen = await compat(h, { action: 'read_screen' });
    const ref = refOf(screen.payload ?? '', covered?.text ?? '?');
    const r = await compat(h, { action: 'tap_node', ref });
    expect(r.ok).toBe(false);
    expect(r.summary).toMatch(/covered/);
    expect(h.phone.world.cart).toHaveLength(0);
    const lines = (screen.payload ?? '').split('\n').length;
    const next = await compat(h, { action: 'read_screen' });
    expect((await compat(h, { action: 'tap_node', ref: lines + 5 })).ok).toBe(false);
    expect(next.ok).toBe(true);
  });
});
