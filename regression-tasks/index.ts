import type { CatalogEntry } from '../src/planner/reference/intents.js';
import { SET_01 } from './tasks/set-01.js';
import type { TaskDef } from './types.js';

/** The task catalog (one definition per file under tasks/). */
export const TASKS: readonly TaskDef[] = [SET_01];

/** What the reference model is "trained" on: instruction templates → intent templates. */
export function referenceCatalog(tasks: readonly TaskDef[] = TASKS): CatalogEntry[] {
  return tasks.map((t) => ({ id: t.id, instruction: t.instruction, intents: t.intents }));
}
