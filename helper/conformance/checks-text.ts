import type { WireSnapshot } from '../../src/device/protocol/wire.js';
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
  need,
  poll,
  selectorFor,
  settle,
  toTop,
  uniqueTextNode,
} from './suite.js';

/** Text editing, tokens, sequences, op ids and cancellation — on an editable field reached from Settings. */

const SEARCH = /search|搜索/i;

function editable(s: WireSnapshot) {
  return appNodes(s).find((n) => n.flags.editable && !n.flags.password);
}

async function readText(
  ctx: Ctx,
  selector: object,
): Promise<{ text: string; selection?: { start: number; end: number } }> {
  const r = await ctx.client.action({ action: 'read_control', selector });
  expectStatus(r, ['observed'], 'read_control of the field');
  const c = need(r.control, 'control');
  return { text: c.text, ...(c.selection ? { selection: c.selection } : {}) };
}

export const textChecks: Check[] = [
  {
    name: 'error NOT_EDITABLE: set_text on a text label',
    async run({ client }) {
      const s = await client.snapshot();
      const n = need(
        uniqueTextNode(s, (m) => !m.flags.editable),
        'a non-editable text node',
      );
      const r = await client.action({ action: 'set_text', selector: { text: n.text }, text: 'x' });
      expect(
        r.error?.code === 'NOT_EDITABLE' || r.error?.code === 'UNSUPPORTED',
        `expected NOT_EDITABLE, got ${brief(r.error)}`,
      );
      expect(r.delivery === 'not_delivered', `delivery ${r.delivery}`);
    },
  },
  {
    name: 'find an editable field (Settings search)',
    async run(ctx) {
      const { client, state } = ctx;
      if (state.list) await toTop(ctx, state.list);
      let s = await client.snapshot();
      if (!editable(s)) {
        const entry = need(
          appNodes(s).find((n) => SEARCH.test(n.text) || SEARCH.test(n.desc) || SEARCH.test(n.resourceId)),
          'an editable field or a search entry on the Settings screen',
        );
        const p = center(entry);
        expectStatus(
          await client.action({ action: 'tap', x: p.x, y: p.y, coord_space: 'pixel' }),
          ['completed'],
          'tap search',
        );
        s = await poll(ctx, 'an editable field', async () => {
          const snap = await client.snapshot();
          return editable(snap) ? snap : undefined;
        });
      }
      const field = need(editable(s), 'editable field');
      state.edit = selectorFor(s, field);
      ctx.note(`field ${brief(state.edit)}`);
    },
  },
  {
    name: 'set_text: Unicode, read back exactly',
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const r = await ctx.client.action({ action: 'set_text', selector: edit, text: 'A😀B中文' });
      expectStatus(r, ['completed'], 'set_text');
      const t = await readText(ctx, edit);
      expect(t.text === 'A😀B中文', `read back ${JSON.stringify(t.text)}`);
    },
  },
  {
    name: "set_text: the receipt's after state is the field read back",
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const r = await ctx.client.action({ action: 'set_text', selector: edit, text: 'conf after' });
      expectStatus(r, ['completed'], 'set_text');
      expect(r.after?.text === 'conf after', `after ${brief(r.after)}`);
      expect(
        r.before?.token !== undefined && r.after?.token !== r.before.token,
        'the token did not change with the text',
      );
      // Restore what the next check expects to overwrite.
      expectStatus(
        await ctx.client.action({ action: 'set_text', selector: edit, text: 'A😀B中文' }),
        ['completed'],
        'reset',
      );
    },
  },
  {
    // Helpers resolve by Android's queries (PROTOCOL §7 "Resolving a target"), which match by
    // substring and case-insensitively: the selector must still match exactly.
    name: 'selectors stay exact: another case, a substring, a wrong class → NOT_FOUND',
    async run(ctx) {
      const { client } = ctx;
      const edit = need(ctx.state.edit, 'the field');
      const s = await client.snapshot();
      const n = need(
        uniqueTextNode(s, (m) => Array.from(m.text.trim()).length >= 2),
        'a node with a unique text of two or more characters',
      );
      // Another case (where the script has one) and the text without its last character.
      const variants = [n.text.toUpperCase(), Array.from(n.text).slice(0, -1).join('')].filter((t) => t !== n.text);
      for (const text of variants) {
        if (count(s, (m) => m.text === text || m.desc === text) > 0) continue;
        const r = await client.action({ action: 'read_control', selector: { text } });
        expectCode(
          r,
          'NOT_FOUND',
          `read_control { text: ${JSON.stringify(text)} } (the node says ${JSON.stringify(n.text)})`,
        );
      }
      if (edit.resource_id) {
        const r = await client.action({
          action: 'set_text',
          selector: { resource_id: edit.resource_id, class_name: 'android.widget.ImageView' },
          text: 'must not land',
        });
        expectCode(r, 'NOT_FOUND', 'the field by its id with a wrong class');
        expect(r.delivery === 'not_delivered', `delivery ${r.delivery}`);
        expect((await readText(ctx, edit)).text === 'A😀B中文', 'a write with a wrong class changed the field');
      } else ctx.note('the field has no unique resource id: the id case is not checked');
    },
  },
  {
    name: 'control_action set_selection (UTF-16) + error OUT_OF_RANGE when splitting a surrogate pair',
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const split = await ctx.client.action({
        action: 'control_action',
        request: { selector: edit, action: 'set_selection', start: 2, end: 2 },
      });
      expectCode(split, 'OUT_OF_RANGE', 'selection inside the emoji');
      const r = await ctx.client.action({
        action: 'control_action',
        request: { selector: edit, action: 'set_selection', start: 1, end: 3 },
      });
      expectStatus(r, ['completed'], 'set_selection');
      const t = await readText(ctx, edit);
      expect(t.selection?.start === 1 && t.selection?.end === 3, `selection ${brief(t.selection)}`);
    },
  },
  {
    name: 'control_action replace_selection',
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const r = await ctx.client.action({
        action: 'control_action',
        request: { selector: edit, action: 'replace_selection', text: 'x' },
      });
      expectStatus(r, ['completed'], 'replace_selection');
      const t = await readText(ctx, edit);
      expect(t.text === 'AxB中文', `text ${JSON.stringify(t.text)}`);
      expect(t.selection?.start === 2 && t.selection?.end === 2, `cursor ${brief(t.selection)}`);
    },
  },
  {
    name: 'ime_commit: Unicode at the cursor of the focused field',
    async run(ctx) {
      const { client } = ctx;
      const edit = need(ctx.state.edit, 'the field');
      expectStatus(await client.action({ action: 'set_text', selector: edit, text: '' }), ['completed'], 'clear');
      await client.action({ action: 'control_action', request: { selector: edit, action: 'focus' } });
      const r = await client.action({ action: 'ime_commit', text: '中文 ok😀' });
      expectStatus(r, ['completed'], 'ime_commit');
      const t = await readText(ctx, edit);
      expect(t.text === '中文 ok😀', `text ${JSON.stringify(t.text)}`);
    },
  },
  {
    name: 'error STALE: expected_token of a changed control',
    async run(ctx) {
      const { client } = ctx;
      const edit = need(ctx.state.edit, 'the field');
      const read = await client.action({ action: 'read_control', selector: edit });
      const token = need(read.control?.token, 'token');
      const same = await client.action({ action: 'set_text', selector: edit, text: 'fresh', expected_token: token });
      expectStatus(same, ['completed'], 'set_text with the current token');
      const r = await client.action({
        action: 'control_action',
        request: { selector: edit, action: 'set_text', text: 'late', expected_token: token },
      });
      expectCode(r, 'STALE', 'set_text with an old token');
      expect(r.delivery === 'not_delivered', `delivery ${r.delivery}`);
      expect((await readText(ctx, edit)).text === 'fresh', 'the stale write changed the field');
    },
  },
  {
    name: 'action_sequence: wait + control actions',
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const r = await ctx.client.action({
        action: 'action_sequence',
        actions: [
          { action: 'wait_until', condition: 'appears', selector: edit, timeout_ms: 1_000 },
          { action: 'control_action', request: { selector: edit, action: 'set_text', text: 'seq' } },
          { action: 'wait_until', condition: 'text_equals', selector: edit, text: 'seq', timeout_ms: 1_000 },
        ],
      });
      expectStatus(r, ['completed'], 'sequence');
      expect(r.members?.length === 3, `members ${r.members?.length}`);
    },
  },
  {
    name: 'action_sequence: stops at the first failure and keeps the receipts',
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const r = await ctx.client.action({
        action: 'action_sequence',
        actions: [
          { action: 'control_action', request: { selector: edit, action: 'set_text', text: 'one' } },
          { action: 'control_action', request: { selector: { text: `absent ${Math.random()}` }, action: 'click' } },
          { action: 'control_action', request: { selector: edit, action: 'set_text', text: 'three' } },
        ],
      });
      expectCode(r, 'NOT_FOUND', 'sequence');
      expect(r.status === 'partial' && r.members?.length === 2, `status ${r.status}, members ${r.members?.length}`);
      expect(r.members?.[0]?.status === 'completed', 'first member not kept as completed');
      expect((await readText(ctx, edit)).text === 'one', 'a member after the failure ran');
    },
  },
  {
    name: 'action_sequence: all members validated before any runs',
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const r = await ctx.client.post('/v3/action', {
        action: 'action_sequence',
        actions: [
          { action: 'control_action', request: { selector: edit, action: 'set_text', text: 'must not run' } },
          { action: 'wait_until', condition: 'appears', selector: edit, timeout_ms: 5_000 },
        ],
      });
      expect(r.status === 400, `a group wait over 3 s was accepted: HTTP ${r.status}`);
      const many = Array.from({ length: (ctx.state.hello?.limits?.maxBurstActions ?? 8) + 1 }, () => ({
        action: 'wait_until',
        condition: 'appears',
        selector: edit,
        timeout_ms: 100,
      }));
      const burst = await ctx.client.post('/v3/action', { action: 'action_sequence', actions: many });
      expect(burst.status === 400, `a burst over the limit was accepted: HTTP ${burst.status}`);
      expect((await readText(ctx, edit)).text === 'one', 'a member of a rejected sequence ran');
    },
  },
  {
    name: 'op_id: a resent op returns the stored receipt, no second dispatch',
    async run(ctx) {
      const { client } = ctx;
      const edit = need(ctx.state.edit, 'the field');
      const opId = `conf-replay-${Date.now()}`;
      const first = await client.action({
        action: 'control_action',
        op_id: opId,
        request: { selector: edit, action: 'set_text', text: 'once' },
      });
      expectStatus(first, ['completed'], 'first');
      await client.action({ action: 'set_text', selector: edit, text: 'changed since' });
      const again = await client.action({
        action: 'control_action',
        op_id: opId,
        request: { selector: edit, action: 'set_text', text: 'once' },
      });
      expect(again.replayed === true && again.op_id === opId, `replayed ${brief(again)}`);
      expect((await readText(ctx, edit)).text === 'changed since', 'the resent op ran again');
      const clash = await client.post('/v3/action', { action: 'key', key: 'back', op_id: opId });
      expect(clash.status === 400, `op_id reused for another action: HTTP ${clash.status}`);
    },
  },
  {
    name: 'cancel: a cancel that arrives first blocks the op',
    async run({ client }) {
      const opId = `conf-cancel-${Date.now()}`;
      const c = await client.post('/v3/cancel', { op_id: opId });
      expect(c.status === 200 && (c.json as { state?: string })?.state === 'pending', `cancel ${c.text}`);
      const r = await client.action({ action: 'key', key: 'back', op_id: opId });
      expectCode(r, 'CANCELLED', 'late op');
      expect(r.status === 'cancelled' && r.delivery === 'not_delivered', `status ${r.status}`);
      const again = await client.action({ action: 'key', key: 'back', op_id: opId });
      expect(again.status === 'cancelled' && again.replayed === true, `a resend ran: ${brief(again)}`);
    },
  },
  {
    name: 'control_action ime_enter (when the field supports it)',
    async run(ctx) {
      const edit = need(ctx.state.edit, 'the field');
      const read = await ctx.client.action({ action: 'read_control', selector: edit });
      const actions = need(read.control?.actions, 'actions');
      const r = await ctx.client.action({ action: 'control_action', request: { selector: edit, action: 'ime_enter' } });
      if (actions.includes('ime_enter')) expectStatus(r, ['completed'], 'ime_enter');
      else expectCode(r, 'UNSUPPORTED', 'ime_enter on a field without it');
      await settle(ctx);
    },
  },
];
