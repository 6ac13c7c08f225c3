import { guardForNode } from '../../src/device/protocol/guard.js';
import type { WireSnapshot } from '../../src/device/protocol/wire.js';
import { guardedTouch } from './checks-guard.js';
import {
  appNodes,
  brief,
  type Check,
  type Ctx,
  center,
  count,
  expect,
  expectCode,
  expectStatus,
  type ListSelector,
  need,
  poll,
  selectorFor,
  settle,
  toTop,
  uniqueTextNode,
} from './suite.js';

/** Navigation, gestures, native controls and the error codes they can provoke. */

const DISPLAY_LABELS = ['Display', '显示', 'Display & brightness', '显示和亮度', '显示与亮度'];
const DISPLAY = /^(display|显示)/i;

async function openSettings(ctx: Ctx): Promise<WireSnapshot> {
  const { client, state } = ctx;
  for (const label of ['Settings', '设置']) {
    const r = await client.action({ action: 'launch_app', label });
    if (r.status === 'completed') break;
  }
  return poll(ctx, 'Settings in the foreground', async () => {
    const s = await client.snapshot();
    if (!/settings/i.test(s.foreground.package)) return undefined;
    state.settingsPackage = s.foreground.package;
    return s;
  });
}

/** The largest list that scrolls; either way: Settings reopens where it was left, maybe at its end. */
function mainList(snap: WireSnapshot) {
  return appNodes(snap)
    .filter(
      (n) => n.flags.scrollable && (n.actions.includes('scroll_forward') || n.actions.includes('scroll_backward')),
    )
    .sort((a, b) => (b.bounds.bottom - b.bounds.top) * 1 - (a.bounds.bottom - a.bounds.top))[0];
}

/** The topmost entry inside the list whose text is unique on screen. */
function firstEntry(s: WireSnapshot, list: ListSelector) {
  const box = appNodes(s).find(
    (n) => (list.resource_id === undefined || n.resourceId === list.resource_id) && n.flags.scrollable,
  )?.bounds;
  if (!box) return undefined;
  return uniqueTextNode(s, (n) => n.bounds.top >= box.top && n.bounds.bottom <= box.bottom);
}

/** Home, then Settings: the screen every later check works on. */
export const openingChecks: Check[] = [
  {
    name: 'key: home',
    async run({ client }) {
      expectStatus(await client.action({ action: 'key', key: 'home' }), ['completed'], 'key home');
    },
  },
  {
    name: 'launch_app: Settings by label',
    async run(ctx) {
      const s = await openSettings(ctx);
      const list = mainList(s);
      expect(list, 'Settings has no scrollable list (no node offers scroll_forward or scroll_backward)');
      ctx.state.list = selectorFor(s, list);
      ctx.note(`${s.foreground.package}; list ${brief(ctx.state.list)}`);
    },
  },
  {
    name: 'wait_until: appears',
    async run({ client }) {
      const s = await client.snapshot();
      const n = need(uniqueTextNode(s), 'a node with unique text');
      const r = await client.action({
        action: 'wait_until',
        condition: 'appears',
        selector: { text: n.text },
        timeout_ms: 2_000,
      });
      expectStatus(r, ['observed'], 'wait_until appears');
    },
  },
  {
    name: 'read_control: a unique control',
    async run({ client }) {
      const s = await client.snapshot();
      const n = need(uniqueTextNode(s), 'a node with unique text');
      const r = await client.action({ action: 'read_control', selector: { text: n.text } });
      expectStatus(r, ['observed'], 'read_control');
      const c = need(r.control, 'control info');
      expect(c.text === n.text && c.token.length > 0 && c.visible_area > 0, `control ${brief(c)}`);
    },
  },
];

