import type { Element, Observation } from '../core/types.js';
import { exploreRefusal } from '../executor/guardrails/explore-policy.js';
import type { Planner } from '../planner/planner.js';
import type { MapPage } from '../store/app-map.js';
import { REGISTRY } from '../tools/index.js';
import { swipe } from '../tools/swipe.js';
import { tap } from '../tools/tap.js';
import type { AgentPorts, Perceived } from './ports.js';

/**
 * Explore's bookkeeping of one page (issue 25): which controls a walk tries there, in listing order
 * (the app's own, enabled, tappable ones, less those the guard holds or Explore refuses — the same
 * rules the executor applies when the tap comes), and the page as the app map keeps it, with the
 * model's descriptions.
 */

/** The app's own windows (not the status bar, the keyboard or a notification). */
const OWN_WINDOWS = new Set(['application', 'dialog']);

function ownElements(obs: Observation): Element[] {
  const own = new Set(obs.windows.filter((w) => OWN_WINDOWS.has(w.type)).map((w) => w.id));
  return obs.elements.filter((e) => own.has(e.window));
}

export interface Candidates {
  /** What the walk taps, in order. */
  tries: Element[];
  /** What it leaves alone, and why (held by the guard, refused by Explore's policy). */
  skipped: { element: Element; why: string }[];
}

export function candidates(obs: Observation, ports: AgentPorts): Candidates {
  const held = ports.held(obs);
  const spec = REGISTRY.table.get(tap.name);
  const out: Candidates = { tries: [], skipped: [] };
  for (const e of ownElements(obs)) {
    // A list or a field is not a control a tap explores; a disabled one does nothing.
    if (!e.actionable || !e.flags.enabled || (e.flags.scrollable && !e.flags.clickable)) continue;
    const categories = held[e.id];
    const why = categories
      ? `held by the guard (${categories.join(', ')})`
      : exploreRefusal({ tool: tap.name, target_id: e.id }, obs, e, spec);
    if (why) out.skipped.push({ element: e, why });
    else out.tries.push(e);
  }
  return out;
}

/** The page's largest list Explore may scroll (the same rule the executor applies), if any. */
export function candidatesToScroll(obs: Observation): Element | undefined {
  const spec = REGISTRY.table.get(swipe.name);
  const area = (e: Element) => (e.bounds.right - e.bounds.left) * (e.bounds.bottom - e.bounds.top);
  return ownElements(obs)
    .filter(
      (e) =>
        e.flags.scrollable && !exploreRefusal({ tool: swipe.name, target_id: e.id, direction: 'up' }, obs, e, spec),
    )
    .sort((a, b) => area(b) - area(a))[0];
}

/** The page as the map keeps it (its own windows' elements, the screenshot), not yet described. */
export function mapPage(seen: Perceived): MapPage {
  const { obs } = seen;
  return {
    id: obs.pageHash,
    package: obs.app.package,
    activity: obs.app.activity,
    title: obs.app.title,
    screen: { w: obs.screen.w, h: obs.screen.h },
    elements: ownElements(obs),
    ...(seen.png ? { png: seen.png } : {}),
    notes: {},
  };
}

/**
 * The model's description of a page and its controls: one call per new page, batched. A failed
 * call leaves the page undescribed (the map is still written) and says why.
 */
export async function describeInto(
  page: MapPage,
  seen: Perceived,
  ctx: { planner: Planner; app: string; signal?: AbortSignal },
): Promise<{ calls: number; error?: string }> {
  const r = await ctx.planner.describePage(
    { app: ctx.app, screen: seen.compact, ids: seen.obs.elements.map((e) => e.id) },
    ctx.signal,
  );
  const calls = r.usage.calls;
  if (!r.ok) return { calls, error: r.error };
  page.description = r.value.page;
  const own = new Set(page.elements.map((e) => e.id));
  for (const [id, text] of Object.entries(r.value.elements)) if (own.has(id)) page.notes[id] = text;
  return { calls };
}
