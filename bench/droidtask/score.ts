import { type Rect, rect, rectCenter, rectContains } from '../../src/core/geometry.js';
import type { Action, Element, Observation } from '../../src/core/types.js';
import type { DroidbotView } from '../../src/perception/droidbot/state.js';
import { normalizeText } from '../../src/testbed/replay/match.js';
import type { Gold } from './fixture.js';

/**
 * AutoDroid's step-wise scoring (../shared/fixtures/droidtask/SOURCES.md), on our agent's actions:
 * a step is right when the action has the gold kind (tap, input, done) and, for tap and input, hits
 * the gold element — by identity (the element made from the gold view or the container that handles
 * its tap) or by bounds (the point the executor taps lies in that container) — and, for input, types
 * the gold text (trimmed, spaces collapsed, case and Unicode width ignored). Two kinds of miss are
 * counted apart, never forgiven: not ending (any other action) on a done step, and typing into the
 * field whose tap the gold step is.
 */

export type StepKind = 'tap' | 'input' | 'done' | 'back' | 'other';

/** A DroidBot state as it was shown: its views and the snapshot node of each temp_id. */
export interface ShownState {
  id: string;
  views: readonly DroidbotView[];
  nodeOf: ReadonlyMap<number, number>;
}

export interface StepScore {
  correct: boolean;
  /** The gold kind and the model's, as AutoDroid's three kinds (plus back, other). */
  goldKind: Gold['kind'];
  kind: StepKind;
  tool: string;
  /** The action reached the gold element (tap / input). */
  hit?: boolean;
  /** For input: the text typed, and whether it is the gold text once normalised. */
  textOk?: boolean;
  miss?: 'checked_before_done' | 'typed_without_tap' | 'wrong_element' | 'wrong_text' | 'wrong_kind' | 'no_action';
  why: string;
}

export function kindOf(a: Action): StepKind {
  if (a.tool === 'tap') return 'tap';
  if (a.tool === 'type') return 'input';
  if (a.tool === 'done') return 'done';
  if (a.tool === 'back') return 'back';
  const op = a.tool === 'control_action' ? a.args?.action : undefined;
  if (op === 'click') return 'tap';
  if (op === 'set_text') return 'input';
  return 'other';
}

const toRect = (b: readonly [readonly [number, number], readonly [number, number]]): Rect =>
  rect(b[0][0], b[0][1], b[1][0], b[1][1]);

/** The element an action acts on: its target id, else (typing) the focused field. */
function targetOf(a: Action, obs: Observation): Element | undefined {
  if (a.target_id) return obs.elements.find((e) => e.id === a.target_id);
  if (kindOf(a) === 'input') return obs.elements.find((e) => e.flags.focused && e.flags.editable);
  return undefined;
}

/** Where the executor would touch, in pixels: the target's centre, or the model's point. */
function touchPoint(a: Action, obs: Observation, target: Element | undefined): { x: number; y: number } | undefined {
  if (target) return rectCenter(target.boundsPx);
  if (a.point) return { x: (a.point.x / 1000) * obs.screen.w, y: (a.point.y / 1000) * obs.screen.h };
  return undefined;
}

function tempOfNode(shown: ShownState, nodeId: number | undefined): number | undefined {
  if (nodeId === undefined) return undefined;
  for (const [temp, node] of shown.nodeOf) if (node === nodeId) return temp;
  return undefined;
}

/** The gold element's views: the view and the container that handles its tap. */
function goldViews(gold: Gold): number[] {
  return [gold.view, gold.anchor?.view].filter((v): v is number => v !== null && v !== undefined);
}

/**
 * The view that handles a tap on `temp`: itself when clickable, else its nearest clickable ancestor
 * (a settings row whose CheckBox the gold names — the fixture's `anchor` where it was recorded). On
 * the gold state a touch in the gold bounds reaches it; on a scrolled state its identity must count
 * alike, or tapping the same row before the scroll (its check box cut off) scores as another element.
 */
function tapContainer(state: ShownState, temp: number): number | undefined {
  const byTemp = new Map(state.views.map((v) => [v.temp_id, v]));
  for (let v = byTemp.get(temp); v; v = byTemp.get(v.parent)) if (v.clickable) return v.temp_id;
  return undefined;
}

