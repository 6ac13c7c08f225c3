import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeSchema } from '../../src/store/app-map.js';
import { type Dirs, type Phone, sc, startPhone, stdioClient, tempDirs } from './harness.js';

/**
 * `explore_app` over stdio (issue 25): `phone-agent mcp --model reference` explores an app on the
 * virtual phone under the device lock the task tools take, with a progress notification per page
 * found, and writes the app map under its runs folder.
 */

let phone: Phone;
let dirs: Dirs;
let client: Client | undefined;

beforeEach(async () => {
  phone = await startPhone();
  dirs = await tempDirs();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await phone.close();
  await dirs.close();
});

describe('phone-agent mcp: explore_app', () => {
  it('explores Notes, reports each page found, and writes the map under the runs folder', async () => {
    ({ client } = await stdioClient(phone, dirs));
    const progress: string[] = [];
    const notes = phone.phone.world.notes.length;
    const r = await client.callTool(
      { name: 'explore_app', arguments: { app: 'Notes', budget_actions: 30 } },
      undefined,
      {
        onprogress: (p) => void progress.push(String(p.message)),
        resetTimeoutOnProgress: true,
        timeout: 170_000,
      },
    );
    const out = sc(r);
    expect(out).toMatchObject({
      app: { package: 'com.android.notes' },
      guarded_actions_taken: 0,
      refused_by_executor: 0,
    });
    expect(out.activities).toEqual(expect.arrayContaining(['.NotesActivity', '.NoteActivity']));
    expect(Number(out.actions)).toBeLessThanOrEqual(30);
    expect(progress[0]).toMatch(/^page 1: \.NotesActivity/);
    expect(String(out.map_folder).startsWith(path.join(dirs.runs, 'maps'))).toBe(true);
    expect((await stat(path.join(String(out.map_folder), 'utg.js'))).isFile()).toBe(true);
    expect(phone.phone.world.notes.length).toBe(notes);
    // The store entry mobile_run_task reads when Notes is in front, keyed by package.
    expect(out.knowledge_store_entry).toBe(path.join(dirs.root, 'knowledge', 'com.android.notes.json'));
    const entry = KnowledgeSchema.parse(JSON.parse(await readFile(String(out.knowledge_store_entry), 'utf8')));
    expect(entry).toEqual(KnowledgeSchema.parse(JSON.parse(await readFile(String(out.knowledge_file), 'utf8'))));
  }, 180_000);
});
