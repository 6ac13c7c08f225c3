import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApp } from '../../bench/droidtask/fixture.js';
import { scriptedAnswer } from '../../bench/droidtask/oracle.js';
import { figures } from '../../bench/droidtask/report.js';
import { runApp, STEPWISE_NOTE, type StepProbe } from '../../bench/droidtask/run.js';
import { resolveLlmConfig } from '../../src/planner/llm/config.js';
import type { ActArgsOut } from '../../src/testbed/reference-model/policy.js';
import type { ParsedPrompt } from '../../src/testbed/reference-model/read-request.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

/**
 * bench:droidtask's harness on the real DroidTask fixtures (../shared, never copied): a scripted
 * model answering every gold step from the prompt's own listing scores every step (so every gold
 * target is on the agent's screen and every recorded scroll path replays), and one that picks the
 * wrong element, or acts where the gold ends, scores none of them. Not a score of any model.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.resolve(repoRoot, '../shared/fixtures/droidtask');

let probe: StepProbe | undefined;
let mode: 'gold' | 'wrong' = 'gold';
let model: ReferenceModel;
/** Every prompt's Recent steps, as the model parsed them. */
let histories: ParsedPrompt['history'][] = [];
/** Every request's user message. */
let users: string[] = [];

/** The listed element farthest from the gold, and a tap where the gold ends the task. */
function wrongAnswer(p: ParsedPrompt): ActArgsOut | undefined {
  const right = scriptedAnswer(p, probe);
  if (!right || !probe) return right;
  if (right.tool === 'swipe') return right;
  const pick = p.screen.elements.filter((e) => e.id !== right.target_id && e.verb === 'tap').at(-1);
  if (!pick) return { thought: 'nothing else to tap', tool: 'back', expect: 'page_changes' };
  return { thought: 'the wrong one', tool: 'tap', target_id: pick.id, expect: 'page_changes' };
}

beforeAll(async () => {
  model = await startReferenceModel({
    catalog: [],
    tokenizer: 'estimate',
    onRequest: (body) => {
      const user = body.messages.find((m) => m.role === 'user');
      users.push(typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? ''));
    },
    answer: (p) => {
      histories.push(p.history);
      return mode === 'gold' ? scriptedAnswer(p, probe) : wrongAnswer(p);
    },
  });
});
afterAll(() => model?.close());

const spec = () => ({ config: resolveLlmConfig({ baseUrl: model.url, model: 'scripted' }, {}) });

describe('bench:droidtask harness (scripted model; not a score)', () => {
  it.each(['clock', 'calendar', 'notes'])(
    '%s: every gold step answered from the listing is scored right, recorded scrolls replayed',
    async (app) => {
      mode = 'gold';
      histories = [];
      users = [];
      const loaded = await loadApp(FIXTURES, app);
      const records = await runApp(loaded, { model: spec(), probe: (p) => (probe = p) });
      const f = figures(records);
      const missed = records.filter((r) => !r.score.correct).map((r) => `${r.task} ${r.step}: ${r.score.why}`);
      expect(missed).toEqual([]);
      expect(f.steps).toBe(loaded.tasks.reduce((a, t) => a + t.steps.length, 0));
      expect(f.completionRate).toBe(1);
      // Steps whose target is only on a scrolled screen are reached by scrolling, through the executor.
      const afterScroll = records.filter((r) => r.flags.includes('target-after-scroll'));
      expect(afterScroll.length).toBeGreaterThan(0);
      expect(afterScroll.every((r) => r.scrolls > 0)).toBe(true);
      expect(f.promptTokensPerStep.median).toBeGreaterThan(200);
      // The gold history is what DroidTask recorded, not what ran here: its steps read `recorded`,
      // never `met` (only the model's own scrolls, executed by the replay, are checked).
      const steps = histories.flat();
      expect(steps.filter((s) => s.recorded).length).toBeGreaterThan(f.steps / 2);
      expect(steps.filter((s) => s.met && !/^(swipe|scroll_to|control_action)\b/.test(s.action))).toEqual([]);
      // Each request's Recent steps are numbered one after the other: the model's own scrolls and
      // reads on a screen each take a number of their own (a relay player saw two steps "6.").
      const unordered = histories.filter((h) => h.some((s, i) => i > 0 && s.step <= (h[i - 1]?.step ?? 0)));
      expect(unordered.map((h) => h.map((s) => s.step).join(','))).toEqual([]);
      // Every request says the step-wise protocol once, in its Notes.
      expect(users.length).toBeGreaterThan(f.steps - 1);
      expect(users.filter((u) => u.split(STEPWISE_NOTE).length !== 2)).toEqual([]);
      // The recording's typed text is shown as typed (it is no password), never as its length.
      const typed = steps.filter((s) => s.recorded && s.action.startsWith('type '));
      const inputs = loaded.tasks.flatMap((t) => t.steps.slice(0, -1)).filter((st) => st.gold.kind === 'input');
      if (inputs.length > 0) expect(typed.length).toBeGreaterThan(0);
      expect(typed.filter((s) => /chars\)/.test(s.action) || !/text="[^"]+"/.test(s.action))).toEqual([]);
    },
    120_000,
  );

  it('a model that picks the wrong element, or acts where the gold ends, scores none of those steps', async () => {
    mode = 'wrong';
    const loaded = await loadApp(FIXTURES, 'clock');
    const records = await runApp(loaded, { model: spec(), probe: (p) => (probe = p) });
    const taps = records.filter((r) => r.goldKind === 'tap');
    expect(taps.length).toBeGreaterThan(20);
    expect(taps.filter((r) => r.score.correct)).toEqual([]);
    const done = records.filter((r) => r.goldKind === 'done');
    expect(done.every((r) => r.score.miss === 'checked_before_done')).toBe(true);
    expect(figures(records).complete).toBe(0);
  }, 120_000);
});
