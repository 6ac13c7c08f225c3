import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { actionSummary } from '../../src/executor/consent.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { REGISTRY } from '../../src/tools/index.js';
import { scrollTo } from '../../src/tools/scroll-to.js';
import { bridgeRig, decision, el, makeExecutor, observe } from './helpers.js';

/**
 * The seed's native tools as a model calls them through `act` (ids and flat fields, no selectors),
 * run by the real executor against the virtual phone over its bridge.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Settings (or one of its pages: `.InternetSettings` holds the Wi-Fi switch, as on Android 14). */
async function settings(page?: string) {
  rig = await bridgeRig({ seed: 7 });
  const ex = makeExecutor(rig.device, rig.clock);
  let obs = await observe(ex);
  await ex.run(decision({ tool: 'launch_app', package: 'com.android.settings' }), obs);
  if (page) await rig.phone.launch('com.android.settings', page);
  await rig.clock.sleep(1500);
  obs = await observe(ex, obs);
  const tools = REGISTRY.plannerTools(REGISTRY.offered(rig.device.capabilities()));
  const act = (raw: Record<string, unknown>, o: Observation) => {
    const r = parseAct(
      { thought: 't', ...raw },
      { catalog: REGISTRY.catalog, tools, ids: new Set(o.elements.map((e) => e.id)) },
    );
    if (!r.ok) throw new Error(r.error);
    return r.value.decision;
  };
  return { ex, obs, tools, act };
}

