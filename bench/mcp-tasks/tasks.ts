import { TASKS } from '../../regression-tasks/index.js';
import type { TaskDef } from '../../regression-tasks/types.js';

/**
 * The six catalog tasks the MCP direct tools are measured on over plain ADB (issue 21: "the six MCP
 * tasks over ADB again through the direct tools in ≤ 40 calls"), each for what it makes a client do.
 */

export const DEFAULT_TASKS: readonly { id: string; why: string }[] = [
  {
    id: 'SET-06',
    why: 'settings in Chinese, and a slider to its minimum: the task that cost 19 calls (a uiautomator dump has no progress value)',
  },
  { id: 'SET-03', why: 'a slider to a value inside its track ("about N%"): a drag read back off the screenshot' },
  {
    id: 'CT-01',
    why: "typing into two fields of a form, after the app's runtime permission dialog (the client grants it: no interrupt rule helps a direct-tool client)",
  },
  {
    id: 'SHOP-03',
    why: 'a 125-item list with no search box: scroll or narrow by category, then type a quantity',
  },
  {
    id: 'LAU-01',
    why: 'launching an app by its name (page 2 of the app drawer) where adb reads no app labels',
  },
  {
    id: 'MSG-01',
    why: "a guarded send: the server asks the user through MCP's consent (elicitation; the harness answers as the user, approve)",
  },
];

/** The tasks `--tasks` names (default the six), or an error naming the unknown ones. */
export function pickTasks(ids: readonly string[] | undefined): { tasks: TaskDef[] } | { error: string } {
  const wanted = ids?.length ? ids : DEFAULT_TASKS.map((t) => t.id);
  const unknown = wanted.filter((id) => !TASKS.some((t) => t.id === id));
  if (unknown.length)
    return { error: `unknown task(s) ${unknown.join(', ')}; known: ${TASKS.map((t) => t.id).join(', ')}` };
  return { tasks: wanted.map((id) => TASKS.find((t) => t.id === id) as TaskDef) };
}

export const whyOf = (id: string): string | undefined => DEFAULT_TASKS.find((t) => t.id === id)?.why;
