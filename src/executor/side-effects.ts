import type { Element, Observation } from '../core/types.js';

/**
 * What an action changed on the *same* page besides navigating: switches and boxes flipped, slider
 * values, field contents and bare counters (a quantity "1" → "2"). A mis-tap that ticks an extra
 * option or bumps a quantity leaves the expectation merely "failed" — these changes are the part a
 * planner must undo, so they are named, with the action that undoes each when one is evident.
 */

export interface StateChange {
  /** `badge`: a count inside a control's label ("Cart (1)"), e.g. items added by a stray tap. */
  /** `pressed`: a committing control (Save, Send, Add…) pressed by mistake: its effect is not visible here. */
  kind: 'checked' | 'value' | 'field' | 'count' | 'badge' | 'pressed';
  /** The element that changed (a counter has none: it is plain text). */
  id?: string;
  /** What a person would call it (a counter: the text before it, e.g. "Quantity"). */
  label: string;
  from: string;
  to: string;
}

const LABEL = (e: Element) => (e.label ?? (e.text || e.desc)) || e.resourceId.split('/').pop() || e.role;
const COUNT = /^\d{1,4}$/;
const BADGE = /\((\d{1,4})\)/;

export function labelOf(e: Element): string {
  return LABEL(e);
}

/**
 * Same page, same app: only then do element ids (position fingerprints) line up pre → post. The
 * page hash alone is too strict (a toast fading out changes it), so most of the page's controls
 * must still be there under the same ids.
 */
export function samePage(pre: Observation, post: Observation): boolean {
  if (pre.app.package !== post.app.package || pre.app.activity !== post.app.activity) return false;
  if (pre.pageHash === post.pageHash) return true;
  const ids = new Set(post.elements.filter((e) => e.actionable).map((e) => e.id));
  const before = pre.elements.filter((e) => e.actionable);
  const kept = before.filter((e) => ids.has(e.id)).length;
  return before.length > 0 && kept >= 0.8 * Math.max(before.length, ids.size);
}

/** The counter after a unique plain-text label ("Quantity" → "1"), keyed by that label. */
function counters(o: Observation): Map<string, string> {
  const seen = new Map<string, number>();
  for (const t of o.texts) seen.set(t, (seen.get(t) ?? 0) + 1);
  const out = new Map<string, string>();
  o.texts.forEach((t, i) => {
    const label = o.texts[i - 1];
    if (COUNT.test(t) && label && !COUNT.test(label) && seen.get(label) === 1) out.set(label, t);
  });
  return out;
}

/** The counter shown after `label` on this screen, if any. */
export function counterAfter(o: Observation, label: string): string | undefined {
  return counters(o).get(label);
}

/** Every visible state change between two observations of the same page. */
export function stateChanges(pre: Observation, post: Observation): StateChange[] {
  if (!samePage(pre, post)) return [];
  const out: StateChange[] = [];
  const after = new Map(post.elements.map((e) => [e.id, e]));
  for (const a of pre.elements) {
    const b = after.get(a.id);
    if (!b) continue;
    if (a.flags.checkable && b.flags.checkable && a.flags.checked !== b.flags.checked)
      out.push({
        kind: 'checked',
        id: a.id,
        label: LABEL(a),
        from: a.flags.checked ? 'on' : 'off',
        to: b.flags.checked ? 'on' : 'off',
      });
    else if (a.range && b.range && a.range.current !== b.range.current)
      out.push({
        kind: 'value',
        id: a.id,
        label: LABEL(a),
        from: String(a.range.current),
        to: String(b.range.current),
      });
    else if (a.flags.editable && b.flags.editable && a.text !== b.text) {
      const label = a.hint || LABEL(a);
      // A numeric field (a quantity box) is a counter; other contents may be typed text: named, never repeated.
      if (!a.flags.password && COUNT.test(a.text) && COUNT.test(b.text))
        out.push({ kind: 'count', id: a.id, label, from: a.text, to: b.text });
      else out.push({ kind: 'field', id: a.id, label, from: 'old text', to: 'new text' });
    } else if (a.actionable && a.text !== b.text) {
      const x = BADGE.exec(a.text);
      const y = BADGE.exec(b.text);
      if (x?.[1] && y?.[1] && a.text.replace(BADGE, '()') === b.text.replace(BADGE, '()'))
        out.push({ kind: 'badge', id: a.id, label: a.text.replace(BADGE, '').trim(), from: x[1], to: y[1] });
    }
  }
  // Counters are plain text: matched by the unique label before them (a toast coming or going
  // shifts positions, not labels).
  const after2 = counters(post);
  for (const [label, from] of counters(pre)) {
    const to = after2.get(label);
    if (to !== undefined && to !== from) out.push({ kind: 'count', label, from, to });
  }
  return out;
}

function centre(e: Element) {
  return { x: (e.boundsPx.left + e.boundsPx.right) / 2, y: (e.boundsPx.top + e.boundsPx.bottom) / 2 };
}

function inside(p: { x: number; y: number }, e: Element): boolean {
  const b = e.boundsPx;
  return p.x >= b.left && p.x <= b.right && p.y >= b.top && p.y <= b.bottom;
}

