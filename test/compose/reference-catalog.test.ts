import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { CATALOG_FILE, loadCatalog } from '../../src/compose/reference-catalog.js';
import { ActionableError } from '../../src/core/errors.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-catalog-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the reference model catalog', () => {
  it('the build step writes it as JSON, and a built CLI loads it with no sources around', async () => {
    const out = path.join(dir, CATALOG_FILE);
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'regression-tasks/write-catalog.ts', out], {
      cwd: repo,
    });
    const written = JSON.parse(await readFile(out, 'utf8'));
    expect(written).toEqual(referenceCatalog());
    const loaded = await loadCatalog(undefined, { built: dir, repo: path.join(dir, 'no-sources-here') });
    expect(loaded).toEqual(referenceCatalog());
  });

  it('falls back to the source checkout, and says what to do when neither is there', async () => {
    const fromSource = await loadCatalog(undefined, { built: path.join(dir, 'empty'), repo });
    expect(fromSource.map((e) => e.id)).toEqual(referenceCatalog().map((e) => e.id));
    const err = await loadCatalog(undefined, { built: path.join(dir, 'empty'), repo: path.join(dir, 'none') }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ActionableError);
    expect(String(err)).toMatch(/npm run build/);
  });

  it('a malformed catalog file is a clear error naming the file', async () => {
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify([{ id: 'X', instruction: 'Do it' }]));
    await expect(loadCatalog(bad)).rejects.toThrow(/bad\.json is not a list of \{id, instruction, intents\}/);
    await writeFile(bad, '{ nope');
    await expect(loadCatalog(bad)).rejects.toThrow(/cannot read .*bad\.json/);
  });
});
