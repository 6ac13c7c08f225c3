import { CancelledError } from '../core/errors.js';
import { Progress } from '../core/progress.js';
import type { Decision, Element, Observation, WindowInfo } from '../core/types.js';
import type { AppMap, MapEvent, MapPage } from '../store/app-map.js';
import { back } from '../tools/back.js';
import { launchApp } from '../tools/launch-app.js';
import { swipe } from '../tools/swipe.js';
import { tap } from '../tools/tap.js';
import { candidates, candidatesToScroll, describeInto, mapPage } from './explore-pages.js';
import type { Executed, Perceived } from './ports.js';
import type { AgentDeps } from './session.js';

/**
 * Explore (issue 25): learn an app without a task. A driver over the same composed agent as a run
 * (its ports, its planner): launch the app, then breadth first over pages — page identity is the
 * perception's page hash — tap every control of every new page, and come back (back, else
 * relaunch and follow the recorded path). Every action goes through the executor under Explore's
 * guard policy, which refuses what the guard holds and whatever would change the world; the walk
 * skips those controls beforehand, so a refusal counted here is a disagreement worth reporting.
 * Pages that repeat an activity already found wait until every first-of-its-activity page is done.
 * A page of another app (a tap that opened a browser, a share sheet) is not recorded: Explore files
 * a page under its snapshot's package, and a few foreign pages seen in passing would replace or
 * mix with that app's own entry in the knowledge store, which exploring that app writes.
 */

export interface ExploreOptions {
  /** The app as launch_app takes it: its launcher name or its package. */
  app: string;
  /** Stop after this many actions and/or minutes (the clock's); default 400 actions. */
  budget?: { actions?: number; minutes?: number };
  /** Describe each new page with the model (default true). */
  describe?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: ExploreProgress) => void;
}

export interface ExploreProgress {
  pages: number;
  actions: number;
  queued: number;
  message: string;
}

export interface ExploreResult {
  map: AppMap;
  actions: number;
  /** Actions the executor refused under Explore's policy (the walk's skip list should leave none). */
  refused: string[];
  /** Actions a person or policy approved as guarded: Explore asks nobody, so this stays 0. */
  guardedTaken: number;
  /** Controls not tried, per page, and why. */
  skipped: { page: string; label: string; why: string }[];
  /** Pages found but not reachable again (the path back no longer led there). */
  lost: string[];
  modelCalls: number;
  describeErrors: string[];
  stopped: 'explored' | 'budget' | 'cancelled';
  /** Why the launch gave no page of the app: another app's window on top of it (a permission prompt). */
  blocked?: string;
}

interface PageState {
  page: MapPage;
  /** The taps (and scrolls) from the app's first page that lead here, with the page each reaches. */
  path: { element: string; to: string; scroll?: boolean }[];
  seen: Perceived;
}

const DEFAULT_ACTIONS = 400;
/** Backs tried to leave the app before it is launched again. */
const MAX_BACKS_OUT = 8;

class Budget {
  constructor(
    private readonly deps: AgentDeps,
    private readonly limits: { actions: number; ms?: number },
    private readonly startedAt: number,
  ) {}
  spent = 0;
  get over(): boolean {
    const late = this.limits.ms !== undefined && this.deps.clock.now() - this.startedAt >= this.limits.ms;
    return this.spent >= this.limits.actions || late;
  }
}

class BudgetSpent extends Error {}

/**
 * Window kinds that cover an app's screen and take its touches (not bars, keyboards or toasts). Not
 * another app's application window: that one is the foreground app (the activity says so), and a
 * replayed DroidBot state names its window by its first view's package (the launcher's, often).
 */
const COVERING = new Set(['dialog', 'system']);

/**
 * Another app's window in front of the app's own (a permission prompt over Contacts): the screen
 * is that app's, not this one's — filed here it would stand for the app's page.
 */
export function foreignOnTop(obs: Observation): WindowInfo | undefined {
  return obs.windows.find((w) => w.focused && COVERING.has(w.type) && !!w.package && w.package !== obs.app.package);
}

/**
 * The name the map's lines go by: the launcher name asked for, unless a package was asked for and
 * the launch showed another app — then that app's package (its launcher name is not known here).
 */