describe('native tools through act', () => {
  it('offers read_control, wait_until, touch_gesture and action_sequence when the helper has them', async () => {
    const { tools } = await settings();
    for (const t of ['read_control', 'wait_until', 'touch_gesture', 'action_sequence', 'scroll_to', 'control_action'])
      expect(tools).toContain(t);
  });

  it('scroll_to(text) with no list named scrolls the list on screen until the item shows', async () => {
    const { ex, obs, act } = await settings();
    expect(obs.elements.some((e) => e.label === 'About phone')).toBe(false);
    const r = await ex.run(
      act({ tool: 'scroll_to', text: 'About phone', expect: 'text_appears About phone' }, obs),
      obs,
    );
    expect(r.receipt.error?.message).toBeUndefined();
    expect(r.ok).toBe(true);
    const after = await observe(ex, obs);
    expect(after.elements.some((e) => e.label === 'About phone' || e.text === 'About phone')).toBe(true);
  });

  it('scroll_to finds a row given as listed (its title is searched), as its help says', async () => {
    expect(scrollTo.help({ toggle: true, field: true, submit: true, slider: true, list: true }, new Set())).toMatch(
      /a row with this title is visible \(a row as listed works/,
    );
    const { ex, obs, act } = await settings();
    // The row as a listing shows it, title joined with its summary: the title is what is searched.
    const r = await ex.run(
      act({ tool: 'scroll_to', text: 'About phone — Pixel 9', expect: 'text_appears About phone' }, obs),
      obs,
    );
    expect(r.receipt.error?.message).toBeUndefined();
    expect(r.ok).toBe(true);
  });

  it("scroll_to's title is matched whole: the title's first word does not stop on it", async () => {
    const { ex, obs, act } = await settings();
    // "About" is how the row's title starts: a prefix match would stop on it; exact matching scrolls on to the end.
    const prefix = await ex.run(act({ tool: 'scroll_to', text: 'About', expect: 'text_appears About' }, obs), obs);
    expect(prefix.ok).toBe(false);
    expect(prefix.receipt.error?.code).toMatch(/NOT_FOUND|NO_PROGRESS/);
    const after = await observe(ex, obs);
    // It scrolled to the end and passed the row whose title starts with "About" without stopping.
    const row = after.elements.find((e) => e.actionable && /^About phone/.test(e.label ?? ''));
    expect(row).toBeDefined();
    expect(prefix.value).toMatchObject({ listEnd: true, scrolls: expect.any(Number) });
    expect((prefix.value as { scrolls: number }).scrolls).toBeGreaterThan(0);
  });

  it('scroll_to names a missing item clearly and wants text', async () => {
    const { ex, obs, act, tools } = await settings();
    const r = await ex.run(act({ tool: 'scroll_to', text: 'No such row', expect: 'no_change' }, obs), obs);
    expect(r.ok).toBe(false);
    expect(r.receipt.error?.message ?? '').not.toMatch(/expected object/);
    const noText = parseAct(
      { thought: 't', tool: 'scroll_to', expect: 'no_change' },
      { catalog: REGISTRY.catalog, tools, ids: new Set() },
    );
    expect(noText.ok ? '' : noText.error).toMatch(/scroll_to needs text/);
  });

  it('read_control by id returns the control, wait_until and action_sequence run by id', async () => {
    const { ex, obs, act } = await settings('.InternetSettings');
    const wifi = el(obs, 'Wi-Fi');
    const read = await ex.run(act({ tool: 'read_control', target_id: wifi.id, expect: 'no_change' }, obs), obs);
    expect(read.ok).toBe(true);
    expect((read.value as { checked?: boolean; text?: string }).text).toContain('Wi-Fi');
    const wait = await ex.run(
      act({ tool: 'wait_until', op: 'checked', target_id: wifi.id, expect: 'no_change' }, obs),
      obs,
    );
    expect(wait.ok).toBe(true);
    const seq = await ex.run(
      act(
        {
          tool: 'action_sequence',
          steps: [{ tool: 'control_action', target_id: wifi.id, op: 'click' }],
          expect: `element_state ${wifi.id} off`,
        },
        obs,
      ),
      obs,
    );
    expect(seq.receipt.error?.message).toBeUndefined();
    expect(seq.ok).toBe(true);
    // A wait inside the sequence, with no timeout the model could name: bounded as a member is.
    const after = seq.post ?? obs;
    const sw = el(after, 'Wi-Fi');
    const waited = await ex.run(
      act(
        {
          tool: 'action_sequence',
          steps: [
            { tool: 'control_action', target_id: sw.id, op: 'click' },
            { tool: 'wait_until', target_id: sw.id, op: 'checked' },
          ],
          expect: `element_state ${sw.id} on`,
        },
        after,
      ),
      after,
    );
    expect(waited.receipt.error?.message).toBeUndefined();
    expect(waited.ok).toBe(true);
  });

  it('an action_sequence may act twice on one control: set_text, then ime_enter submits it', async () => {
    const { ex, obs, act } = await settings('.SearchSettings');
    const field = obs.elements.find((e) => e.flags.editable);
    expect(field).toBeDefined();
    const id = field?.id ?? '';
    const r = await ex.run(
      act(
        {
          tool: 'action_sequence',
          steps: [
            { tool: 'control_action', target_id: id, op: 'set_text', text: 'Display' },
            { tool: 'control_action', target_id: id, op: 'ime_enter' },
          ],
          expect: 'page_changes',
        },
        obs,
      ),
      obs,
    );
    expect(r.receipt.error?.message).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(r.post?.app.activity).toBe('.DisplaySettings');
  });

  it('a consent request for an action_sequence names what its members do, by label', async () => {
    const { obs, act } = await settings('.SearchSettings');
    const field = obs.elements.find((e) => e.flags.editable);
    const decided = act(
      {
        tool: 'action_sequence',
        steps: [
          { tool: 'control_action', target_id: field?.id, op: 'set_text', text: 'Reset' },
          { tool: 'control_action', target_id: field?.id, op: 'ime_enter' },
        ],
        expect: 'page_changes',
      },
      obs,
    );
    const want = /^action_sequence \(set_text "[^"]+", ime_enter "[^"]+"\) in com\.android\.settings$/;
    // As the model sent it (ids), and as the executor asks it (protocol members, by selector).
    expect(actionSummary(decided.action, obs, undefined)).toMatch(want);
    expect(
      actionSummary(
        REGISTRY.get(decided.action.tool)?.bind?.(decided.action, obs, REGISTRY.table) ?? decided.action,
        obs,
        undefined,
      ),
    ).toMatch(want);
  });

  it('explains what a native tool is missing, before anything is sent', () => {
    const tools: string[] = ['control_action', 'wait_until', 'touch_gesture', 'action_sequence'];
    const ctx = { catalog: REGISTRY.catalog, tools, ids: new Set(['1a2b3c4d']) };
    const op = parseAct(
      { thought: 't', tool: 'control_action', target_id: '1a2b3c4d', op: 'fly', expect: 'no_change' },
      ctx,
    );
    expect(op.ok ? '' : op.error).toMatch(/op, one of: click, .*set_progress/);
    const pct = parseAct(
      { thought: 't', tool: 'control_action', target_id: '1a2b3c4d', op: 'set_progress', expect: 'no_change' },
      ctx,
    );
    expect(pct.ok ? '' : pct.error).toMatch(/not a percent/);
    const frames = parseAct({ thought: 't', tool: 'touch_gesture', expect: 'no_change' }, ctx);
    expect(frames.ok ? '' : frames.error).toMatch(/touch_gesture needs frames/);
    const member = parseAct(
      {
        thought: 't',
        tool: 'action_sequence',
        steps: [{ tool: 'control_action', target_id: 'deadbeef', op: 'click' }],
        expect: 'no_change',
      },
      ctx,
    );
    expect(member.ok ? '' : member.error).toMatch(/"deadbeef" is not on the current screen/);
  });
});
