import type { Rect } from '../../core/geometry.js';
import type { DroidbotState } from '../../perception/droidbot/state.js';

/**
 * A recorded UI-transition graph: the states a DroidBot run saw (each with its view tree and
 * screenshot) and the events that moved it from one to another. The replay phone serves it; the
 * loaders build it from DroidBot's output folders (./load-graph.ts) or from other recordings (the
 * DroidTask benchmark's steps).
 */

export type ScrollDirection = 'UP' | 'DOWN' | 'LEFT' | 'RIGHT';

/** The view an event acted on, as recorded in its start state. */
export interface RecordedView {
  /** temp_id in the start state, when the view was found there. */
  tempId?: number;
  /** DroidBot's view hash. */
  viewStr?: string;
  /** Device pixels, in the start state. */
  bounds: Rect;
  /**
   * Where a touch triggers the same thing: the bounds of the nearest clickable (long-clickable, for a
   * long press) view holding it, as Android dispatches it — DroidBot taps a row's label, a user the row.
   */
  area?: Rect;
  className?: string;
  resourceId?: string;
  text?: string;
}

export type Transition = {
  from: string;
  to: string;
  /** DroidBot's event string (the UTG edge's), for reports. */
  eventStr: string;
  /** The step of the run (UTG `event_id`), for a stable order. */
  eventId: number;
} & (
  | { kind: 'touch' | 'long_touch'; view: RecordedView }
  /** `text` undefined: the recording did not keep what was typed. */
  | { kind: 'set_text'; view: RecordedView; text?: string }
  /** DroidBot's direction: the way the content goes (DOWN shows what is below: the finger moves up). */
  | { kind: 'scroll'; view: RecordedView; direction: ScrollDirection }
  | { kind: 'key'; key: string }
  | { kind: 'intent'; op: 'start' | 'stop'; package: string; activity?: string }
);

export interface ReplayState {
  /** DroidBot's state_str. */
  id: string;
  /** The parsed state file (views, foreground, size). */
  state: DroidbotState;
  file?: string;
  /** The screenshot, when the recording has one. */
  imageFile?: string;
}

export interface ReplayGraph {
  /** For messages and reports (the folder's name). */
  name: string;
  /** The app the run explored. */
  appPackage: string;
  /** The state a fresh replay starts in (DroidBot's `<FIRST>`). */
  first: string;
  states: ReadonlyMap<string, ReplayState>;
  transitions: readonly Transition[];
  device: { model: string; sdk: number };
  /** App names for the launcher list, by package (default: the package's last word). */
  labels?: Readonly<Record<string, string>>;
  /** What the loader skipped or could not resolve (an event whose state was never saved, …). */
  notes: string[];
}

export function transitionsFrom(graph: ReplayGraph, state: string): Transition[] {
  return graph.transitions.filter((t) => t.from === state);
}

/**
 * The fewest events from `from` to a state satisfying `goal` (breadth-first over the recorded
 * transitions, self-loops skipped): the optimal step count of a task on the graph, and its path.
 */
export function shortestPath(
  graph: ReplayGraph,
  from: string,
  goal: (state: string) => boolean,
): Transition[] | undefined {
  if (goal(from)) return [];
  const prev = new Map<string, Transition>();
  const seen = new Set([from]);
  let frontier = [from];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const s of frontier) {
      for (const t of [...transitionsFrom(graph, s)].sort((a, b) => a.eventId - b.eventId)) {
        if (t.to === t.from || seen.has(t.to) || !graph.states.has(t.to)) continue;
        seen.add(t.to);
        prev.set(t.to, t);
        if (goal(t.to)) {
          const path: Transition[] = [];
          for (let at = t.to; at !== from; ) {
            const step = prev.get(at) as Transition;
            path.unshift(step);
            at = step.from;
          }
          return path;
        }
        next.push(t.to);
      }
    }
    frontier = next;
  }
  return undefined;
}

/** `com.overdrive.mobile.android.libby` → `Libby`: a launcher name when the recording has none. */
export function packageLabel(graph: ReplayGraph, pkg: string): string {
  const given = graph.labels?.[pkg];
  if (given) return given;
  const word = pkg.split('.').pop() ?? pkg;
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The recorded app (and any app a recorded intent launches) with the activities the recording saw. */
export function graphApps(graph: ReplayGraph): { package: string; label: string; activities: string[] }[] {
  const pkgs = new Map<string, Set<string>>();
  const add = (pkg: string, activity?: string) => {
    if (!pkg) return;
    const set = pkgs.get(pkg) ?? new Set<string>();
    if (activity) set.add(activity);
    pkgs.set(pkg, set);
  };
  add(graph.appPackage);
  for (const t of graph.transitions) if (t.kind === 'intent' && t.op === 'start') add(t.package, t.activity);
  for (const s of graph.states.values()) {
    const [pkg, activity] = (s.state.foreground_activity ?? '').split('/');
    if (pkg && pkgs.has(pkg)) add(pkg, activity);
  }
  return [...pkgs].map(([pkg, acts]) => ({ package: pkg, label: packageLabel(graph, pkg), activities: [...acts] }));
}
