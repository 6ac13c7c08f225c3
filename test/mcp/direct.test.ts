import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS, ScrollToRequestSchema } from '../../src/device/protocol/index.js';
import { JOURNEY_EXAMPLE } from '../../src/mcp/journey.js';
import { type Dirs, idOf, type Phone, sc, startPhone, stdioClient, tempDirs, text } from './harness.js';

/**
 * The direct tools over stdio, driven by the SDK's own Client against `phone-agent mcp` on the
 * virtual phone: observations and deltas, verification modes, journeys, delivery status after a
 * timeout, guardrails, and bad input answered with a clear error while the server stays up.
 */

let phone: Phone;
let dirs: Dirs;
let client: Client;

beforeAll(async () => {
  phone = await startPhone();
  dirs = await tempDirs();
  ({ client } = await stdioClient(phone, dirs));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await phone?.close();
  await dirs?.close();
});
beforeEach(async () => {
  phone.phone.latency.helperInput = 0;
  await client.callTool({ name: 'press_key', arguments: { key: 'home', verificationMode: 'none' } });
});

const MSG = 'com.android.messaging:id/';
const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

describe('phone-agent mcp: direct tools', () => {
  it('lists every tool with its MCP annotations', async () => {
    const { tools } = await client.listTools();
    const by = new Map(tools.map((t) => [t.name, t]));
    for (const n of ['observe', 'screenshot', 'tap', 'long_press', 'type_text', 'swipe', 'press_key', 'launch_app'])
      expect(by.has(n), n).toBe(true);
    for (const n of [
      'read_control',
      'control_action',
      'wait_until',
      'scroll_to',
      'pinch',
      'touch_gesture',
      'run_journey',
    ])
      expect(by.has(n), n).toBe(true);
    expect(by.get('observe')?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(by.get('tap')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(by.get('mobile_run_task')?.annotations?.destructiveHint).toBe(true);
  });

  it('taps by selector in light mode, checked on the first settled read, with the state delta; observe since a revision gives only the changes', async () => {
    const before = await call('observe');
    const rev = sc(before).snapshot_revision as number;
    expect(text(before)).toContain('"Settings"');
    const tap = sc(
      await call('tap', { selector: { text: 'Settings' }, verificationMode: 'light', responseMode: 'compact' }),
    );
    expect(tap).toMatchObject({
      success: true,
      delivery_status: 'delivered',
      dispatch_started: true,
      lifecycle_state: 'verified',
      verification: { mode: 'light', status: 'verified' },
    });
    expect(tap.debug).toBeUndefined();
    // Android 14's Settings: its first page lists the sections (Wi-Fi is under Network & internet → Internet).
    expect((tap.state_delta as { text: string }).text).toMatch(/\+ \[\w+\] "Network & internet/);

    const d = await call('observe', { since_revision: rev });
    const delta = text(d);
    expect(delta).toMatch(/- \[\w+\] "Calculator"/);
    expect(delta).toMatch(/\+ \[\w+\] "Connected devices/);
    // A delta never lists what did not change: the navigation bar is on both screens.
    expect(delta).not.toContain('"Overview"');

    // A delta after a small change lists only that change: the switch, and the network row it hides.
    await call('tap', { selector: { text: 'Network & internet' }, verificationMode: 'light' });
    await call('tap', { selector: { text: 'Internet' }, verificationMode: 'light' });
    const base = sc(await call('observe')).snapshot_revision as number;
    const view = text(await call('observe'));
    const wifi = sc(await call('tap', { element_id: idOf(view, 'Wi-Fi'), verificationMode: 'full' }));
    expect(wifi).toMatchObject({ success: true, verification: { mode: 'full', status: 'verified' } });
    expect(phone.phone.world.settings.wifi).toBe(false);
    const small = text(await call('observe', { since_revision: base }));
    expect(small).toMatch(/~ \[\w+\] "Wi-Fi" on → off/);
    expect(small.split('\n').filter((l) => /^[+-] /.test(l))).toEqual([expect.stringMatching(/^- \[\w+\] "HomeNet/)]);
    await call('tap', { selector: { text: 'Wi-Fi', class_name: 'android.widget.Switch' } });
    expect(phone.phone.world.settings.wifi).toBe(true);

    const gone = sc(await call('observe', { since_revision: 99_999 }));
    expect(gone).toMatchObject({ delta_available: false, reason: 'BASE_REVISION_UNAVAILABLE' });
  });

  it("scroll_to's text states the budget a request without one gets, and its schema the most it may ask", async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === 'scroll_to');
    const got = ScrollToRequestSchema.parse({ action: 'scroll_to', container: { text: 'a' }, target: { text: 'b' } });
    expect(t?.description).toContain(`${got.max_scrolls} scrolls / ${got.timeout_ms / 1000} s unless`);
    const props = t?.inputSchema.properties as Record<string, { maximum?: number; description?: string }>;
    expect(props.max_scrolls).toMatchObject({ maximum: LIMITS.maxScrolls });
    expect(props.max_scrolls?.description).toContain(`default ${got.max_scrolls}`);
    expect(props.timeout_ms).toMatchObject({ maximum: LIMITS.maxScrollMs });
  });

  it('scroll_to by title over MCP: the row found is named; exact, the default, says the list ended', async () => {
    // Settings' main list (an earlier test left Settings on another page).
    await phone.phone.launch('com.android.settings', '.Settings');
    await call('observe');
    const target = { text: 'Safety & emergency — listed beside it' };
    const exact = sc(await call('scroll_to', { target, max_scrolls: 3, verificationMode: 'none' }));
    expect(exact, JSON.stringify(exact.message)).toMatchObject({
      success: false,
      failure_code: 'NO_PROGRESS',
      value: { listEnd: true },
    });
    expect(String(exact.message)).toMatch(/the list ended there: the target is not in it this way/);
    const byTitle = sc(await call('scroll_to', { target, target_match: 'title', verificationMode: 'none' }));
    expect(byTitle).toMatchObject({ success: true, value: { found: 'Safety & emergency' } });
  });

  it("a journey's schema spells out a member and carries one example, which validates as it is", async () => {
    const { tools } = await client.listTools();
    const seq = tools.find((t) => t.name === 'run_journey');
    if (!seq) throw new Error('no run_journey tool');
    const steps = (seq.inputSchema.properties as Record<string, { description?: string; items?: unknown }>).steps;
    const member = steps?.items as { properties: Record<string, { description?: string }> };
    expect(Object.keys(member.properties)).toEqual(['id', 'tool', 'args']);
    for (const k of ['id', 'tool', 'args']) expect(member.properties[k]?.description, k).toBeTruthy();
    expect(steps?.description).toContain(`e.g. ${JSON.stringify(JOURNEY_EXAMPLE)}`);
    // Every member of the example passes validation: the run starts (and stops at the first
    // member, since no chat is open), instead of "nothing was run".
    const r = sc(await call('run_journey', { steps: JOURNEY_EXAMPLE, defaults: { verificationMode: 'light' } }));
    expect(String(r.message ?? '')).not.toMatch(/nothing was run/);
    expect((r.steps as { status: string }[]).map((s) => s.status)).toEqual(['failed', 'not_run']);
  });

  it('a journey validates first, stops at the failed assertion and keeps the receipts', async () => {
    const bad = await call('run_journey', {
      steps: [{ tool: 'launch_app', args: { package: 'com.android.settings' } }, { tool: 'no_such_tool' }],
    });
    expect(bad.isError).toBe(true);
    expect(sc(bad).message).toMatch(/nothing was run: step2: no_such_tool cannot be a member/);
    expect(text(await call('observe'))).toContain('Launcher');

    const r = await call('run_journey', {
      defaults: { verificationMode: 'light' },
      steps: [
        { id: 'open', tool: 'launch_app', args: { package: 'com.android.settings' } },
        {
          id: 'assert',
          tool: 'wait_until',
          args: { condition: 'appears', selector: { text: 'No such row' }, timeout_ms: 400 },
        },
        { id: 'never', tool: 'tap', args: { selector: { text: 'Bluetooth' } } },
      ],
    });
    const j = sc(r);
    expect(r.isError).toBe(true);
    expect(j).toMatchObject({ success: false, stopped_at_step_id: 'assert', completed: ['open'], unknown: [] });
    const steps = j.steps as { id: string; status: string; reason?: string }[];
    expect(steps.map((s) => [s.id, s.status])).toEqual([
      ['open', 'passed'],
      ['assert', 'failed'],
      ['never', 'not_run'],
    ]);
    expect(steps[2]?.reason).toBe('PREVIOUS_STEP_FAILED');
    expect(phone.phone.world.toggles.bluetooth ?? 0).toBe(0);
  });

  it('a timeout after dispatch is unknown and not retryable, and the device did act', async () => {
    const view = text(await call('observe'));
    // A client that thinks: the pacing gap is over, and the budget covers the re-check read of a tap
    // by element id (decided on an earlier observation), so the deadline passes after the input left.
    await new Promise((ok) => setTimeout(ok, 500));
    phone.phone.latency.helperInput = 2_500;
    const r = sc(
      await call('tap', {
        element_id: idOf(view, 'Settings'),
        verificationMode: 'none',
        responseMode: 'compact',
        actionTimeoutMs: 1_000,
      }),
    );
    expect(r).toMatchObject({
      success: false,
      failure_code: 'ACTION_TIMEOUT',
      delivery_status: 'unknown',
      dispatch_started: true,
      retryable: false,
    });
    expect(String(r.message)).toMatch(/observe before retrying/);
    phone.phone.latency.helperInput = 0;
    // And it did act, late: Settings opens once the slow input lands.
    let app = '';
    for (let i = 0; i < 40 && !app.includes('com.android.settings'); i++) {
      await new Promise((ok) => setTimeout(ok, 150));
      app = text(await call('observe')).split('\n')[1] ?? '';
    }
    expect(app).toContain('com.android.settings');
  });

  it('none reads nothing after the dispatch: a selector tap acts on its own read, an id tap is checked on the phone', async () => {
    let reads = 0;
    const orig = phone.phone.readTree.bind(phone.phone);
    phone.phone.readTree = ((...a: Parameters<typeof orig>) => {
      reads++;
      return orig(...a);
    }) as typeof orig;
    const settle = () => new Promise((ok) => setTimeout(ok, 600));
    try {
      // The selector is resolved on a read made in this call: that read stands in for the re-check.
      const bySelector = sc(await call('tap', { selector: { text: 'Settings' }, verificationMode: 'none' }));
      expect(bySelector).toMatchObject({ success: true, lifecycle_state: 'pending_verification' });
      expect(bySelector.snapshot_revision).toBeUndefined();
      expect((bySelector.debug as { timing: { reads: number } }).timing.reads).toBe(0);
      await settle();
      expect(reads).toBe(1);

      // An id from an earlier observation was decided on: the virtual helper has guarded_touch, so
      // the touch carries its target and the phone re-checks it — no tree read, before or after.
      const view = text(await call('observe'));
      reads = 0;
      const byId = sc(await call('tap', { element_id: idOf(view, 'Back'), verificationMode: 'none' }));
      expect(byId).toMatchObject({
        success: true,
        delivery_status: 'delivered',
        lifecycle_state: 'pending_verification',
      });
      expect((byId.debug as { timing: { reads: number } }).timing.reads).toBe(0);
      await settle();
      expect(reads).toBe(0);
    } finally {
      phone.phone.readTree = orig;
    }
  });

  it("light is the executor's light check: a switch judged on the phone-checked target, an expectation that never holds failed within its budget", async () => {
    await phone.phone.launch('com.android.settings', '.BluetoothSettings');
    const view = text(await call('observe'));
    const was = phone.phone.world.settings.bluetooth;
    const reads = (r: Record<string, unknown>) => (r.debug as { timing: { reads: number } }).timing.reads;
    // Its own state is the whole check: the phone checks the target at the touch, one read after.
    const sw = sc(await call('tap', { element_id: idOf(view, 'Use Bluetooth'), verificationMode: 'light' }));
    expect(sw).toMatchObject({
      success: true,
      lifecycle_state: 'verified',
      verification: { mode: 'light', status: 'verified' },
    });
    expect(reads(sw)).toBe(1);
    expect(phone.phone.world.settings.bluetooth).toBe(!was);
    // A text that never appears: judged against a read right before the touch, polled until the budget ends.
    const after = text(await call('observe'));
    const never = { expect: 'text_appears No such text', verificationMode: 'light', verificationTimeoutMs: 500 };
    const miss = sc(await call('tap', { element_id: idOf(after, 'Use Bluetooth'), ...never }));
    expect(miss).toMatchObject({
      success: false,
      lifecycle_state: 'failed',
      failure_code: 'VERIFICATION_FAILED',
      verification: { mode: 'light', status: 'failed' },
    });
    expect(reads(miss)).toBeGreaterThanOrEqual(3);
    expect(phone.phone.world.settings.bluetooth).toBe(was);
  });

  it("timing names the touch's own duration: a tap's 40–60 ms hold, a swipe's ≥ 300 ms motion; a key has none", async () => {
    type Timing = { total_ms: number; gesture_ms?: number };
    const timingOf = async (name: string, args: Record<string, unknown>) =>
      sc(await call(name, { ...args, verificationMode: 'none', responseMode: 'compact' })).timing as Timing;
    const tap = await timingOf('tap', { selector: { text: 'Settings' } });
    expect(tap.gesture_ms).toBeGreaterThanOrEqual(40);
    expect(tap.gesture_ms).toBeLessThanOrEqual(60);
    const swipe = await timingOf('swipe', { direction: 'up' });
    expect(swipe.gesture_ms).toBeGreaterThanOrEqual(300);
    // The call waited for the motion: its total is never shorter than the gesture it sent.
    expect(swipe.total_ms).toBeGreaterThanOrEqual(swipe.gesture_ms ?? Number.POSITIVE_INFINITY);
    expect((await timingOf('press_key', { key: 'back' })).gesture_ms).toBeUndefined();
  });

  it('a target replaced behind the client is answered STALE by the phone, and nothing is tapped', async () => {
    await phone.phone.launch('com.android.settings', '.BluetoothSettings');
    const view = text(await call('observe'));
    const bt = idOf(view, 'Use Bluetooth');
    // The screen moves on without the client: the Wi-Fi switch now stands where Bluetooth's was.
    await phone.phone.launch('com.android.settings', '.InternetSettings');
    const wifiWas = phone.phone.world.settings.wifi;
    const btWas = phone.phone.world.settings.bluetooth;
    for (const verificationMode of ['none', 'light'] as const) {
      const r = sc(await call('tap', { element_id: bt, verificationMode }));
      expect(r).toMatchObject({
        success: false,
        lifecycle_state: 'failed',
        failure_code: 'STALE',
        delivery_status: 'not_delivered',
      });
      expect(String(r.message)).toMatch(/Use Bluetooth" is no longer on screen/);
      expect((r.debug as { timing: { reads: number } }).timing.reads).toBe(0);
    }
    expect(phone.phone.world.settings.wifi).toBe(wifiWas);
    expect(phone.phone.world.settings.bluetooth).toBe(btWas);
  });

  it('answers bad input with a clear error and stays up', async () => {
    const unknown = await call('no_such_tool');
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/Tool no_such_tool not found/);

    const invalid = await call('tap', { point: { x: 'left', y: 3 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/Input validation error.*point/s);

    const both = await call('tap', { element_id: 'abcd1234', point: { x: 1, y: 1 } });
    expect(sc(both)).toMatchObject({ failure_code: 'INVALID_ARGUMENT', delivery_status: 'not_delivered' });

    // An id from the home screen, used after the screen changed.
    const home = text(await call('observe'));
    const clock = idOf(home, 'Clock');
    await call('launch_app', { package: 'com.android.settings', verificationMode: 'light' });
    const stale = await call('tap', { element_id: clock });
    expect(stale.isError).toBe(true);
    expect(sc(stale)).toMatchObject({ failure_code: 'STALE', dispatch_started: false });
    expect(String(sc(stale).message)).toMatch(/not on the current screen.*call observe/);

    const never = sc(await call('tap', { element_id: 'ffffffff' }));
    expect(never).toMatchObject({ failure_code: 'NOT_FOUND' });

    const native = sc(await call('control_action', { selector: { text: 'Wi-Fi' }, action: 'set_progress' }));
    expect(native.failure_code).toBe('INVALID_ARGUMENT');
    expect(String(native.message)).toMatch(/needs value/);

    const shot = await call('screenshot', { max_side: 400 });
    const img = (shot.content as { type: string; mimeType?: string }[]).find((c) => c.type === 'image');
    expect(img?.mimeType).toBe('image/jpeg');
    expect(Math.max(Number(sc(shot).width), Number(sc(shot).height))).toBe(400);
  });

  it('takes a resource id as the listing shows it (the part after "/"), and its keyboard line names type_text', async () => {
    await call('launch_app', { label: 'Messages', verificationMode: 'light' });
    await call('tap', { selector: { text: 'Start chat' }, verificationMode: 'light' });
    // `recipient`, not `com.android.messaging:id/recipient`: the short id resolves on the screen read.
    const focus = sc(await call('tap', { selector: { resource_id: 'recipient' }, verificationMode: 'light' }));
    expect(focus).toMatchObject({ success: true, delivery_status: 'delivered' });
    const view = text(await call('observe'));
    expect(view).toMatch(/keyboard: \d+ keys not listed \(enter text with type_text\)/);
    expect(view).not.toContain('(enter text with type)');
    const typed = sc(
      await call('type_text', {
        selector: { resource_id: 'recipient' },
        text: '15550001111',
        verificationMode: 'full',
      }),
    );
    expect(typed).toMatchObject({ success: true });
    expect(text(await call('observe'))).toContain('15550001111');
    // A native tool's selector too (wait_until reads the screen on its own side).
    const waited = sc(
      await call('wait_until', { selector: { resource_id: 'send' }, condition: 'appears', timeout_ms: 3000 }),
    );
    expect(waited).toMatchObject({ success: true });
    // A short id that names nothing is still an error that says so, not a tap somewhere.
    const none = await call('tap', { selector: { resource_id: 'no_such_id' }, verificationMode: 'light' });
    expect((none as { isError?: boolean }).isError).toBe(true);
    // Leave Messages at its list (the next test starts a chat from there).
    for (let i = 0; i < 3 && !text(await call('observe')).includes('"Start chat"'); i++)
      await call('press_key', { key: 'back', verificationMode: 'light' });
    expect(text(await call('observe'))).toContain('"Start chat"');
  });

  it('stops a Send tap for consent: needs_confirmation, then the same tap with the confirmation id', async () => {
    const r = sc(
      await call('run_journey', {
        defaults: { verificationMode: 'light' },
        steps: [
          { tool: 'launch_app', args: { label: 'Messages' } },
          { tool: 'tap', args: { selector: { text: 'Start chat' } } },
          { tool: 'type_text', args: { selector: { resource_id: `${MSG}recipient` }, text: '15551234567' } },
          { tool: 'type_text', args: { selector: { resource_id: `${MSG}message` }, text: 'On my way' } },
          { id: 'send', tool: 'tap', args: { selector: { resource_id: `${MSG}send` } } },
        ],
      }),
    );
    expect(r.stopped_at_step_id).toBe('send');
    const send = (r.steps as { result: Record<string, unknown> }[])[4]?.result ?? {};
    expect(send).toMatchObject({ lifecycle_state: 'needs_confirmation', dispatch_started: false });
    expect(phone.phone.world.sent).toHaveLength(0);
    // observe said so before the tap: the Send line is marked, the field's line is not.
    const view = text(await call('observe'));
    expect(view).toMatch(/ "Send" #send \d+,\d+ · asks user: send$/m);
    expect(view).not.toMatch(/"Text message" [^\n]*asks user/);

    const wrong = sc(await call('tap', { selector: { resource_id: `${MSG}send` }, confirmation_id: 'c-000000000000' }));
    expect(wrong.lifecycle_state).toBe('needs_confirmation');
    expect(phone.phone.world.sent).toHaveLength(0);

    const ok = sc(
      await call('tap', {
        selector: { resource_id: `${MSG}send` },
        confirmation_id: wrong.confirmation_id,
        verificationMode: 'light',
      }),
    );
    // An approved guarded action is verified in full, whatever mode the call asked for.
    expect(ok).toMatchObject({
      success: true,
      delivery_status: 'delivered',
      lifecycle_state: 'verified',
      verification: { mode: 'full', status: 'verified' },
    });
    // …and says so: the mode asked, the one applied, and why — never a silent upgrade.
    expect((ok.verification as { applied?: string }).applied).toMatch(/light was asked; full was applied .*send/);
    expect(phone.phone.world.sent).toEqual([expect.objectContaining({ body: 'On my way' })]);
  });
});
