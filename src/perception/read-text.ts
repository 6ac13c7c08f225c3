import type { Observation } from '../core/types.js';

/**
 * The full text behind a line of the compact view, which cuts labels and text items ("The address
 * is 4…") and writes line breaks as spaces. Asked for by element id or by the text as shown (its
 * "…" and quotes are ignored); answered from the observation, line breaks kept.
 */

/**
 * `cut`: the text is not all there is — the app itself ends it in "…" (a list row's preview; the rest
 * is on the item's own page), or it is longer than a read returns.
 */
export type ReadText = { ok: true; text: string; cut?: 'app' | 'length' } | { ok: false; error: string };

export const MAX_READ_CHARS = 2000;
/** An app's own ellipsis at the end of a text: it shows only the start of something longer. */
const APP_CUT = /(…|\.\.\.)$/;

function answer(t: string): ReadText {
  if (t.length > MAX_READ_CHARS) return { ok: true, text: `${t.slice(0, MAX_READ_CHARS)}…`, cut: 'length' };
  return APP_CUT.test(t.trim()) ? { ok: true, text: t, cut: 'app' } : { ok: true, text: t };
}

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function readText(obs: Observation, req: { target_id?: string; text?: string }): ReadText {
  if (req.target_id) {
    const e = obs.elements.find((x) => x.id === req.target_id);
    if (!e) return { ok: false, error: `"${req.target_id}" is not on the current screen` };
    if (e.flags.password) return { ok: false, error: 'a password field never shows its text' };
    const t = e.text || e.desc || e.label || '';
    return t ? answer(t) : { ok: false, error: `"${req.target_id}" has no text` };
  }
  const shown = squash((req.text ?? '').replace(/^["'“”]+|["'“”]+$/g, '').replace(/…$/, ''));
  if (!shown) return { ok: false, error: 'read needs target_id or the text as shown' };
  const hits = obs.elements.filter((e) => {
    if (e.flags.password) return false;
    return [e.text, e.desc, e.label ?? ''].some((t) => t && squash(t).startsWith(shown));
  });
  const texts = [...new Set(hits.map((e) => e.text || e.desc || e.label || ''))].filter(Boolean);
  if (texts.length === 0) return { ok: false, error: `no text on the screen starts with "${shown}"` };
  return answer(texts.join('\n---\n'));
}
