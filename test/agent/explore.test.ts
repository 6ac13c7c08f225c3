import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedKeys, digestWorld } from '../../regression-tasks/world-diff.js';
import { explore } from '../../src/agent/explore.js';
import { knowledgeOf } from '../../src/agent/knowledge-of.js';
import type { Perceived } from '../../src/agent/ports.js';
import { rectCenter } from '../../src/core/geometry.js';
import type { Decision } from '../../src/core/types.js';
import { loadKnowledge } from '../../src/store/app-map.js';
import { writeAppMap } from '../../src/store/app-map-write.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { shortestPath } from '../../src/testbed/replay/graph.js';
import { loadDroidbotGraph } from '../../src/testbed/replay/load-graph.js';
import { ReplayPhone } from '../../src/testbed/replay/phone.js';
import { startRig } from './support/agent-rig.js';

/**
 * Explore (issue 25) end to end: the product's factory over the virtual phone's bridge and the
 * reference model over HTTP. The executor itself refuses held and world-changing actions under
 * Explore's policy (a driver that asks for them gets a refusal, and nobody is asked); a walk of
 * Notes finds its screens, writes a DroidBot UTG that the replay phone loads and walks, and a
 * knowledge file with the model's descriptions.
 */

let model: ReferenceModel;
let dir: string;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: [], noise: 0, seed: 1, tokenizer: 'estimate' });
  dir = await mkdtemp(path.join(tmpdir(), 'pa-explore-'));
});
afterAll(async () => {
  await model.close();
  await rm(dir, { recursive: true, force: true });
});

const tapOn = (seen: Perceived, label: string): Decision => {
  const e = seen.obs.elements.find((x) => x.actionable && (x.label === label || x.text === label || x.desc === label));
  if (!e) throw new Error(`no "${label}" on ${seen.obs.app.activity}`);
  return { thought: 'test', action: { tool: 'tap', target_id: e.id }, expect: { kind: 'page_changes' } };
};

describe('the executor under Explore’s policy', () => {
  it('refuses a held tap (Delete) without asking anyone, and a commit (Save), and sends neither', async () => {
    const rig = await startRig({ modelUrl: model.url });
    const asked: string[] = [];
    try {
      const agent = await rig.agent({
        confirm: (c) => {
          asked.push(c.summary);
          return 'denied';
        },
      });
      const { ports } = agent.deps;
      const base = { confirm: agent.deps.confirm, events: async () => {}, dryRun: false, fresh: true } as const;
      let seen = await ports.observe();
      const go = async (d: Decision, policy?: 'explore') => {
        const r = await ports.execute({ ...base, decision: d, obs: seen.obs, policy });
        seen = r.post ?? (await ports.observe(seen.obs));
        return r;
      };
      await go({ thought: 't', action: { tool: 'launch_app', package: 'Notes' }, expect: { kind: 'page_changes' } });
      const notes = rig.phone.world.notes.length;
      // A sideways swipe on a row may dismiss or delete it: Explore swipes only up or down a list.
      const list = seen.obs.elements.find((e) => e.flags.scrollable);
      const sideways = await go(
        {
          thought: 't',
          action: { tool: 'swipe', target_id: list?.id, direction: 'left' },
          expect: { kind: 'page_changes' },
        },
        'explore',
      );
      expect(sideways.error).toMatch(/Explore swipes only up or down a scrollable list/);
      await go(tapOn(seen, seen.obs.elements.find((e) => /Packing list/.test(e.label ?? ''))?.label ?? ''));
      expect(seen.obs.app.activity).toBe('.NoteActivity');
      const held = await go(tapOn(seen, 'Delete'), 'explore');
      expect(held.ok).toBe(false);
      expect(held.receipt.delivery).toBe('not_delivered');
      expect(held.error).toMatch(/Explore refuses tap "Delete".*the guard holds it \(delete\)/);
      expect(asked).toEqual([]);
      expect(rig.phone.world.notes.length).toBe(notes);
      // The same tap under a task's policy asks the person (who declines here): the policy made the difference.
      const asTask = await go(tapOn(seen, 'Delete'));
      expect(asTask.receipt.status).toBe('cancelled');
      expect(asked).toEqual(['tap "Delete" in com.android.notes']);
      await go(tapOn(seen, 'Edit'));
      expect(seen.obs.app.activity).toBe('.EditNoteActivity');
      const save = await go(tapOn(seen, 'Save'), 'explore');
      expect(save.error).toMatch(/"Save" commits a change/);
      expect(seen.obs.app.activity).toBe('.EditNoteActivity');
      const typed = await go(
        {
          thought: 't',
          action: { tool: 'type', target_id: seen.obs.elements.find((e) => e.flags.editable)?.id, text: 'x' },
          expect: { kind: 'page_changes' },
        },
        'explore',
      );
      expect(typed.error).toMatch(/types only into a search field/);
      await agent.close();
    } finally {
      await rig.close();
    }
  });
});

