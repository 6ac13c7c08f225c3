import { shortHash } from '../../core/hash.js';
import type { Action } from '../../core/types.js';
import { typedText } from '../prompt/format.js';
import type { FieldSet, FieldValue, ToolCatalog } from '../tool-spec.js';

/** A stable short form of an action, used by the blacklist, the loop breaker and the history. */
export function actionSignature(a: Action, catalog: ToolCatalog): string {
  const where = a.target_id
    ? `[${a.target_id}]`
    : a.point
      ? `@${Math.round(a.point.x / 20) * 20},${Math.round(a.point.y / 20) * 20}`
      : '';
  // Typing another text into the same field is another action; the text itself is hashed, never shown.
  const typed =
    a.text !== undefined && catalog.get(a.tool)?.typed?.({ tool: a.tool }) ? `~${shortHash(a.text)}` : undefined;
  const extra = [a.direction, a.package, a.args ? JSON.stringify(a.args) : undefined, typed].filter(Boolean).join(' ');
  return [a.tool, where, extra].filter(Boolean).join(' ');
}

/**
 * An action in the `act` call's own fields (`op`, `steps`, `value`, `text`…), the shape the model
 * sends, so the history never shows it another shape (protocol `args`) to copy. The tool's spec
 * turns its own parts back into its fields.
 */
export function actFields(a: Action, catalog: ToolCatalog): FieldSet {
  const f: FieldSet = { tool: a.tool, target_id: a.target_id };
  if (a.point) f.point = { x: Math.round(a.point.x), y: Math.round(a.point.y) };
  if (a.direction) f.direction = a.direction;
  if (a.package) f.package = a.package;
  const text = a.text ?? a.answer ?? a.question ?? a.reason;
  if (text !== undefined) f.text = text;
  const own = catalog.get(a.tool)?.fieldsOf?.(a, catalog) ?? {};
  for (const [k, v] of Object.entries(own)) if (v !== undefined) f[k] = v;
  return f;
}

function value(v: FieldValue, typed: boolean, catalog: ToolCatalog, shown: boolean): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return typed ? typedText(v, shown) : /^[\w.]+$/.test(v) ? v : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((m) => fieldsLine(m, catalog)).join('; ')}]`;
  if ('frames' in v) return `(${v.frames} frames)`;
  return `${v.x},${v.y}`;
}

/** The order fields are written in (what the action is, then how much, then its text). */
const FIELD_ORDER = ['point', 'op', 'direction', 'package', 'value', 'scale', 'text', 'frames', 'steps'] as const;

/** `tool [id] "label" field=value …` in the act call's field names, each field once. */
function fieldsLine(f: FieldSet, catalog: ToolCatalog, label?: string, shown = false): string {
  const typed = !!catalog.get(f.tool ?? '')?.typed?.(f);
  const parts = [f.tool ?? '?'];
  if (f.target_id) parts.push(`[${f.target_id}]`);
  if (label) parts.push(JSON.stringify(label));
  // A tool's own field not in the order comes after the known ones, in its spec's order.
  const rest = Object.keys(f).filter(
    (k) => k !== 'tool' && k !== 'target_id' && !(FIELD_ORDER as readonly string[]).includes(k),
  );
  for (const k of [...FIELD_ORDER, ...rest]) {
    const v = f[k];
    if (v !== undefined) parts.push(`${k}=${value(v, typed && k === 'text', catalog, shown)}`);
  }
  return parts.join(' ');
}

/**
 * For prompts and logs: the action as the model would send it (`control_action [id] "Brightness"
 * op=set_progress value=40`, `action_sequence steps=[…]`), so the history teaches the schema's own
 * shape. Typed text shows only its length or the secret placeholder, unless `typedShown` (the caller
 * knows the field is no password field: typedText); the signature's text hash is left out (in a
 * history line "~6100" reads as a token count).
 */
export function describeAction(a: Action, catalog: ToolCatalog, label?: string, typedShown = false): string {
  return fieldsLine(actFields(a, catalog), catalog, label, typedShown);
}
