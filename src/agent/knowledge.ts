import type { Observation } from '../core/types.js';
import type { Knowledge, KnowledgePage } from '../store/app-map.js';

/**
 * What an app map taught about the screen in front of the agent (issue 25): only the lines of the
 * current page — the page by its hash, else the same app, activity and title (content that moved
 * changes the hash) — and of its controls that are on the screen now, as
 * `Notes › New note: "✓" saves the note`. Other pages cost the prompt nothing.
 */

/** At most this many lines a step: a page's description and its first described controls. */
const MAX_LINES = 8;

function pageFor(k: Knowledge, obs: Observation): KnowledgePage | undefined {
  if (k.app.package !== obs.app.package) return undefined;
  return (
    k.pages.find((p) => p.id === obs.pageHash) ??
    k.pages.find((p) => p.activity === obs.app.activity && p.title === obs.app.title)
  );
}

export function knowledgeLines(known: readonly Knowledge[] | undefined, obs: Observation): string[] {
  for (const k of known ?? []) {
    const page = pageFor(k, obs);
    if (!page) continue;
    const where = `${k.app.label} › ${page.title || page.activity}`;
    const onScreen = new Set(obs.elements.map((e) => e.id));
    const labels = new Set(obs.elements.map((e) => e.label || e.text || e.desc));
    const controls = page.elements
      .filter((e) => onScreen.has(e.id) || labels.has(e.label))
      .map((e) => `${where}: "${e.label}" ${e.description}`);
    return [...(page.description ? [`${where}: ${page.description}`] : []), ...controls].slice(0, MAX_LINES);
  }
  return [];
}
