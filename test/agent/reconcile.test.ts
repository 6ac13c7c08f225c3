import { describe, expect, it } from 'vitest';
import { isIdempotent, judgeInFlight, reconcileAction, reconciledRecord } from '../../src/agent/reconcile.js';
import { type RunEvent, reduce } from '../../src/agent/reduce.js';
import { bannedOn, newState, type RunState } from '../../src/agent/run-state.js';
import type { Decision, Observation } from '../../src/core/types.js';
import { emptyUsage } from '../../src/planner/llm/client.js';
import type { JournalEntry } from '../../src/store/action-journal.js';
import { ACME_PACKAGE } from '../../src/testbed/sim/apps/acme.js';
import { actionSignature } from '../../src/tools/index.js';
import { byLabel, look, newPhone, open, tapElement } from '../perception/phone.js';

/** The in-flight action judged on the virtual phone's real screens, read before and after. */

async function settings() {
  const phone = newPhone();
  await open(phone, 'com.android.settings');
  const read = async () => (await look(phone, { screenshot: false })).observation;
  return { phone, read, pre: await read() };
}

function entry(pre: Observation, decision: Decision): JournalEntry {
  return { step: 4, at: 0, decision, pre, subgoal: 0, subgoalDone: true };
}

const tapOn = (id: string, expect: Decision['expect']): Decision => ({
  thought: 't',
  action: { tool: 'tap', target_id: id },
  expect,
});

describe('judgeInFlight', () => {
  it('the screen as it was (read again) → not done, whatever the expectation', async () => {
    const { read, pre } = await settings();
    const net = byLabel(pre, /^Network & internet/);
    for (const want of [{ kind: 'element_gone', target_id: net.id }, { kind: 'page_changes' }] as const)
      expect(judgeInFlight(entry(pre, tapOn(net.id, want)), await read()).verdict).toBe('not_done');
  });

  it('its expectation holds on the screen now → done', async () => {
    const { phone, read, pre } = await settings();
    const net = byLabel(pre, /^Network & internet/);
    await tapElement(phone, net);
    const now = await read();
    expect(judgeInFlight(entry(pre, tapOn(net.id, { kind: 'element_gone', target_id: net.id })), now)).toEqual({
      verdict: 'done',
    });
  });

  it('the screen changed but not as expected, or it could not show → unknown, with the reason', async () => {
    const { phone, read, pre } = await settings();
    const net = byLabel(pre, /^Network & internet/);
    await tapElement(phone, net);
    const now = await read();
    const j = judgeInFlight(entry(pre, tapOn(net.id, { kind: 'text_appears', text: 'Nothing like this' })), now);
    expect(j.verdict).toBe('unknown');
    expect(j.reason).toMatch(/Nothing like this/);
    const typed: Decision = { thought: 't', action: { tool: 'type', text: 'x' }, expect: { kind: 'no_change' } };
    expect(judgeInFlight(entry(pre, typed), pre).verdict).toBe('unknown');
  });
});

describe('reconcileAction', () => {
  /** A run's real state, and the reducer the resume tells its events to. */
  const session = () => {
    const r = {
      st: newState({
        runId: 'r',
        goal: 'g',
        dryRun: false,
        maxSteps: 10,
        plan: [{ text: 'open the network page', done: false }],
        usage: emptyUsage(),
        at: 0,
      }),
      tell: async (ev: RunEvent) => {
        r.st = reduce(r.st, ev);
      },
    };
    return r;
  };
  const banned = (st: RunState, page: string, sig: string) => bannedOn(st, page).signatures.includes(sig);

  it('an unknown tap is banned on its page and the model told; an unknown type may be redone', async () => {
    const { pre } = await settings();
    const net = byLabel(pre, /^Network & internet/);
    const tap = tapOn(net.id, { kind: 'element_gone', target_id: net.id });
    const s = session();
    const note = await reconcileAction(s.st, s.tell, entry(pre, tap), { verdict: 'unknown', reason: 'r' }, pre);
    expect(note).toMatch(/banned on its page, not repeated blindly/);
    expect(banned(s.st, pre.pageHash, actionSignature(tap.action))).toBe(true);
    expect(s.st.loop.hint).toMatch(/do not repeat it unless the screen shows it was not done/);
    expect(s.st.plan[0]?.done).toBe(false);

    const typed: Decision = { thought: 't', action: { tool: 'type', text: 'x' }, expect: { kind: 'no_change' } };
    const t = session();
    await reconcileAction(t.st, t.tell, entry(pre, typed), { verdict: 'unknown', reason: 'r' }, pre);
    expect(banned(t.st, pre.pageHash, actionSignature(typed.action))).toBe(false);
    expect(t.st.history[0]?.note).toMatch(/doing it again is harmless/);
  });

  it('a done action completes its subgoal and is recorded as done', async () => {
    const { pre } = await settings();
    const net = byLabel(pre, /^Network & internet/);
    const s = session();
    await reconcileAction(s.st, s.tell, entry(pre, tapOn(net.id, { kind: 'page_changes' })), { verdict: 'done' }, pre);
    expect(s.st.plan[0]?.done).toBe(true);
    expect(s.st.current).toBe(1);
    expect(s.st.history[0]).toMatchObject({ step: 4, ok: true });
  });

  it('typed text reads as typed in a plain field, and only as its length in a password field', async () => {
    const phone = newPhone();
    await open(phone, ACME_PACKAGE);
    const pre = (await look(phone, { screenshot: false })).observation;
    const field = (name: string) => {
      const e = pre.elements.find((x) => x.resourceId?.endsWith(`/${name}`));
      if (!e) throw new Error(`no ${name} field on ${pre.app.package}`);
      return e;
    };
    const typeInto = (id: string, text: string): Decision => ({
      thought: 't',
      action: { tool: 'type', target_id: id, text },
      expect: { kind: 'no_change' },
    });
    const shown = async (d: Decision) => {
      const s = session();
      const note = await reconcileAction(s.st, s.tell, entry(pre, d), { verdict: 'unknown', reason: 'r' }, pre);
      return {
        line: s.st.history[0]?.action ?? '',
        note,
        record: reconciledRecord(s.st, entry(pre, d), { verdict: 'unknown' }).action,
      };
    };
    const email = await shown(typeInto(field('email').id, 'bo@acme.test'));
    for (const t of [email.line, email.note, email.record]) expect(t).toContain('text="bo@acme.test"');
    const pw = await shown(typeInto(field('password').id, 'Hunter2-x'));
    for (const t of [pw.line, pw.note, pw.record]) {
      expect(t).toContain('text=(9 chars)');
      expect(t).not.toContain('Hunter2');
    }
    // A field that is not on the screen it was decided on is not known to be plain: counted.
    expect((await shown(typeInto('0000dead', 'bo@acme.test'))).line).toContain('text=(12 chars)');
  });

  it('idempotent: set a state (type, launch, scroll, a slider) — not add to one (tap, back, a click)', () => {
    const a = (tool: string, args?: Record<string, unknown>) => ({ tool, args }) as Decision['action'];
    expect(['type', 'launch_app', 'swipe'].map((t) => isIdempotent(a(t)))).toEqual([true, true, true]);
    expect(isIdempotent(a('control_action', { action: 'set_progress' }))).toBe(true);
    expect(['tap', 'back', 'long_press'].map((t) => isIdempotent(a(t)))).toEqual([false, false, false]);
    expect(isIdempotent(a('control_action', { action: 'click' }))).toBe(false);
  });
});
