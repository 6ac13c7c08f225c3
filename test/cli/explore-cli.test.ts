import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KnowledgeSchema } from '../../src/store/app-map.js';
import { loadDroidbotGraph } from '../../src/testbed/replay/load-graph.js';
import { cli } from './support.js';

/**
 * `phone-agent explore` as a person runs it (issue 25): the bin as a process on the built-in virtual
 * phone with the reference model; bad input exits 2 naming the flag and an example; a walk writes a
 * DroidBot folder the replay loader reads and a knowledge file that validates.
 */

vi.setConfig({ testTimeout: 180_000 });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-explore-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  cli(args, { cwd: dir, env: { PHONE_AGENT_LOCK_DIR: path.join(dir, 'locks') }, timeoutMs: 170_000 });

describe('phone-agent explore', () => {
  it.each([
    [['explore', '--out', 'm'], /explore needs --app — e\.g\. .*explore --app Notes --out maps\/notes/],
    [['explore', '--app', 'Notes'], /explore needs --out DIR/],
    [
      ['explore', '--app', 'Notes', '--out', 'm', '--budget-actions', 'x'],
      /--budget-actions "x" is not a whole number/,
    ],
  ])('%j exits 2 and says what to pass', async (args, message) => {
    const r = await run(...args, '--model', 'reference');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('walks Settings within the budget and writes the app map', async () => {
    const out = path.join(dir, 'settings-map');
    const r = await run('explore', '--app', 'Settings', '--out', out, '--model', 'reference', '--budget-actions', '25');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^explored Settings \(com\.android\.settings\): \d+ pages, \d+ activities, .* in 25 actions \(budget\)/m,
    );
    expect(r.stdout).toContain('guarded actions taken: 0; refused by the executor: 0');
    expect(r.stderr).toMatch(/page 1: \.Settings/);
    const graph = await loadDroidbotGraph(out);
    expect(graph.appPackage).toBe('com.android.settings');
    expect(graph.states.size).toBeGreaterThan(2);
    expect(graph.transitions.length).toBeGreaterThan(2);
    expect((await stat(path.join(out, 'states', 'screen_page_001.png'))).size).toBeGreaterThan(1000);
    const k = KnowledgeSchema.parse(JSON.parse(await readFile(path.join(out, 'knowledge.json'), 'utf8')));
    expect(k.pages.length).toBe(graph.states.size);
    expect(k.pages[0]?.elements.length).toBeGreaterThan(0);
    // …and the store entry `run` reads when Settings is in front (the state folder of the cwd).
    const entry = path.join(dir, '.phone-agent', 'knowledge', 'com.android.settings.json');
    expect(r.stderr).toContain(`knowledge store: ${entry}`);
    expect(KnowledgeSchema.parse(JSON.parse(await readFile(entry, 'utf8')))).toEqual(k);
  });
});
