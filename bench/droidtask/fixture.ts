import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { rect } from '../../src/core/geometry.js';
import { type DroidbotState, parseDroidbotState } from '../../src/perception/droidbot/state.js';
import type { RecordedView, ReplayGraph, ReplayState, Transition } from '../../src/testbed/replay/graph.js';

/**
 * DroidTask (AutoDroid's benchmark) as ../shared/fixtures/droidtask keeps it (SOURCES.md there):
 * `<app>/tasks.json` (each task's gold steps and the state each was taken on) and `<app>/states/`.
 * Each app becomes a replay graph of its states whose only transitions are the recorded scroll
 * chains of a step (`scroll_states`: the same screen scrolled further, which AutoDroid merged into
 * one element list), so the agent can scroll there as it would on the phone.
 */

const Bounds = z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]);

export const GoldSchema = z.object({
  kind: z.enum(['tap', 'input', 'back', 'done']),
  view: z.number().int().nullable(),
  bounds: Bounds.nullable(),
  text: z.string().nullable(),
  /** The clickable (or checkable) container that handles the tap, when it is not `view`. */
  anchor: z.object({ view: z.number().int(), bounds: Bounds }).optional(),
  /** The target is only in this scrolled state. */
  in_state: z.string().optional(),
});
export type Gold = z.infer<typeof GoldSchema>;

export const StepSchema = z.object({
  state: z.string(),
  scroll_states: z.array(z.string()).optional(),
  gold: GoldSchema,
  element: z.string().optional(),
  flags: z.array(z.string()).optional(),
});
export type GoldStep = z.infer<typeof StepSchema>;

export const TaskSchema = z.object({ id: z.string(), instruction: z.string(), steps: z.array(StepSchema).min(1) });
export type GoldTask = z.infer<typeof TaskSchema>;

const FixtureSchema = z.object({
  format: z.literal('droidtask-fixture/1'),
  app: z.string(),
  tasks: z.array(TaskSchema),
});

export interface DroidtaskApp {
  app: string;
  tasks: GoldTask[];
  graph: ReplayGraph;
}

export async function listApps(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  const apps: string[] = [];
  for (const e of entries)
    if (e.isDirectory() && (await readdir(path.join(root, e.name))).includes('tasks.json')) apps.push(e.name);
  return apps.sort();
}

/** The scrollable view a recorded scroll moved: the largest visible one. */
function scrollView(state: DroidbotState): RecordedView {
  const scrollable = state.views.filter((v) => v.scrollable && v.visible !== false);
  const area = (v: DroidbotState['views'][number]) =>
    (v.bounds[1][0] - v.bounds[0][0]) * (v.bounds[1][1] - v.bounds[0][1]);
  const best = scrollable.sort((a, b) => area(b) - area(a))[0] ?? state.views[0];
  const b = best?.bounds ?? [
    [0, 0],
    [state.width ?? 1080, state.height ?? 2280],
  ];
  return {
    tempId: best?.temp_id,
    viewStr: best?.view_str ?? undefined,
    bounds: rect(b[0][0], b[0][1], b[1][0], b[1][1]),
  };
}

/**
 * A step's recorded scroll path: each state of `scroll_states` scrolls down to the next and up to
 * the one before (one recording's path: the same screen was scrolled by other amounts in others).
 */
export function scrollChain(states: ReadonlyMap<string, ReplayState>, step: GoldStep): Transition[] {
  const chain = step.scroll_states ?? [];
  const out: Transition[] = [];
  const add = (from: string, to: string, direction: 'UP' | 'DOWN') => {
    const s = states.get(from);
    if (from === to || !s || !states.has(to) || out.some((t) => t.from === from && t.to === to)) return;
    const eventStr = `ScrollEvent(state=${from}, direction=${direction}) (DroidTask scroll_states)`;
    out.push({ from, to, kind: 'scroll', view: scrollView(s.state), direction, eventStr, eventId: out.length });
  };
  for (let i = 0; i + 1 < chain.length; i++) {
    add(chain[i] as string, chain[i + 1] as string, 'DOWN');
    add(chain[i + 1] as string, chain[i] as string, 'UP');
  }
  return out;
}

export async function loadApp(root: string, app: string): Promise<DroidtaskApp> {
  const dir = path.join(root, app);
  const parsed = FixtureSchema.safeParse(JSON.parse(await readFile(path.join(dir, 'tasks.json'), 'utf8')));
  if (!parsed.success)
    throw new Error(`${dir}/tasks.json: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  const states = new Map<string, ReplayState>();
  for (const f of (await readdir(path.join(dir, 'states'))).filter((x) => x.endsWith('.json'))) {
    const file = path.join(dir, 'states', f);
    const s = parseDroidbotState(await readFile(file, 'utf8'));
    if (!s.ok) throw new Error(`${file}: ${s.message}`);
    states.set(s.state.state_str, { id: s.state.state_str, state: s.state, file });
  }
  const transitions = parsed.data.tasks.flatMap((t) => t.steps.flatMap((step) => scrollChain(states, step)));
  const first = parsed.data.tasks[0]?.steps[0]?.state ?? (states.keys().next().value as string);
  const pkg = states.get(first)?.state.foreground_activity?.split('/')[0] ?? app;
  return {
    app,
    tasks: parsed.data.tasks,
    graph: {
      name: `droidtask-${app}`,
      appPackage: pkg,
      first,
      states,
      transitions,
      device: { model: 'DroidTask recording (AutoDroid)', sdk: 30 },
      notes: [],
    },
  };
}
