import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { resumeAgent } from '../../src/agent/resume.js';
import type { ParsedPrompt } from '../../src/testbed/reference-model/read-request.js';
import type { Rig } from './support/agent-rig.js';
import { scriptedSuite } from './support/scripted-model.js';

/**
 * Bursts that cross a page (issue 25) on the virtual phone with the reference model over HTTP:
 * members after a tap that opens another screen are given by label and grounded on the screen
 * their turn comes on; one that does not ground there stops the burst, nothing is pressed on a
 * guess and the model is told; a guarded member on the new screen stops it for consent; a run
 * killed between parts resumes without sending a member again.
 */

const WIFI = 'Turn Wi-Fi off.';
const SEND = 'Text 15551234567: "On my way".';

const t = scriptedSuite('pa-burst-');

/** The Settings home screen's "Network & internet" row, when the model is on it. */
const networkRow = (p: ParsedPrompt) => p.screen.elements.find((e) => e.text.startsWith('Network & internet'));

/** The members of the bursts dispatched, by the ids they act on, in order. */
type Sent = { tool: string; verification?: string; members: string[] };

describe('a burst that crosses a page', () => {
  it('goes on by label on the screens its taps open: Wi-Fi off in two model calls, each part on its own screen', async () => {
    const sent: Sent[] = [];
    const a = await t.rig.agent({
      confirm: () => 'denied',
      wrap: (ports) => ({
        ...ports,
        execute: (req) => {
          const ms = (req.decision.action.args?.actions ?? []) as { target_id?: string }[];
          sent.push({
            tool: req.decision.action.tool,
            verification: req.verification,
            members: ms.map((m) => m.target_id ?? ''),
          });
          return ports.execute(req);
        },
      }),
    });
    const r = await runAgent(a.deps, { goal: WIFI, maxSteps: 15, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(r.status).toBe('done');
    expect(t.rig.phone.world.settings.wifi).toBe(false);
    // The launch (with the plan), then one burst: Network & internet → Internet → the Wi-Fi switch.
    expect(t.asked.map((x) => x.fn)).toEqual(['act', 'act']);
    expect(r.llm.calls).toBe(2);
    const parts = sent.filter((x) => x.tool === 'action_sequence');
    expect(parts).toHaveLength(3);
    // Each part on its own screen, by an id of that screen; light between parts, full at the end.
    expect(new Set(parts.flatMap((x) => x.members)).size).toBe(3);
    expect(parts.map((x) => x.verification)).toEqual([undefined, undefined, 'full']);
    const burst = t.asked[1]?.p;
    expect(burst && networkRow(burst)).toBeTruthy();
  });

  it('stops where a member does not ground on the new screen: nothing is pressed there, and the model is told', async () => {
    let sentBurst = false;
    t.script = (p, fn) => {
      const row = networkRow(p);
      if (fn !== 'act' || !row || sentBurst) return undefined;
      sentBurst = true;
      return {
        thought: 'open the page, then a row it does not have',
        tool: 'action_sequence',
        steps: [
          { tool: 'control_action', target_id: row.id, op: 'click' },
          { tool: 'control_action', label: 'Satellite uplink', op: 'click' },
          { tool: 'control_action', label: 'Wi-Fi', op: 'click', state: 'off' },
        ],
        expect: 'page_changes',
        subgoal_done: true,
      };
    };
    const dispatched: string[] = [];
    const a = await t.rig.agent({
      confirm: () => 'denied',
      wrap: (ports) => ({
        ...ports,
        execute: (req) => {
          dispatched.push(req.decision.action.tool);
          return ports.execute(req);
        },
      }),
    });
    const r = await runAgent(a.deps, { goal: WIFI, maxSteps: 20, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(sentBurst).toBe(true);
    // The call after the burst: on the page it opened, told where the burst stopped and why.
    const after = t.asked.findIndex((x) => x.fn === 'act' && networkRow(x.p)) + 1;
    const told = t.asked[after]?.p;
    expect(told?.app).toMatch(/NetworkDashboard/);
    expect(told?.hint).toMatch(
      /stopped before member 2 \(click "Satellite uplink"\): no control labelled "Satellite uplink" on this screen; the 1 member\(s\) before it ran \(click "Network & internet[^"]*"\)/,
    );
    // Between the part that ran and that call, nothing was dispatched on the page: no guess.
    const burstStep = r.stepLog.findIndex((s) => s.action.startsWith('action_sequence'));
    expect(r.stepLog[burstStep + 1]?.source).toBe('llm');
    expect(r.stepLog[burstStep + 1]?.note ?? '').not.toMatch(/grounded on this screen/);
    expect(dispatched.slice(0, 2)).toEqual(['launch_app', 'action_sequence']);
    // The model goes on from there and finishes the task.
    expect(r.status).toBe('done');
    expect(t.rig.phone.world.settings.wifi).toBe(false);
  });

  it('refuses a member given by id after a tap that may open another screen, before anything runs', async () => {
    let sentBurst = false;
    t.script = (p, fn) => {
      const row = networkRow(p);
      const other = p.screen.elements.find((e) => e.text.startsWith('Connected devices'));
      if (fn !== 'act' || !row || !other || sentBurst) return undefined;
      sentBurst = true;
      return {
        thought: 'two rows by id',
        tool: 'action_sequence',
        steps: [
          { tool: 'control_action', target_id: row.id, op: 'click' },
          { tool: 'control_action', target_id: other.id, op: 'click' },
        ],
        expect: 'page_changes',
        subgoal_done: true,
      };
    };
    const a = await t.rig.agent({ confirm: () => 'denied' });
    const r = await runAgent(a.deps, { goal: WIFI, maxSteps: 20, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    const refused = r.stepLog.find((s) => s.action.startsWith('action_sequence'));
    expect(refused?.ok).toBe(false);
    expect(refused?.note).toMatch(/member 2 names \[\w+\] by id after member 1 .*nothing ran/);
    const next = t.asked[t.asked.findIndex((x) => networkRow(x.p) && x.fn === 'act') + 1]?.p;
    expect(next?.hint).toMatch(/Give a member after such a tap by label/);
    // Still on the screen it was decided on when the model heard it: nothing was pressed.
    expect(next?.app).toMatch(/Settings/);
    expect(next && networkRow(next)).toBeTruthy();
    expect(r.status).toBe('done');
  });

  it('stops at a guarded member on the new screen: the members before it run, then it goes alone, confirmed alone', async () => {
    const a = await t.rig.agent({ confirm: () => 'approved' });
    const r = await runAgent(a.deps, { goal: SEND, maxSteps: 20, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(r.status).toBe('done');
    expect(t.rig.phone.world.sent).toEqual([expect.objectContaining({ body: 'On my way' })]);
    // One question, about the Send tap alone.
    expect(a.confirmations.map((c) => c.summary)).toEqual([expect.stringMatching(/^tap .*Send/)]);
    // The burst crossed into the compose screen by label, ran up to Send, and Send went alone
    // right after it (a step of its own, no model call): the launch and the burst were the calls.
    const parts = r.stepLog.filter((s) => /grounded on this screen by label/.test(s.note ?? ''));
    expect(parts.length).toBeGreaterThan(0);
    const sendStep = r.stepLog.findIndex((s) => /^tap .*"Send"/.test(s.action));
    expect(sendStep).toBeGreaterThan(0);
    expect(r.stepLog[sendStep - 1]?.action).toMatch(/^action_sequence .*set_text.*set_text/);
    expect(r.stepLog[sendStep - 1]?.action).not.toMatch(/Send/);
    expect(r.stepLog[sendStep]?.llm.calls).toBe(0);
    expect(r.llm.calls).toBe(2);
  });

  it('a guarded member with members after it goes alone, and the model hears the rest was not sent', async () => {
    let sentBurst = false;
    t.script = (p, fn) => {
      const start = p.screen.elements.find((e) => e.text === 'Start chat');
      if (fn !== 'act' || !start || sentBurst) return undefined;
      sentBurst = true;
      return {
        thought: 'write, send, then go back',
        tool: 'action_sequence',
        steps: [
          { tool: 'control_action', target_id: start.id, op: 'click' },
          { tool: 'control_action', label: 'To', op: 'set_text', text: '15551234567' },
          { tool: 'control_action', label: 'Text message', op: 'set_text', text: 'On my way' },
          { tool: 'control_action', label: 'Send', op: 'click' },
          { tool: 'control_action', label: 'Navigate up', op: 'click' },
        ],
        expect: 'page_changes',
        subgoal_done: true,
      };
    };
    const a = await t.rig.agent({ confirm: () => 'approved' });
    const r = await runAgent(a.deps, { goal: SEND, maxSteps: 20, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    // Send went alone right after the members before it, confirmed alone; "Navigate up" never went out.
    expect(t.rig.phone.world.sent[0]).toEqual(expect.objectContaining({ body: 'On my way' }));
    expect(a.confirmations[0]?.summary).toMatch(/^tap .*Send/);
    const sendStep = r.stepLog.findIndex((s) => /^tap .*"Send"/.test(s.action));
    expect(r.stepLog[sendStep]?.llm.calls).toBe(0);
    expect(r.stepLog.some((s) => /Navigate up/.test(s.action))).toBe(false);
    // The model's next call hears where the burst stopped, what ran and what was not sent.
    const next = t.asked.find((x) => x.p.hint?.includes('went alone'))?.p.hint;
    expect(next).toMatch(
      /stopped at member 4 \(click "Send"\): it asks the user \(send\), so it went alone; the 3 member\(s\) before it ran .*; the 1 member\(s\) after it were not sent/,
    );
  });

  it('a run killed between two parts resumes with the rest: no member is sent again, and no model call', async () => {
    const ctl = new AbortController();
    const clicked: string[][] = [];
    const watch = (kill: boolean) => ({
      confirm: () => 'denied' as const,
      wrap: (ports: Parameters<NonNullable<Parameters<Rig['agent']>[0]['wrap']>>[0]) => ({
        ...ports,
        execute: async (req: Parameters<typeof ports.execute>[0]) => {
          if (req.decision.action.tool === 'action_sequence') {
            // Killed as the second part is about to go out: it never reaches the phone.
            if (kill && clicked.length === 1) {
              ctl.abort();
              return new Promise<never>(() => {});
            }
            const ms = (req.decision.action.args?.actions ?? []) as { target_id?: string }[];
            clicked.push(ms.map((m) => m.target_id ?? ''));
          }
          return ports.execute(req);
        },
      }),
    });
    const first = await t.rig.agent(watch(true));
    const killed = await runAgent(first.deps, {
      goal: WIFI,
      maxSteps: 15,
      runsDir: t.runsDir,
      mode: 'flash',
      signal: ctl.signal,
    })
      .then(() => undefined)
      .catch((e: Error) => e);
    await first.close();
    expect(killed?.message).toMatch(/cancelled/);
    const runDir = /run folder: ([^)]+)\)/.exec(killed?.message ?? '')?.[1] ?? '';
    const cp = JSON.parse(await readFile(path.join(runDir, 'checkpoint.json'), 'utf8'));
    expect(cp.status).toBe('interrupted');
    expect(cp.burst?.members.map((m: { label?: string }) => m.label)).toEqual(['Internet', 'Wi-Fi']);
    expect(t.rig.phone.world.settings.wifi).toBe(true);
    t.asked.length = 0;
    const second = await t.rig.agent(watch(false));
    const resumed = await resumeAgent(second.deps, { runDir });
    await second.close();
    expect(resumed.status).toBe('done');
    expect(t.rig.phone.world.settings.wifi).toBe(false);
    // The parts after the kill are the rest; the first part's member is never sent again.
    expect(clicked).toHaveLength(3);
    const [firstPart = [], ...rest] = clicked;
    for (const part of rest) for (const id of firstPart) expect(part).not.toContain(id);
    expect(t.asked).toEqual([]);
  });
});