/** One control seen two ways: the same id, a label inside its row, or its actionable ancestor. */
export function sameControl(a: Element, b: Element): boolean {
  if (a.id === b.id) return true;
  if (a.actionableAncestorId === b.id || b.actionableAncestorId === a.id) return true;
  return inside(centre(a), b) || inside(centre(b), a);
}

/** The element an action really lands on: the actionable owner of a plain label. */
export function actionableOwner(e: Element | undefined, obs: Observation): Element | undefined {
  if (!e || e.actionable || !e.actionableAncestorId) return e;
  return obs.elements.find((x) => x.id === e.actionableAncestorId) ?? e;
}

const PLUS = /^(\+|＋|plus|increase|increment|more|add one|加|增加)$/i;
const MINUS = /^(-|−|–|－|minus|decrease|decrement|less|remove one|减|减少)$/i;
const PLUS_RID = /(plus|inc(rease|rement)?|up)$/i;
const MINUS_RID = /(minus|dec(rease|rement)?|down)$/i;

function isStep(e: Element, word: RegExp, rid: RegExp): boolean {
  return word.test((e.text || e.desc).trim()) || rid.test(e.resourceId.split('/').pop() ?? '');
}

/** The opposite stepper button nearest to `e` (a "−" for a "+"), if `e` is a stepper button. */
export function inverseStepper(e: Element, obs: Observation): Element | undefined {
  const up = isStep(e, PLUS, PLUS_RID);
  const down = isStep(e, MINUS, MINUS_RID);
  if (up === down) return undefined;
  const c = centre(e);
  let best: Element | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const x of obs.elements) {
    if (!x.actionable || x.id === e.id || !(up ? isStep(x, MINUS, MINUS_RID) : isStep(x, PLUS, PLUS_RID))) continue;
    const p = centre(x);
    // Same row counts most: a stepper's buttons sit side by side.
    const d = Math.abs(p.y - c.y) * 4 + Math.abs(p.x - c.x);
    if (d < bestD) {
      best = x;
      bestD = d;
    }
  }
  return best;
}

/**
 * Actions (in the planner's one-line form) that put the changes back: tap a flipped switch again,
 * re-select the option an exclusive group lost, set a slider back, press the opposite stepper.
 */
export function undoSteps(changes: StateChange[], acted: Element | undefined, post: Observation): string[] {
  const steps: string[] = [];
  const checked = changes.filter((c) => c.kind === 'checked');
  const turnedOn = checked.filter((c) => c.to === 'on');
  const turnedOff = checked.filter((c) => c.to === 'off');
  // An exclusive group (sizes, radio buttons): re-selecting the lost option undoes both flips.
  const group = turnedOn.length > 0 && turnedOff.length > 0;
  for (const c of group ? turnedOff : checked)
    if (c.id && post.elements.some((e) => e.id === c.id))
      steps.push(`tap [${c.id}] expect element_state ${c.id} ${c.from}`);
  for (const c of changes.filter((x) => x.kind === 'value'))
    if (c.id)
      steps.push(`control_action [${c.id}] set_progress ${c.from} expect element_state ${c.id} value=${c.from}`);
  const counts = changes.filter((c) => c.kind === 'count');
  const inv = acted && counts.length > 0 ? inverseStepper(acted, post) : undefined;
  const first = counts[0];
  // The opposite stepper button puts a counter back; a counter in a field can also be retyped.
  if (first && inv)
    steps.push(
      `tap [${inv.id}] expect ${first.id ? `element_state ${first.id} text=${first.from}` : `text_appears ${first.from}`}`,
    );
  else if (first?.id)
    steps.push(`type [${first.id}] "${first.from}" expect element_state ${first.id} text=${first.from}`);
  return steps;
}

/**
 * The changes that stay wrong until put back. In an exclusive group (a size picked by mistake) the
 * mistake is the option that came on: it is resolved once that option is off again, whichever
 * option the planner then picks.
 */
export function mistakes(changes: StateChange[]): StateChange[] {
  const on = changes.filter((c) => c.kind === 'checked' && c.to === 'on');
  const group = on.length > 0 && changes.some((c) => c.kind === 'checked' && c.to === 'off');
  return group ? changes.filter((c) => c.kind !== 'checked' || c.to === 'on') : changes;
}

/** Labels of controls that commit something (the effect lives elsewhere: an alarm list, a cart, a chat). */
const COMMITS =
  /^(save|send|submit|add|buy|pay|place|order|confirm|ok|done|apply|delete|remove|post|book|create|publish|保存|发送|提交|确认|确定|添加|加入|删除|支付|完成|下单)/i;

export function commitsSomething(e: Element): boolean {
  return COMMITS.test(LABEL(e).trim());
}

export function describeChange(c: StateChange): string {
  if (c.kind === 'pressed') return `"${c.label}" pressed`;
  if (c.kind === 'field') return `the field "${c.label}" was edited`;
  const what = c.kind === 'count' && !c.id ? `the number after "${c.label}"` : `"${c.label}"`;
  return `${what} ${c.from}→${c.to}`;
}
