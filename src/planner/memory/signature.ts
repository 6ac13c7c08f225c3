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

/** For prompts and logs: typed text is never shown (it may be a password). */
export function describeAction(a: Action, label?: string): string {
  const sig = actionSignature(a);
  const lab = label ? ` "${label}"` : '';
  const text = a.tool === 'type' && a.text !== undefined ? ` (${a.text.length} chars)` : '';
  return `${sig}${lab}${text}`;
}
