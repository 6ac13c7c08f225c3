import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRADICTION_FLAG, contradictions } from '../../bench/droidtask/contradictions.js';
import { loadApp } from '../../bench/droidtask/fixture.js';
import { scriptedAnswer } from '../../bench/droidtask/oracle.js';
import { figures, renderMarkdown } from '../../bench/droidtask/report.js';
import { runApp, type StepProbe } from '../../bench/droidtask/run.js';
import { emptyUsage } from '../../src/planner/llm/client.js';
import { resolveLlmConfig } from '../../src/planner/llm/config.js';
import type { ActArgsOut } from '../../src/testbed/reference-model/policy.js';
import type { ParsedPrompt } from '../../src/testbed/reference-model/read-request.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

/**
 * Issue 22, the offline protocol's fidelity on real DroidTask data (../shared, read in place):
 * ids follow an element from step to step as the agent's loop perceives them on a phone, a tap on a
 * row whose check box the list's edge cuts off is the tap the gold makes after scrolling, and the
 * steps the recording itself contradicts are found from the data and counted apart (still scored).
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.resolve(repoRoot, '../shared/fixtures/droidtask');
/** messenger/task10: "Remove accents and diacritics at sending messages" — a row cut off at the bottom. */
const ROW = 'Remove accents';

let probe: StepProbe | undefined;
let mode: 'gold' | 'no-scroll' = 'gold';
let prompts: ParsedPrompt[] = [];
let model: ReferenceModel;

beforeAll(async () => {
  model = await startReferenceModel({
    catalog: [],
    tokenizer: 'estimate',
    answer: (p): ActArgsOut | undefined => {
      prompts.push(p);
      const row = p.screen.elements.find((e) => e.text.startsWith(ROW));
      // Tap the cut-off row where it shows, before any scroll (a person taps what they see).
      if (mode === 'no-scroll' && probe?.gold.kind === 'tap' && row)
        return { thought: 'tap the row', tool: 'tap', target_id: row.id, expect: 'page_changes' };
      return scriptedAnswer(p, probe);
    },
  });
});
afterAll(() => model?.close());

const spec = () => ({ config: resolveLlmConfig({ baseUrl: model.url, model: 'scripted' }, {}) });

describe('bench:droidtask fidelity on real recordings', () => {
  it("keeps a row's id from the screen the gold tapped it on to the next, though the list's edge cuts it off there", async () => {
    mode = 'gold';
    prompts = [];
    const loaded = await loadApp(FIXTURES, 'messenger');
    const records = await runApp(loaded, {
      model: spec(),
      probe: (p) => (probe = p),
      tasks: (t) => t.id === 'messenger/task10',
    });
    expect(records.map((r) => r.score.correct)).toEqual([true, true, true]);
    // Step 3's request: Recent steps names the row the gold tapped (in view, after a scroll) by the
    // id the screen lists it by (cut off again at the list's edge on the recording's next screen).
    const last = prompts.at(-1) as ParsedPrompt;
    const tapped = last.history.find((h) => h.recorded && h.action.includes(ROW));
    const listed = last.screen.elements.find((e) => e.text.startsWith(ROW));
    expect(listed).toBeDefined();
    expect(tapped?.action).toContain(`[${listed?.id}]`);
  }, 120_000);

  it("scores a tap on that row where it shows, cut off, before the scroll, as the gold's", async () => {
    mode = 'no-scroll';
    const loaded = await loadApp(FIXTURES, 'messenger');
    const records = await runApp(loaded, {
      model: spec(),
      probe: (p) => (probe = p),
      tasks: (t) => t.id === 'messenger/task10',
    });
    const step2 = records.find((r) => r.step === 2);
    expect(step2?.flags).toContain('target-after-scroll');
    expect(step2?.scrolls).toBe(0);
    expect(step2?.score.correct).toBe(true);
    expect(step2?.score.why).toBe('the gold view, on a scrolled screen');
  }, 120_000);

  it('finds the steps where the recording contradicts the gold, from the data alone', async () => {
    const found: Record<string, string> = {};
    for (const app of ['messenger', 'notes', 'filemanager', 'clock', 'applauncher']) {
      const loaded = await loadApp(FIXTURES, app);
      for (const t of loaded.tasks) {
        const c = contradictions(t, loaded.graph.states);
        if (c.size) found[t.id] = `${Math.min(...c.keys())}-${Math.max(...c.keys())} ${[...c.values()][0]}`;
      }
    }
    // "Morning" typed, "I-love-you" shown; 'team_discussion' typed, "MyDearAlice" shown; "events"
    // typed, "rename" shown; '12345678' instructed, "123456" typed; "play video2.mp4", video1.mp4
    // tapped; "Medium" tapped where it is selected already. Nothing in clock or the launcher.
    expect(found).toEqual({
      'filemanager/task13': '2-3 gold-target-not-instructed',
      'messenger/task2': '3-5 typed-shows-other',
      'messenger/task5': '6-7 typed-shows-other',
      'messenger/task9': '3-3 gold-taps-selected-radio',
      'notes/task5': '4-5 typed-shows-other',
      'notes/task11': '5-8 gold-text-not-instructed',
    });
  });

  it('counts the misses on contradicted steps apart in the report, without changing the figures', () => {
    const rec = (task: string, step: number, correct: boolean, flags: string[] = []) => ({
      task,
      app: 'notes',
      step,
      goldKind: 'tap' as const,
      flags,
      score: { correct, goldKind: 'tap' as const, kind: 'tap' as const, tool: 'tap', why: correct ? 'ok' : 'miss' },
      action: 'tap [a]',
      scrolls: 0,
      meta: 0,
      usage: { ...emptyUsage(), calls: 1 },
      requestTokens: 0,
    });
    const flag = `${CONTRADICTION_FLAG}:typed-shows-other`;
    const records = [rec('a', 1, true), rec('a', 2, false, [flag]), rec('b', 1, false), rec('b', 2, true, [flag])];
    const f = figures(records);
    expect(f.actionAccuracy).toBe(0.5);
    expect(f.contradicted).toEqual({ steps: 2, tasks: 2, misses: 1 });
    const md = renderMarkdown({ model: 'm', scripted: false, date: 'd', apps: ['notes'], vision: false }, records);
    expect(md).toContain('1 of the 2 misses, on 2 steps of 2 tasks; the other 1 are');
  });
});
