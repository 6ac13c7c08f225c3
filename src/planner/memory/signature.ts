import { shortHash } from '../../core/hash.js';
import type { Action } from '../../core/types.js';

/** A stable short form of an action, used by the blacklist, the loop breaker and the history. */
export function actionSignature(a: Action): string {
  const where = a.target_id
    ? `[${a.target_id}]`
    : a.point
      ? `@${Math.round(a.point.x / 20) * 20},${Math.round(a.point.y / 20) * 20}`
      : '';
  // Typing another text into the same field is another action; the text itself is hashed, never shown.
  const typed = a.tool === 'type' && a.text !== undefined ? `~${shortHash(a.text)}` : undefined;
  const extra = [a.direction, a.package, a.args ? JSON.stringify(a.args) : undefined, typed].filter(Boolean).join(' ');
  return [a.tool, where, extra].filter(Boolean).join(' ');
}

const PLACEHOLDER = /^(⟨secret\d+⟩)+$/;

/**
 * For prompts and logs: typed text is never shown (it may be a password) — only its length, or the
 * secret placeholder the model itself wrote. The signature's text hash is left out: in a history
 * line "~6100" reads as a token count.
 */
export function describeAction(a: Action, label?: string): string {
  const sig = actionSignature({ ...a, ...(a.tool === 'type' ? { text: undefined } : {}) });
  const lab = label ? ` "${label}"` : '';
  const typed = a.tool === 'type' && a.text !== undefined ? a.text : undefined;
  const text =
    typed === undefined ? '' : PLACEHOLDER.test(typed) ? ` typed ${typed}` : ` typed ${[...typed].length} characters`;
  return `${sig}${lab}${text}`;
}
