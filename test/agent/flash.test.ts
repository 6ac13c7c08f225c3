import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { startRig } from './support/agent-rig.js';
import { scriptedSuite } from './support/scripted-model.js';

/**
 * Flash (issue 25) on the virtual phone with the reference model over HTTP: no plan call, bursts,
 * the done gate instead of a closing done call; a Flash run that fails twice hands over to Pro in
 * the same run; a burst stops at its guarded member; a resumed Flash run goes on in Flash.
 */

const WIFI = 'Turn Wi-Fi off.';
const SEND = 'Text 15551234567: "On my way".';
const CONTACT = 'Add contact Ada Lovelace, phone 5550100.';

const t = scriptedSuite('pa-flash-');

const checkpointOf = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'checkpoint.json'), 'utf8'));

describe('Flash', () => {
  it('runs a familiar task with no plan call and fewer model calls than Pro, verified on the phone', async () => {
    const a = await t.rig.agent({ confirm: () => 'denied' });
    const flash = await runAgent(a.deps, { goal: WIFI, maxSteps: 15, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(flash.status).toBe('done');
    expect(t.rig.phone.world.settings.wifi).toBe(false);
    expect(t.asked.map((x) => x.fn)).not.toContain('plan');
    const flashCalls = flash.llm.calls;

    t.rig.phone.world.settings.wifi = true;
    t.asked.length = 0;
    const b = await t.rig.agent({ confirm: () => 'denied' });
    const pro = await runAgent(b.deps, { goal: WIFI, maxSteps: 15, runsDir: t.runsDir, mode: 'pro' });
    await b.close();
    expect(pro.status).toBe('done');
    expect(t.asked[0]?.fn).toBe('plan');
    expect(flashCalls).toBeLessThan(pro.llm.calls);
    expect(flash.mode).toBe('flash');
  });

  it('verifies a burst and the action that completes its plan in full, the steps before them light', async () => {
    const sent: { tool: string; verification?: string }[] = [];
    const a = await t.rig.agent({
      confirm: () => 'approved',
      wrap: (ports) => ({
        ...ports,
        execute: (req) => {
          sent.push({ tool: req.decision.action.tool, verification: req.verification });
          return ports.execute(req);
        },
      }),
    });
    const r = await runAgent(a.deps, { goal: CONTACT, maxSteps: 15, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(r.status).toBe('done');
    expect(t.rig.phone.world.contacts.some((c) => c.name === 'Ada Lovelace')).toBe(true);
    // Launch, "Add" (and whatever a rule tapped) by the executor's default; the burst (name, phone,
    // Save) completes the plan, so it is verified in full and the done gate ends the run after it.
    expect(sent.at(-1)).toEqual({ tool: 'action_sequence', verification: 'full' });
    expect(sent.slice(0, -1).map((x) => x.verification)).toEqual(sent.slice(0, -1).map(() => undefined));
    expect(sent.length).toBeGreaterThanOrEqual(3);
  });

  it('plan=[] with the first action ends the run once it is verified: a one-step task needs one call', async () => {
    t.script = (p, fn) =>
      fn === 'act' && !p.app.startsWith('com.android.settings')
        ? {
            thought: 'opening it is the whole task',
            tool: 'launch_app',
            package: 'com.android.settings',
            expect: 'app_foreground com.android.settings',
            plan: [],
          }
        : undefined;
    const a = await t.rig.agent({ confirm: () => 'denied' });
    const r = await runAgent(a.deps, { goal: 'Open Settings.', maxSteps: 5, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(r.status).toBe('done');
    expect(t.rig.phone.foreground().package).toBe('com.android.settings');
    // Before, plan=[] left the plan "none yet": a second call was asked to say done.
    expect(t.asked.map((x) => x.fn)).toEqual(['act']);
  });

  it('a warm Flash run replays its page memory, the plan its first action came with too', async () => {
    const memory = new PageMemory();
    const a = await t.rig.agent({ confirm: () => 'denied' });
    const cold = await runAgent({ ...a.deps, memory }, { goal: WIFI, maxSteps: 15, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(cold.status).toBe('done');
    expect(cold.llm.calls).toBeGreaterThan(0);
    // The same task again on a fresh phone, with the memory the cold run left.
    await t.rig.close();
    t.rig = await startRig({ modelUrl: t.model.url });
    expect(t.rig.phone.world.settings.wifi).toBe(true);
    t.asked.length = 0;
    const b = await t.rig.agent({ confirm: () => 'denied' });
    const warm = await runAgent({ ...b.deps, memory }, { goal: WIFI, maxSteps: 15, runsDir: t.runsDir, mode: 'flash' });
    await b.close();
    expect(warm.status).toBe('done');
    expect(t.rig.phone.world.settings.wifi).toBe(false);
    // Before, a replayed first action left the plan pending: the next step asked the model for it.
    expect(t.asked).toEqual([]);
    expect(warm.llm.calls).toBe(0);
  });

  it('hands over to Pro in the same run after two failed expectations, and finishes there', async () => {
    let acts = 0;
    // Two steps whose expectation cannot hold (a back on the home screen changes nothing).
    t.script = (_p, fn) =>
      fn === 'act' && ++acts <= 2
        ? { thought: 'go back', tool: 'back', expect: 'text_appears "nowhere to be seen"' }
        : undefined;
    const a = await t.rig.agent({ confirm: () => 'denied' });
    const r = await runAgent(a.deps, { goal: WIFI, maxSteps: 20, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(r.status).toBe('done');
    expect(t.rig.phone.world.settings.wifi).toBe(false);
    expect(r.mode).toBe('pro');
    expect(r.handover).toEqual({ step: 2, reason: '2 expectations failed' });
    // Pro's plan call came right after the two failures, and only then.
    expect(t.asked.map((x) => x.fn).slice(0, 3)).toEqual(['act', 'act', 'plan']);
    const cp = await checkpointOf(r.runDir);
    expect(cp).toMatchObject({ mode: 'pro', handover: { step: 2 } });
    expect(cp.history.map((h: { action: string }) => h.action)).toContain('(hand over to Pro)');
  });

  it('stops a burst at its guarded member: the members before it run, the send goes alone and is confirmed alone', async () => {
    let burst = 0;
    let sendId = '';
    t.script = (p, fn) => {
      if (fn !== 'act') return undefined;
      const start = p.screen.elements.find((e) => e.text === 'Start chat');
      // One screen at a time here: the burst below is all on the compose screen.
      if (start)
        return { thought: 'new chat', tool: 'tap', target_id: start.id, expect: 'page_changes', subgoal_done: true };
      const send = p.screen.elements.find((e) => e.held?.includes('send'));
      if (send) sendId = send.id;
      const to = p.screen.elements.find((e) => /edit/i.test(e.role) && /^to/i.test(e.text));
      const field = p.screen.elements.find((e) => /edit/i.test(e.role) && /message/i.test(e.text));
      if (!send || !to || !field || burst++ > 0) return undefined;
      return {
        thought: 'type and send in one go',
        tool: 'action_sequence',
        steps: [
          { tool: 'control_action', target_id: to.id, op: 'set_text', text: '15551234567' },
          { tool: 'control_action', target_id: field.id, op: 'set_text', text: 'On my way' },
          { tool: 'control_action', target_id: send.id, op: 'click' },
        ],
        expect: 'page_changes',
        subgoal_done: true,
        plan: [],
      };
    };
    const a = await t.rig.agent({ confirm: () => 'approved' });
    const r = await runAgent(a.deps, { goal: SEND, maxSteps: 20, runsDir: t.runsDir, mode: 'flash' });
    await a.close();
    expect(burst).toBe(1);
    expect(r.status).toBe('done');
    expect(t.rig.phone.world.sent).toEqual([expect.objectContaining({ body: 'On my way' })]);
    // One question, about the Send tap alone — not about a sequence that held it.
    expect(a.confirmations.map((c) => c.summary)).toEqual([expect.stringMatching(/^tap .*Send/)]);
    // The burst ran up to Send; Send went alone right after it, with no model call between.
    const at = r.stepLog.findIndex((s) => s.action.startsWith('action_sequence'));
    expect(sendId).not.toBe('');
    // The listing shows an id's shortest prefix; the step line the whole id.
    expect(r.stepLog[at]?.action).not.toMatch(new RegExp(`\\[${sendId}\\w*\\] op=click`));
    expect(r.stepLog[at + 1]?.action).toMatch(new RegExp(`^tap \\[${sendId}\\w*\\] "Send"`));
    expect(r.stepLog[at + 1]?.llm.calls).toBe(0);
    // Its plan was done with it: the done gate ended the run, no call after the burst's.
    expect(t.asked.filter((x) => x.fn === 'act')).toHaveLength(3);
  });

  it('a paused Flash run resumes in Flash: no plan call, and no closing done call', async () => {
    const first = await t.rig.agent({ confirm: () => 'deferred' });
    const paused = await runAgent(first.deps, { goal: SEND, maxSteps: 20, runsDir: t.runsDir, mode: 'flash' });
    await first.close();
    expect(paused.status).toBe('needs_confirmation');
    t.asked.length = 0;
    const second = await t.rig.agent({ confirm: () => 'approved' });
    const resumed = await resumeAgent(second.deps, { runDir: paused.runDir });
    await second.close();
    expect(resumed.status).toBe('done');
    expect(t.rig.phone.world.sent).toHaveLength(1);
    expect(resumed.mode).toBe('flash');
    expect(t.asked.map((x) => x.fn)).not.toContain('plan');
    // Pro ends with the model's own done call; Flash's done gate judged the sent message instead.
    expect(resumed.stepLog.at(-1)?.action).toMatch(/Send/);
  });
});
