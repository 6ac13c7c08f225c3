import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { explore } from '../../src/agent/explore.js';
import { knowledgeOf } from '../../src/agent/knowledge-of.js';
import { runAgent } from '../../src/agent/loop.js';
import { callbackConfirmation, composeAgent } from '../../src/compose/agent.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { writeAppMap } from '../../src/store/app-map-write.js';
import { loadKnowledgeStore, storeEntryFile, writeStoreEntry } from '../../src/store/knowledge-store.js';
import { type ParsedPrompt, readRequest } from '../../src/testbed/reference-model/read-request.js';
import type { ChatRequest } from '../../src/testbed/reference-model/request.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

/**
 * Pro loads what Explore learned (issue 25): `knowledge` files given to the factory put, in each
 * step's prompt, only the lines of the page on screen — nothing on the home screen, the list's lines
 * on the list, the note's on the note. A bad file fails before anything starts, naming it. The
 * knowledge store (below) is the same lines, picked by the app in front.
 */

let model: ReferenceModel;
let dir: string;
let seen: ChatRequest[] = [];
beforeAll(async () => {
  model = await startReferenceModel({
    catalog: referenceCatalog(),
    noise: 0,
    seed: 1,
    tokenizer: 'estimate',
    onRequest: (b) => seen.push(b),
  });
  dir = await mkdtemp(path.join(tmpdir(), 'pa-knowledge-'));
});
afterAll(async () => {
  await model.close();
  await rm(dir, { recursive: true, force: true });
});

const logger = new Logger('agent', { sink: () => {} });
const compose = (phone: VirtualPhone, clock: VirtualClock, knowledge?: string[], knowledgeStore?: string) =>
  composeAgent({
    device: { kind: 'sim', phone },
    model: { baseUrl: model.url, model: 'reference' },
    confirm: callbackConfirmation('test', () => 'approved'),
    memory: new PageMemory(),
    clock,
    logger,
    screenshots: false,
    knowledge,
    knowledgeStore,
  });

/** The act requests the model saw since `seen` was emptied, with the prompt as the model reads it. */
const decideRequests = () =>
  seen
    .filter((b) => b.tools?.some((t) => t.function?.name === 'act'))
    .map((b) => readRequest(b))
    .map((x) => ({ user: x.user, prompt: x.prompt as ParsedPrompt }));
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const section = (user: string) => /App map \(what exploring this app learned\):\n((?:- .*\n?)+)/.exec(user)?.[1] ?? '';

describe('knowledge in the prompt', () => {
  it('a run on Notes sees only the current page’s lines of the map Explore wrote', async () => {
    const clock = new VirtualClock();
    const phone = new VirtualPhone({ seed: 1, clock });
    const explorer = await compose(phone, clock);
    const r = await explore(explorer.deps, { app: 'Notes', budget: { actions: 40 } });
    await explorer.close();
    const files = await writeAppMap(path.join(dir, 'notes'), r.map, knowledgeOf(r.map));
    await phone.key('home');

    seen = [];
    const agent = await compose(phone, clock, [files.knowledge]);
    await runAgent(agent.deps, {
      goal: 'Send the text of note "Gate code" to 15551234567 by SMS.',
      maxSteps: 12,
      runsDir: path.join(dir, 'runs'),
    });
    await agent.close();
    const decides = decideRequests();
    const on = (activity: string) => decides.filter((d) => d.prompt.app.endsWith(`/${activity}`));
    const home = decides.filter((d) => !d.prompt.app.startsWith('com.android.notes'));
    expect(home.length).toBeGreaterThan(0);
    for (const d of home) expect(section(d.user)).toBe('');
    // The list's lines: which page they are of, then where its rows lead — the row by its title
    // (the note's body is its value), the reference describer's label-only words dropped.
    const list = section(on('.NotesActivity')[0]?.user ?? '');
    expect(list).toMatch(/^- Notes › Notes\n/);
    expect(list).toContain('- "Gate code" opens a page with Share, Edit, Delete\n');
    expect(list).not.toMatch(/opens or does|The Notes screen|Gate code 7351/);
    // The note's page: its own lines (none when the walk recorded nothing that leads on from it), not the list's.
    const notes = on('.NoteActivity').map((d) => section(d.user));
    expect(notes.length).toBeGreaterThan(0);
    for (const note of notes) {
      expect(note).not.toContain('"Gate code" opens');
      expect(note === '' || note.startsWith('- Notes › Gate code\n')).toBe(true);
    }
  }, 120_000);

  it('a knowledge file that is not one fails before the phone is touched, naming the file', async () => {
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, '{"version": 2}');
    const clock = new VirtualClock();
    const phone = new VirtualPhone({ seed: 1, clock });
    await expect(compose(phone, clock, [bad])).rejects.toThrow(
      new RegExp(`${escaped(bad)} is not an app knowledge file: version: .* — pass the knowledge.json`),
    );
  });
});

