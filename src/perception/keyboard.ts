import type { Element, Observation } from '../core/types.js';

/**
 * The on-screen keyboard as one line of the compact view: its ~35 keys are noise to a model (text
 * goes in with `type`), cost tokens on every step, and invite tapping letters one by one. Only the
 * action key (enter / search / done) keeps an id, because submitting a search may need it.
 */

const ACTION_KEY_RE = /^(↵|⏎|⌤|enter|return|search|go|done|send|next|完成|搜索|前往|发送|下一步|确定)$/i;

export function keyboardWindows(o: Pick<Observation, 'windows'>): Set<number> {
  return new Set(o.windows.filter((w) => w.type === 'input_method').map((w) => w.id));
}

export function isKeyboardKey(e: Element, windows: ReadonlySet<number>): boolean {
  return e.actionable && windows.has(e.window);
}

/** The action key: named enter/search/done…, else none (a key is never guessed by position). */
export function actionKey(keys: readonly Element[]): Element | undefined {
  return keys.find((k) => ACTION_KEY_RE.test((k.label ?? (k.text || k.desc)).trim()));
}

/**
 * `[id] key "↵" · keyboard: 34 keys not listed (enter text with type) x,y` — or without an action
 * key. `typeTool` is what the reader calls to enter text (the agent's `type`, MCP's `type_text`).
 */
export function keyboardLine(
  keys: readonly Element[],
  /** The id as the line writes it (bracketed or bare). */
  shownId: (e: Element) => string,
  typeTool = 'type',
): string | undefined {
  if (keys.length === 0) return undefined;
  const enter = actionKey(keys);
  const rest = keys.length - (enter ? 1 : 0);
  const summary = `keyboard: ${rest} keys not listed (enter text with ${typeTool})`;
  if (!enter) return summary;
  const label = (enter.label ?? (enter.text || enter.desc)).trim();
  const x = Math.round((enter.bounds.left + enter.bounds.right) / 2);
  const y = Math.round((enter.bounds.top + enter.bounds.bottom) / 2);
  return `${shownId(enter)} Key "${label.replace(/"/g, "'")}" (enter) · ${summary} ${x},${y}`;
}