describe('explore → app map → replay', () => {
  it('walks Notes breadth first, writes a UTG the replay phone loads and walks, and knowledge', async () => {
    const rig = await startRig({ modelUrl: model.url });
    try {
      const agent = await rig.agent({ confirm: () => 'approved' });
      // Launch once first: the world records that an app was ever launched, which Explore cannot help.
      await rig.phone.launch('Notes');
      await rig.phone.key('home');
      const before = digestWorld(rig.phone.world);
      const r = await explore(agent.deps, { app: 'Notes', budget: { actions: 30 } });
      await agent.close();
      expect(r.refused).toEqual([]);
      expect(r.guardedTaken).toBe(0);
      expect(changedKeys(before, digestWorld(rig.phone.world))).toEqual([]);
      expect(r.actions).toBeLessThanOrEqual(30);
      const activities = new Set(r.map.pages.map((p) => p.activity));
      expect([...activities].sort()).toEqual(['.EditNoteActivity', '.NoteActivity', '.NotesActivity']);
      expect(r.modelCalls).toBe(r.map.pages.length);
      expect(r.skipped.map((s) => s.why)).not.toContain(undefined);

      const out = path.join(dir, 'notes');
      const files = await writeAppMap(out, r.map, knowledgeOf(r.map));
      const graph = await loadDroidbotGraph(out);
      expect(graph.states.size).toBe(r.map.pages.length);
      expect(graph.appPackage).toBe('com.android.notes');
      expect(graph.notes).toEqual([]);
      expect(graph.states.get(graph.first)?.state.foreground_activity).toBe('com.android.notes/.NotesActivity');
      expect(graph.states.get(graph.first)?.imageFile).toMatch(/screen_page_001\.png$/);

      // The replay world walks it: every page is reached from the first by the recorded taps.
      for (const target of graph.states.keys()) {
        const phone = await ReplayPhone.open({ graph });
        const way = shortestPath(graph, graph.first, (s) => s === target);
        expect(way, `a recorded way to ${target}`).toBeDefined();
        for (const t of way ?? []) {
          if (t.kind === 'touch') {
            const c = rectCenter(t.view.bounds);
            await phone.tap(c.x, c.y);
          } else if (t.kind === 'scroll') {
            // DroidBot's DOWN shows what is below: the finger moves up.
            const c = rectCenter(t.view.bounds);
            const h = (t.view.bounds.bottom - t.view.bounds.top) / 4;
            await phone.swipe(c.x, c.y + h, c.x, c.y - h, 400);
          } else if (t.kind === 'key') await phone.key('back');
          expect(phone.state).toBe(t.to);
        }
      }

      // The knowledge keeps what the screen does not show: where a row leads and what that page
      // holds. The reference describer's words only repeat the labels, so none is kept.
      const k = await loadKnowledge(files.knowledge);
      const list = k.pages.find((p) => p.activity === '.NotesActivity');
      expect(r.map.pages.find((p) => p.id === list?.id)?.description).toMatch(/^The Notes screen/);
      expect(list?.description).toBeUndefined();
      const packing = list?.elements.find((e) => e.label === 'Packing list');
      expect(packing?.description).toBeUndefined();
      const note = k.pages.find((p) => p.id === packing?.opens);
      expect(note?.activity).toBe('.NoteActivity');
      expect(note?.holds).toEqual(expect.arrayContaining(['Edit', 'Share']));
    } finally {
      await rig.close();
    }
  }, 120_000);
});
