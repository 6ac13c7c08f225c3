import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ActionableError } from '../core/errors.js';
import type { CatalogEntry } from '../testbed/reference-model/intents.js';

/**
 * The reference model's task catalog: a JSON file of {id, instruction, intents}, or a task folder
 * whose index.ts exports `referenceCatalog()`. By default, `reference-catalog.json` next to the
 * compiled code (`npm run build` writes it into dist/), else the regression tasks of a source
 * checkout — so the built CLI's `--model reference` needs no sources.
 */

export const CATALOG_FILE = 'reference-catalog.json';

const CatalogSchema = z.array(z.object({ id: z.string(), instruction: z.string(), intents: z.array(z.string()) }));

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_CATALOG_DIRS = { built: path.resolve(here, '..'), repo: path.resolve(here, '../..') };

async function fromJson(file: string): Promise<CatalogEntry[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new ActionableError(
      'NO_CATALOG',
      `cannot read ${file} (${(e as Error).message})`,
      'pass a readable JSON file',
    );
  }
  const parsed = CatalogSchema.safeParse(data);
  if (!parsed.success)
    throw new ActionableError(
      'BAD_CATALOG',
      `${file} is not a list of {id, instruction, intents} (${parsed.error.issues[0]?.message})`,
      'fix the file, or rebuild with `npm run build`',
    );
  return parsed.data;
}

async function fromTaskFolder(dir: string): Promise<CatalogEntry[]> {
  const file = path.join(path.resolve(dir), 'index.ts');
  try {
    const mod = (await import(pathToFileURL(file).href)) as { referenceCatalog: () => CatalogEntry[] };
    return mod.referenceCatalog();
  } catch (e) {
    throw new ActionableError(
      'NO_CATALOG',
      `cannot load the task catalog ${file} (${(e as Error).message})`,
      'run `npm run build` (it writes dist/reference-catalog.json), run from a source checkout through tsx (npm run phone-agent), or configure a real model (OPENAI_BASE_URL, PHONE_AGENT_MODEL)',
    );
  }
}

/** `spec`: a .json file or a task folder; none = the built catalog, else the source checkout's. */
export async function loadCatalog(spec?: string, dirs = DEFAULT_CATALOG_DIRS): Promise<CatalogEntry[]> {
  if (spec !== undefined) return spec.endsWith('.json') ? fromJson(spec) : fromTaskFolder(spec);
  const built = path.join(dirs.built, CATALOG_FILE);
  const exists = await readFile(built).then(
    () => true,
    () => false,
  );
  return exists ? fromJson(built) : fromTaskFolder(path.join(dirs.repo, 'regression-tasks'));
}
