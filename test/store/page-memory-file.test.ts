import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import { Logger } from '../../src/core/logger.js';
import { PageMemory, type PageMemoryData } from '../../src/planner/memory/page-memory.js';
import {
  loadPageMemory,
  PAGE_MEMORY_VERSION,
  readPageMemory,
  savePageMemory,
} from '../../src/store/page-memory-file.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-memfile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fresh = () => path.join(dir, `case-${n++}`, 'memory.json');

const data: PageMemoryData = {
  entries: {
    'goal␟sub␟abc': {
      decision: { thought: 't', action: { tool: 'tap', target_id: 'e3' }, expect: { kind: 'page_changes' } },
      subgoalDone: true,
      hits: 2,
      verified: 3,
    },
  },
  plans: { goal: ['open settings', 'turn wifi off'] },
};

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: new Logger('store', { sink: (l) => lines.push(l), level: 'info' }), lines };
}

async function writeRaw(file: string, text: string): Promise<void> {
  await savePageMemory(file, { entries: {}, plans: {} }); // creates the folder
  await writeFile(file, text);
}

describe('page memory file', () => {
  it('a missing file is empty memory, silently', async () => {
    const { logger, lines } = capture();
    expect(await loadPageMemory(fresh(), logger)).toEqual({ entries: {}, plans: {} });
    expect(lines).toEqual([]);
  });

  it('saves with a version and reads back what it saved', async () => {
    const file = fresh();
    await savePageMemory(file, data);
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(PAGE_MEMORY_VERSION);
    expect(await readPageMemory(file)).toEqual({ status: 'loaded', data });
  });

  it('migrates a valid unversioned file from the previous release, and the next save versions it', async () => {
    const file = fresh();
    await writeRaw(file, JSON.stringify(data));
    const { logger, lines } = capture();
    const loaded = await loadPageMemory(file, logger);
    expect(loaded).toEqual(data);
    expect(lines.join('\n')).toContain('no version');
    await savePageMemory(file, loaded);
    expect((await readPageMemory(file)).status).toBe('loaded');
  });

  const bad: [string, string, RegExp][] = [
    ['another version', JSON.stringify({ ...data, version: 2 }), /version 2, this release reads version 1/],
    ['not JSON', '{"entries": {', /not JSON/],
    [
      'a decision the agent could not replay',
      JSON.stringify({
        version: 1,
        entries: { k: { ...data.entries['goal␟sub␟abc'], decision: { thought: 'x' } } },
        plans: {},
      }),
      /entries\.k\.decision/,
    ],
    ['an unversioned file of another shape', JSON.stringify({ pages: [] }), /unversioned and not page memory/],
  ];
  it.each(bad)('%s: warns naming the file, sets it aside intact, starts empty', async (_name, text, problem) => {
    const file = fresh();
    await writeRaw(file, text);
    const { logger, lines } = capture();
    expect(await loadPageMemory(file, logger)).toEqual({ entries: {}, plans: {} });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^WARN/);
    expect(lines[0]).toMatch(problem);
    expect(lines[0]).toContain(file);
    expect(lines[0]).toContain(`${file}.bak`);
    expect(await readFile(`${file}.bak`, 'utf8')).toBe(text);
    expect(await readdir(path.dirname(file))).toEqual(['memory.json.bak']);
  });

  it('never overwrites an earlier backup', async () => {
    const file = fresh();
    await writeRaw(file, 'first');
    await readPageMemory(file);
    await writeRaw(file, 'second');
    const r = await readPageMemory(file);
    expect(r).toMatchObject({ status: 'set_aside', movedTo: `${file}.bak.1` });
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('first');
    expect(await readFile(`${file}.bak.1`, 'utf8')).toBe('second');
  });
});

describe('page memory written by real runs', () => {
  let model: ReferenceModel;
  let runsDir: string;
  beforeAll(async () => {
    model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
    runsDir = await mkdtemp(path.join(tmpdir(), 'pa-memfile-runs-'));
  });
  afterAll(async () => {
    await model.close();
    await rm(runsDir, { recursive: true, force: true });
  });

  it('passes its own schema after a save (what the agent remembers, it can load)', async () => {
    const memory = new PageMemory();
    for (const task of TASKS.slice(0, 4)) await runTask(task, { seed: 2, modelUrl: model.url, memory, runsDir });
    expect(memory.size()).toBeGreaterThan(3);
    const file = fresh();
    await savePageMemory(file, memory.toJSON());
    const r = await readPageMemory(file);
    expect(r.status).toBe('loaded');
    expect(new PageMemory(r.data).size()).toBe(memory.size());
  });
});