/**
 * Hit on the state the gold was recorded on: the element is the gold view or its container, or the
 * touch lands in the container's bounds. On another state of the same scroll chain, identity only:
 * the same view (or the view handling its tap) by DroidBot's hash, when that hash is unique there.
 */
export function hits(
  a: Action,
  obs: Observation,
  shown: ShownState,
  gold: Gold,
  goldState: ShownState,
): { hit: boolean; how: string } {
  const target = targetOf(a, obs);
  const temp = tempOfNode(shown, target?.nodeId);
  const views = goldViews(gold);
  if (shown.id === goldState.id) {
    if (temp !== undefined && views.includes(temp)) return { hit: true, how: `element of view ${temp}` };
    const area = gold.anchor?.bounds ?? gold.bounds;
    const p = touchPoint(a, obs, target);
    if (area && p && rectContains(toRect(area), p))
      return { hit: true, how: `touch ${Math.round(p.x)},${Math.round(p.y)} in the gold bounds` };
    return { hit: false, how: p ? `touch ${Math.round(p.x)},${Math.round(p.y)} outside the gold bounds` : 'no target' };
  }
  const hashes = views
    .flatMap((v) => [v, tapContainer(goldState, v)])
    .map((v) => goldState.views.find((x) => x.temp_id === v)?.view_str)
    .filter(Boolean);
  const mine = shown.views.find((x) => x.temp_id === temp)?.view_str;
  const unique = mine ? shown.views.filter((x) => x.view_str === mine).length === 1 : false;
  if (mine && unique && hashes.includes(mine)) return { hit: true, how: 'the gold view, on a scrolled screen' };
  return { hit: false, how: 'not the gold view (the target is on another scroll of this screen)' };
}

/** The gold tap only focuses a field (a later step types into it). */
function tapFocusesField(gold: Gold, goldState: ShownState): boolean {
  if (gold.kind !== 'tap') return false;
  return goldViews(gold).some((v) => {
    const view = goldState.views.find((x) => x.temp_id === v);
    return !!view && (view.editable === true || /EditText/.test(view.class ?? ''));
  });
}

export function scoreStep(
  a: Action | undefined,
  obs: Observation,
  shown: ShownState,
  gold: Gold,
  goldState: ShownState,
): StepScore {
  const goldKind = gold.kind;
  if (!a) return { correct: false, goldKind, kind: 'other', tool: '-', miss: 'no_action', why: 'no valid action' };
  const kind = kindOf(a);
  const base = { goldKind, kind, tool: a.tool };
  if (goldKind === 'done') {
    if (kind === 'done') return { ...base, correct: true, why: 'ended the task' };
    return { ...base, correct: false, miss: 'checked_before_done', why: `${a.tool} where the gold ends the task` };
  }
  if (kind === 'done') return { ...base, correct: false, miss: 'wrong_kind', why: 'ended the task early' };
  if (goldKind === 'tap' || goldKind === 'input') {
    const h = hits(a, obs, shown, gold, goldState);
    if (goldKind === 'tap' && kind === 'input' && h.hit && tapFocusesField(gold, goldState))
      return {
        ...base,
        correct: false,
        hit: true,
        miss: 'typed_without_tap',
        why: 'typed into the field the gold taps first',
      };
    if (kind !== goldKind)
      return {
        ...base,
        correct: false,
        hit: h.hit,
        miss: 'wrong_kind',
        why: `${a.tool} where the gold is ${goldKind}`,
      };
    if (!h.hit) return { ...base, correct: false, hit: false, miss: 'wrong_element', why: h.how };
    if (goldKind === 'input') {
      const typed = a.text ?? (typeof a.args?.text === 'string' ? a.args.text : '');
      const textOk = normalizeText(typed) === normalizeText(gold.text ?? '');
      if (!textOk)
        return {
          ...base,
          correct: false,
          hit: true,
          textOk,
          miss: 'wrong_text',
          why: `typed ${JSON.stringify(typed)}, gold ${JSON.stringify(gold.text)}`,
        };
      return { ...base, correct: true, hit: true, textOk, why: h.how };
    }
    return { ...base, correct: true, hit: true, why: h.how };
  }
  // `back` gold steps: the format has them, DroidTask uses none.
  return kind === 'back'
    ? { ...base, correct: true, why: 'went back' }
    : { ...base, correct: false, miss: 'wrong_kind', why: `${a.tool} where the gold goes back` };
}