/**
 * The knowledge store (issue 25): Explore's entries keyed by package; a run given the store takes,
 * each step, the lines of the app in front — Notes' on Notes, Messages' once the share moved the
 * task to Messages. A malformed entry fails before anything starts, naming its file.
 */
describe('the knowledge store', () => {
  it('a run reads the front app’s entry and switches when the task moves to another app', async () => {
    const store = path.join(dir, 'store');
    const clock = new VirtualClock();
    const phone = new VirtualPhone({ seed: 1, clock });
    for (const app of ['Notes', 'Messages']) {
      const explorer = await compose(phone, clock);
      const r = await explore(explorer.deps, { app, budget: { actions: 30 } });
      await explorer.close();
      await writeStoreEntry(store, knowledgeOf(r.map));
      await phone.key('home');
    }
    const loaded = await loadKnowledgeStore(store);
    expect(loaded.files).toEqual([
      storeEntryFile(store, 'com.android.messaging'),
      storeEntryFile(store, 'com.android.notes'),
    ]);

    seen = [];
    const agent = await compose(phone, clock, undefined, store);
    const run = await runAgent(agent.deps, {
      goal: 'Send the text of note "Gate code" to 15551234567 by SMS.',
      maxSteps: 14,
      runsDir: path.join(dir, 'runs'),
    });
    await agent.close();
    expect(run.status).toBe('done');
    const decides = decideRequests();
    const inApp = (pkg: string) => decides.filter((d) => d.prompt.app.startsWith(`${pkg}/`));
    const notes = inApp('com.android.notes').map((d) => section(d.user));
    const messages = inApp('com.android.messaging').map((d) => section(d.user));
    expect(notes.length).toBeGreaterThan(0);
    expect(messages.length).toBeGreaterThan(0);
    expect(notes[0]).toMatch(/^- Notes › /);
    for (const s of notes) expect(s).not.toContain('- Messages › ');
    // Messages' pages this run met lead nowhere the walk recorded: no line, and none of Notes'.
    for (const s of messages) expect(s).not.toContain('- Notes › ');
  }, 150_000);

  it('a missing store is empty; a malformed entry fails before the phone is touched, naming the file', async () => {
    expect(await loadKnowledgeStore(path.join(dir, 'none'))).toEqual({ files: [], knowledge: [] });
    const store = path.join(dir, 'bad-store');
    const bad = storeEntryFile(store, 'com.example.bad');
    await writeStoreEntry(store, { version: 1, app: { package: 'com.example.ok', label: 'Ok' }, pages: [] });
    await writeFile(bad, '{"version": 1, "app": {"package": "com.example.bad"}}');
    const clock = new VirtualClock();
    const phone = new VirtualPhone({ seed: 1, clock });
    await expect(compose(phone, clock, undefined, store)).rejects.toThrow(
      new RegExp(`${escaped(bad)} is not an app knowledge file: app\\.label`),
    );
  });
});
