import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import { instantiate } from '../../regression-tasks/types.js';
import { runAgent } from '../../src/agent/loop.js';
import type { AgentPorts } from '../../src/agent/ports.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { DOWNLOADS, seedDownloads } from '../../src/testbed/sim/apps/files-data.js';
import { rigPerTest } from './support/agent-rig.js';

/**
 * One act, one consent (CHANGES, issue 21): the approval of "Delete" covers the app's own
 * confirmation dialog that tap opens — on that page, in that app, for that kind of act, until the
 * run's next own action — and a resume keeps it so (the approval is checkpointed).
 */

const TWO_FILES = 'Delete b.txt from Downloads, after starting on a.txt and cancelling.';
const CATALOG = [
  ...referenceCatalog(TASKS.filter((t) => t.id === 'FILE-01')),
  {
    id: 'TEST-CANCEL-THEN-DELETE',
    instruction: TWO_FILES,
    intents: [
      'launch "Files"',
      'tap "Downloads"',
      'type "Search" "a.txt"',
      // The row's menu opens over the list: "⋮" stays under it (the page changes, nothing goes).
      'tap "⋮" keep',
      'tap "Delete"',
      'tap "Cancel"',
      'type "Search" "b.txt"',
      'tap "⋮" keep',
      'tap "Delete"',
      'tap "Delete"',
      'done',
    ],
  },
];
const FILE_01 = TASKS.find((t) => t.id === 'FILE-01');
if (!FILE_01) throw new Error('no task FILE-01');
const { goal: DELETE_ONE, params } = instantiate(FILE_01, 1);

const ctx = rigPerTest(CATALOG, 'pa-consent-');

type HistoryEntry = { step: number; action: string; note?: string };
const historyOf = async (dir: string): Promise<HistoryEntry[]> =>
  JSON.parse(await readFile(path.join(dir, 'checkpoint.json'), 'utf8')).history;
const deletions = () => ctx.rig().phone.world.events.filter((e) => e.kind === 'deleted').length;

describe('consent covers the confirmation dialog its action opens', () => {
  it('FILE-01: the user is asked once; the dialog’s Delete is covered and the history says so', async () => {
    const rig = ctx.rig();
    seedDownloads(rig.phone.world);
    const a = await rig.agent({ confirm: () => 'approved' });
    const r = await runAgent(a.deps, { goal: DELETE_ONE, maxSteps: 21, runsDir: ctx.runsDir() });
    await a.close();
    expect(r.status).toBe('done');
    expect(rig.phone.world.files.has(`${DOWNLOADS}/${params.file}`)).toBe(false);
    expect(deletions()).toBe(1);
    expect(a.confirmations.map((c) => c.summary)).toEqual(['tap "Delete" in com.android.documentsui']);
    expect(r.confirmations).toBe(1);
    const notes = (await historyOf(r.runDir)).map((h) => h.note).filter(Boolean);
    expect(notes).toEqual([
      'the user approved tap "Delete" (held as delete)',
      expect.stringMatching(/^covered by the user's approval of tap "Delete" at step \d+: not asked again$/),
    ]);
  });

  it('a dialog opened after the run’s next own action is not covered: asked again', async () => {
    const rig = ctx.rig();
    for (const name of ['a.txt', 'b.txt']) rig.phone.world.files.set(`${DOWNLOADS}/${name}`, Buffer.from(name));
    const a = await rig.agent({ confirm: () => 'approved' });
    const r = await runAgent(a.deps, { goal: TWO_FILES, maxSteps: 25, runsDir: ctx.runsDir() });
    await a.close();
    expect(r.status).toBe('done');
    // The menu's Delete of a.txt (then Cancel), the menu's Delete of b.txt; its dialog was covered.
    expect(a.confirmations.map((c) => c.summary)).toEqual([
      'tap "Delete" in com.android.documentsui',
      'tap "Delete" in com.android.documentsui',
    ]);
    expect(rig.phone.world.files.has(`${DOWNLOADS}/a.txt`)).toBe(true);
    expect(rig.phone.world.files.has(`${DOWNLOADS}/b.txt`)).toBe(false);
    expect(deletions()).toBe(1);
  });

  it('resume: killed right after the approved Delete, the dialog it opened is still covered', async () => {
    const rig = ctx.rig();
    seedDownloads(rig.phone.world);
    const killAfterApproval = (ports: AgentPorts): AgentPorts => ({
      ...ports,
      execute: async (req) => {
        const out = await ports.execute(req);
        if (out.consent?.kind === 'approved') throw new Error('process killed after dispatch');
        return out;
      },
    });
    const first = await rig.agent({ confirm: () => 'approved', wrap: killAfterApproval });
    await expect(
      runAgent(first.deps, { goal: DELETE_ONE, maxSteps: 21, runsDir: ctx.runsDir(), runId: 'killed' }),
    ).rejects.toThrow(/killed after dispatch/);
    await first.close();
    expect(first.confirmations).toHaveLength(1);
    expect(deletions()).toBe(0);
    const second = await rig.agent({ confirm: () => 'approved' });
    const r = await resumeAgent(second.deps, { runDir: path.join(ctx.runsDir(), 'killed') });
    await second.close();
    expect(r.status).toBe('done');
    expect(deletions()).toBe(1);
    expect(second.confirmations).toHaveLength(0);
    const last = (await historyOf(r.runDir)).find((h) => /covered/.test(h.note ?? ''));
    expect(last?.action).toMatch(/^tap \[[0-9a-f]+\] "Delete"$/);
  });
});
