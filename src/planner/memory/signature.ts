import { shortHash } from '../../core/hash.js';
import type { Action } from '../../core/types.js';
import { actFields, type FieldSet, type FieldValue } from '../act-native.js';
import { typedText } from '../prompt/format.js';

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

function value(v: FieldValue, typed: boolean): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return typed ? typedText(v) : /^[\w.]+$/.test(v) ? v : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((m) => fieldsLine(m)).join('; ')}]`;
  if ('frames' in v) return `(${v.frames} frames)`;
  return `${v.x},${v.y}`;
}

/** The order fields are written in (what the action is, then how much, then its text). */
const FIELD_ORDER = ['point', 'op', 'direction', 'package', 'value', 'scale', 'text', 'frames', 'steps'] as const;

/** `tool [id] "label" field=value …` in the act call's field names, each field once. */
function fieldsLine(f: FieldSet, label?: string): string {
  const typed = f.tool === 'type' || (f.tool === 'control_action' && f.op === 'set_text');
  const parts = [f.tool ?? '?'];
  if (f.target_id) parts.push(`[${f.target_id}]`);
  if (label) parts.push(JSON.stringify(label));
  for (const k of FIELD_ORDER) {
    const v = f[k];
    if (v !== undefined) parts.push(`${k}=${value(v, typed && k === 'text')}`);
  }
  return parts.join(' ');
}

/**
 * For prompts and logs: the action as the model would send it (`control_action [id] "Brightness"
 * op=set_progress value=40`, `action_sequence steps=[…]`), so the history teaches the schema's own
 * shape. Typed text shows only its length or the secret placeholder; the signature's text hash is
 * left out (in a history line "~6100" reads as a token count).
 */
export function describeAction(a: Action, label?: string): string {
  return fieldsLine(actFields(a), label);
}
