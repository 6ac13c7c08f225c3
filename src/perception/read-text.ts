import type { Observation } from '../core/types.js';

/**
 * The full text behind a line of the compact view, which cuts labels and text items ("The address
 * is 4…") and writes line breaks as spaces. Asked for by element id or by the text as shown (its
 * "…" and quotes are ignored); answered from the observation, line breaks kept.
 */

export type ReadText = { ok: true; text: string } | { ok: false; error: string };

const MAX_READ_CHARS = 2000;

function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function readText(obs: Observation, req: { target_id?: string; text?: string }): ReadText {
  const full = (s: string) => (s.length > MAX_READ_CHARS ? `${s.slice(0, MAX_READ_CHARS)}…` : s);
  if (req.target_id) {
    const e = obs.elements.find((x) => x.id === req.target_id);
    if (!e) return { ok: false, error: `"${req.target_id}" is not on the current screen` };
    if (e.flags.password) return { ok: false, error: 'a password field never shows its text' };
    const t = e.text || e.desc || e.label || '';
    return t ? { ok: true, text: full(t) } : { ok: false, error: `"${req.target_id}" has no text` };
  }
  const shown = squash((req.text ?? '').replace(/^["'“”]+|["'“”]+$/g, '').replace(/…$/, ''));
  if (!shown) return { ok: false, error: 'read needs target_id or the text as shown' };
  const hits = obs.elements.filter((e) => {
    if (e.flags.password) return false;
    return [e.text, e.desc, e.label ?? ''].some((t) => t && squash(t).startsWith(shown));
  });
  const texts = [...new Set(hits.map((e) => e.text || e.desc || e.label || ''))].filter(Boolean);
  if (texts.length === 0) return { ok: false, error: `no text on the screen starts with "${shown}"` };
  return { ok: true, text: full(texts.join('\n---\n')) };
}