export function labelOf(asked: string, shown: string): string {
  return asked.includes('.') && asked !== shown ? shown : asked;
}

export async function explore(deps: AgentDeps, opts: ExploreOptions): Promise<ExploreResult> {
  const { ports, clock } = deps;
  const minutes = opts.budget?.minutes;
  const budget = new Budget(
    deps,
    { actions: opts.budget?.actions ?? DEFAULT_ACTIONS, ms: minutes !== undefined ? minutes * 60_000 : undefined },
    clock.now(),
  );
  const progress = Progress.start(clock, { signal: opts.signal });
  const result: ExploreResult = {
    map: { app: { package: '', label: opts.app }, first: '', pages: [], transitions: [] },
    actions: 0,
    refused: [],
    guardedTaken: 0,
    skipped: [],
    lost: [],
    modelCalls: 0,
    describeErrors: [],
    stopped: 'explored',
  };
  const pages = new Map<string, PageState>();
  const firstOfActivity: PageState[] = [];
  const repeats: PageState[] = [];
  let cur = await ports.observe();

  const act = async (decision: Decision): Promise<Executed> => {
    if (budget.over) throw new BudgetSpent();
    progress.throwIfAborted('exploring');
    budget.spent++;
    const r = await ports.execute({
      decision,
      obs: cur.obs,
      confirm: deps.confirm,
      events: async () => {},
      dryRun: false,
      fresh: true,
      policy: 'explore',
      progress,
    });
    if (r.consent?.kind === 'approved') result.guardedTaken++;
    if (r.receipt.error?.message.startsWith('Explore refuses')) result.refused.push(r.receipt.error.message);
    cur = r.post ?? (await ports.observe(cur.obs));
    return r;
  };
  const record = (from: string, to: string, event: MapEvent) => {
    if (pages.has(from) && pages.has(to)) result.map.transitions.push({ from, to, event, step: budget.spent });
  };
  const inApp = () => cur.obs.app.package === result.map.app.package && !foreignOnTop(cur.obs);

  const launch = async () => {
    const from = cur.obs.pageHash;
    await act({
      thought: `explore ${opts.app}: launch it`,
      action: { tool: launchApp.name, package: result.map.app.package || opts.app },
      expect: { kind: 'app_foreground', ...(result.map.app.package ? { package: result.map.app.package } : {}) },
    });
    record(from, cur.obs.pageHash, { kind: 'launch' });
  };
  const pressBack = async () => {
    const from = cur.obs.pageHash;
    await act({ thought: 'explore: go back', action: { tool: back.name }, expect: { kind: 'page_changes' } });
    record(from, cur.obs.pageHash, { kind: 'back' });
  };
  const tapOn = async (e: Element) => {
    const from = cur.obs.pageHash;
    await act({
      thought: `explore: what "${e.label || e.text || e.desc}" opens`,
      action: { tool: tap.name, target_id: e.id },
      expect: { kind: 'page_changes' },
    });
    return from;
  };

  /** Shows what is below in a list: the finger moves up. */
  const scrollOn = async (e: Element) => {
    const from = cur.obs.pageHash;
    await act({
      thought: 'explore: what the list holds further down',
      action: { tool: swipe.name, target_id: e.id, direction: 'up' },
      expect: { kind: 'page_changes' },
    });
    return from;
  };

  /** A page seen for the first time: kept, described, queued (behind first-of-activity pages if it repeats one). */
  const discover = async (path: PageState['path']): Promise<PageState> => {
    const page = mapPage(cur);
    const state: PageState = { page, path, seen: cur };
    pages.set(page.id, state);
    result.map.pages.push(page);
    const repeat = result.map.pages.some((p) => p !== page && p.activity === page.activity);
    (repeat ? repeats : firstOfActivity).push(state);
    if (opts.describe !== false) {
      const d = await describeInto(page, cur, { planner: deps.planner, app: opts.app, signal: opts.signal });
      result.modelCalls += d.calls;
      if (d.error) result.describeErrors.push(`${page.activity} (${page.id}): ${d.error}`);
    }
    opts.onProgress?.({
      pages: pages.size,
      actions: budget.spent,
      queued: firstOfActivity.length + repeats.length,
      message: `page ${pages.size}: ${page.activity}${page.description ? ` — ${page.description}` : ''}`,
    });
    return state;
  };

  /** Where on `target`'s path the screen is now: -1 on the first page, else the step reached; undefined when off it. */
  const onPath = (target: PageState): number | undefined => {
    const at = cur.obs.pageHash;
    for (let i = target.path.length - 1; i >= 0; i--) if (target.path[i]?.to === at) return i;
    return at === result.map.first ? -1 : undefined;
  };
  /** Follow `target`'s path from where the screen is on it; false when a step no longer leads on. */
  const follow = async (target: PageState, from: number): Promise<boolean> => {
    for (const step of target.path.slice(from + 1)) {
      const e = cur.obs.elements.find((x) => x.id === step.element);
      if (!e) return false;
      const was = step.scroll ? await scrollOn(e) : await tapOn(e);
      record(was, cur.obs.pageHash, { kind: step.scroll ? 'scroll' : 'touch', element: e.id });
      if (cur.obs.pageHash !== step.to) return false;
    }
    return cur.obs.pageHash === target.page.id;
  };
  /**
   * Back to `target`: on its path already, follow it on; else back out of the app, launch it and
   * follow the path from wherever the launch shows (a first-launch dialog may not come again).
   */
  const reach = async (target: PageState): Promise<boolean> => {
    if (cur.obs.pageHash === target.page.id) return true;
    const here = onPath(target);
    if (here !== undefined && (await follow(target, here))) return true;
    for (let i = 0; i < MAX_BACKS_OUT && inApp(); i++) await pressBack();
    await launch();
    const there = onPath(target);
    return there !== undefined && follow(target, there);
  };

  const walkPage = async (state: PageState) => {
    if (!(await reach(state))) {
      result.lost.push(`${state.page.activity} (${state.page.id})`);
      return;
    }
    const { tries, skipped } = candidates(cur.obs, ports);
    for (const s of skipped)
      result.skipped.push({ page: state.page.activity, label: s.element.label || s.element.text, why: s.why });
    for (const e of tries) {
      if (!(await reach(state))) {
        result.lost.push(`${state.page.activity} (${state.page.id})`);
        return;
      }
      const from = await tapOn(e);
      const to = cur.obs.pageHash;
      if (to === from) continue;
      if (inApp() && !pages.has(to)) await discover([...state.path, { element: e.id, to }]);
      record(from, to, { kind: 'touch', element: e.id });
      // Come back the cheap way; `reach` relaunches when back did not lead home.
      await pressBack();
    }
    await scrollFurther(state);
  };

  /** The page's list scrolled on, as a page of its own when it shows something new (the end shows nothing new). */
  const scrollFurther = async (state: PageState) => {
    const list = candidatesToScroll(cur.obs);
    if (!list || !(await reach(state))) return;
    const from = await scrollOn(list);
    const to = cur.obs.pageHash;
    if (to === from || !inApp()) return;
    if (!pages.has(to)) await discover([...state.path, { element: list.id, to, scroll: true }]);
    record(from, to, { kind: 'scroll', element: list.id });
  };

  try {
    await launch();
    // The map is of the app the launch shows, filed under its package and named for it: an app
    // that opens another's screens at launch (a shortcut into Settings) is not that app's map.
    result.map.app = { package: cur.obs.app.package, label: labelOf(opts.app, cur.obs.app.package) };
    const cover = foreignOnTop(cur.obs);
    if (cover) {
      // Explore answers no prompt (granting or denying changes the phone): a person does, once.
      result.blocked = `a ${cover.package} window ("${cover.title}") covers ${opts.app}: answer it on the phone, then explore again`;
      result.actions = budget.spent;
      return result;
    }
    const first = await discover([]);
    result.map.first = first.page.id;
    for (;;) {
      const next = firstOfActivity.shift() ?? repeats.shift();
      if (!next) break;
      await walkPage(next);
    }
  } catch (e) {
    if (e instanceof BudgetSpent) result.stopped = 'budget';
    else if (e instanceof CancelledError) result.stopped = 'cancelled';
    else throw e;
  }
  result.actions = budget.spent;
  return result;
}