/** Gestures, scrolling and native controls on Settings. */
export const actionChecks: Check[] = [
  {
    name: 'swipe',
    async run({ client }) {
      const r = await client.action({ action: 'swipe', x1: 500, y1: 650, x2: 500, y2: 450, duration_ms: 400 });
      expectStatus(r, ['completed'], 'swipe');
      await client.action({ action: 'swipe', x1: 500, y1: 450, x2: 500, y2: 650, duration_ms: 400 });
    },
  },
  {
    name: 'touch_gesture: one finger, three keyframes',
    async run({ client }) {
      const r = await client.action({
        action: 'touch_gesture',
        frames: [
          { at_ms: 0, points: [{ x: 500, y: 600 }] },
          { at_ms: 200, points: [{ x: 500, y: 600 }] },
          { at_ms: 500, points: [{ x: 500, y: 640 }] },
        ],
      });
      expectStatus(r, ['completed'], 'touch_gesture');
    },
  },
  {
    name: 'pinch',
    async run({ client }) {
      const r = await client.action({
        action: 'pinch',
        x: 500,
        y: 500,
        start_distance: 200,
        end_distance: 400,
        rotation_degrees: 10,
      });
      expectStatus(r, ['completed'], 'pinch');
    },
  },
  {
    name: 'control_action scroll_forward + scroll_to back to the first entry',
    async run(ctx) {
      const { client, state } = ctx;
      const list = need(state.list, 'the Settings list');
      await toTop(ctx, list);
      const s = await client.snapshot();
      const first = need(firstEntry(s, list), 'an entry of the list with unique text');
      let gone = false;
      for (let i = 0; i < 6 && !gone; i++) {
        const r = await client.action({
          action: 'control_action',
          request: { selector: list, action: 'scroll_forward' },
        });
        if (r.error?.code === 'UNSUPPORTED') break; // reached the end of the list
        expectStatus(r, ['completed'], 'scroll_forward');
        await settle(ctx);
        gone = count(await client.snapshot(), (n) => n.text === first.text) === 0;
      }
      expect(gone, `"${first.text}" is still visible at the end of the list (the list must be longer than the screen)`);
      const r = await client.action({
        action: 'scroll_to',
        container: list,
        target: { text: first.text },
        direction: 'backward',
        max_scrolls: 10,
      });
      expectStatus(r, ['completed'], 'scroll_to');
      expect((r.scroll_log?.length ?? 0) >= 1, `scroll_log ${brief(r.scroll_log)}`);
      ctx.note(`${r.scroll_log?.length} scrolls back to "${first.text}"`);
    },
  },
  {
    name: 'scroll_to target_match title: a row as listed is found by its title and named; exact finds it not',
    async run(ctx) {
      const { client, state } = ctx;
      const list = need(state.list, 'the Settings list');
      await toTop(ctx, list);
      const first = need(firstEntry(await client.snapshot(), list), 'an entry of the list with unique text');
      // The row as a listing shows it: its title and what perception joined to it.
      const listed = { text: `${first.text} — listed beside it` };
      const exact = await client.action({ action: 'scroll_to', container: list, target: listed, max_scrolls: 2 });
      expect(exact.status !== 'observed' && exact.status !== 'completed', `exact match found ${String(exact.found)}`);
      await toTop(ctx, list);
      const more = await client.action({
        action: 'scroll_to',
        container: list,
        target: { text: `absent ${Math.random()}` },
        max_scrolls: 1,
        settle_ms: 200,
      });
      // Out of scrolls, `list_end` says whether the list goes on: it is what the list itself offers
      // after that scroll (one scroll may reach the end of a short list: NOT_FOUND and ended, as on
      // Robolectric's Settings), and a list that could not move at all has ended (NO_PROGRESS).
      const code = more.error?.code;
      expect(
        code === 'NOT_FOUND' || code === 'NO_PROGRESS',
        `one scroll: expected NOT_FOUND or NO_PROGRESS, got ${brief(more.error)}`,
      );
      expect(typeof more.list_end === 'boolean', `${code} without list_end`);
      if (code === 'NO_PROGRESS') expect(more.list_end === true, `NO_PROGRESS with list_end ${String(more.list_end)}`);
      const box = mainList(await client.snapshot());
      const goesOn = !!box?.actions.includes('scroll_forward');
      expect(
        more.list_end === !goesOn,
        `list_end ${String(more.list_end)}, but the list offers scroll_forward: ${goesOn}`,
      );
      const r = await client.action({
        action: 'scroll_to',
        container: list,
        target: listed,
        target_match: 'title',
        direction: 'backward',
        max_scrolls: 10,
      });
      expectStatus(r, ['completed', 'observed'], 'scroll_to by title');
      expect(r.found === first.text, `found ${String(r.found)}, not "${first.text}"`);
      const end = await client.action({
        action: 'scroll_to',
        container: list,
        target: { text: `absent ${Math.random()}` },
        target_match: 'title',
        direction: 'backward',
        max_scrolls: 3,
        settle_ms: 200,
      });
      expectCode(end, 'NO_PROGRESS', 'scroll_to backward from the top');
      expect(end.list_end === true, `list_end at the top: ${String(end.list_end)}`);
      ctx.note(`"${listed.text}" found "${r.found}" after ${r.scroll_log?.length} scrolls`);
    },
  },
  {
    name: 'error NO_PROGRESS / NOT_FOUND: scroll_to a target that is not in the list',
    async run(ctx) {
      const { client, state } = ctx;
      await toTop(ctx, need(state.list, 'the Settings list'));
      const r = await client.action({
        action: 'scroll_to',
        container: need(state.list, 'the Settings list'),
        target: { text: `absent ${Math.random()}` },
        max_scrolls: 20,
        settle_ms: 200,
      });
      expect(
        r.error?.code === 'NO_PROGRESS' || r.error?.code === 'NOT_FOUND',
        `expected NO_PROGRESS or NOT_FOUND, got ${brief(r.error)}`,
      );
      expect(r.status === 'partial' && (r.scroll_log?.length ?? 0) > 0, `status ${r.status}`);
      await client.action({
        action: 'scroll_to',
        container: need(state.list, 'the Settings list'),
        target: { text: `absent ${Math.random()}` },
        direction: 'backward',
        max_scrolls: 20,
        settle_ms: 200,
      });
    },
  },
  {
    name: 'tap: open Display (scrolled into view with scroll_to)',
    async run(ctx) {
      const { client, state } = ctx;
      const list = need(state.list, 'the Settings list');
      await toTop(ctx, list);
      // The label differs between phones and languages; scroll_to needs the exact text.
      for (const text of DISPLAY_LABELS) {
        const found = await client.action({ action: 'scroll_to', container: list, target: { text }, max_scrolls: 10 });
        if (found.status === 'completed' || found.status === 'observed') break;
        await toTop(ctx, list);
      }
      await settle(ctx);
      const s = await client.snapshot();
      const entry = need(
        uniqueTextNode(s, (n) => DISPLAY.test(n.text)) ??
          uniqueTextNode(s, (n) => n.flags.clickable && !n.flags.checkable),
        'an entry to tap',
      );
      const p = center(entry);
      // Guarded where the helper offers it: an intact guard must not stop the tap.
      const guard = (await guardedTouch(ctx)) ? { guard: guardForNode(entry) } : {};
      const r = await client.action({ action: 'tap', x: p.x, y: p.y, coord_space: 'pixel', ...guard });
      expectStatus(r, ['completed'], `tap${guard.guard ? ' (guarded)' : ''}`);
      await settle(ctx);
      const after = await client.snapshot();
      expect(after.seq !== s.seq, 'the screen did not change after the tap');
      ctx.note(`tapped "${entry.text}"`);
    },
  },
  {
    name: 'control_action set_progress + error OUT_OF_RANGE',
    async run(ctx) {
      const { client } = ctx;
      const s = await client.snapshot();
      const seek = need(
        appNodes(s).find((n) => n.range && n.actions.includes('set_progress')),
        'a control with a range (Settings → Display → brightness)',
      );
      const range = need(seek.range, 'range');
      const selector = selectorFor(s, seek);
      const bad = await client.action({
        action: 'control_action',
        request: { selector, action: 'set_progress', value: range.max + 1 },
      });
      expectCode(bad, 'OUT_OF_RANGE', 'set_progress above max');
      const value = Math.round((range.min + range.max) / 2);
      const ok = await client.action({
        action: 'control_action',
        request: { selector, action: 'set_progress', value },
      });
      expectStatus(ok, ['completed'], 'set_progress');
      const wait = await client.action({
        action: 'wait_until',
        condition: 'value_equals',
        selector,
        value,
        timeout_ms: 2_000,
      });
      expectStatus(wait, ['observed'], 'value_equals after set_progress');
    },
  },
  {
    name: 'long_press',
    async run({ client }) {
      const s = await client.snapshot();
      const n = uniqueTextNode(s, (m) => !m.flags.clickable && !m.flags.longClickable);
      const p = n ? center(n) : { x: Math.round(s.screen.width / 2), y: Math.round(s.screen.height * 0.12) };
      const r = await client.action({ action: 'long_press', x: p.x, y: p.y, coord_space: 'pixel', duration_ms: 800 });
      expectStatus(r, ['completed'], 'long_press');
    },
  },
  {
    name: 'key: back',
    async run(ctx) {
      expectStatus(await ctx.client.action({ action: 'key', key: 'back' }), ['completed'], 'key back');
      await settle(ctx);
    },
  },
];
