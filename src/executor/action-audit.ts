import type { Action, Element, Expect, Observation } from '../core/types.js';
import { entersText } from './act-kind.js';
import { wrongLanding } from './landing.js';
import { memberPresses, sequenceMembers } from './native-args.js';
import {
  actionableOwner,
  commitsSomething,
  describeChange,
  labelOf,
  type StateChange,
  sameControl,
  samePage,
  stateChanges,
  undoSteps,
} from './side-effects.js';
import type { ToolTable } from './tool-spec.js';

/**
 * A second look at an action after the expectation check (DESIGN §5 "signals, not the model's
 * word"): the expectation can hold by accident, and a failed action can still have changed
 * things. Decided from the element really acted on (the id, or what a point hit) versus the
 * element the expectation names:
 * - a navigating tap on another element than the named one, whose new page is about the tapped
 *   element, opened the wrong thing — even though "element_gone <named>" holds;
 * - when the wrong element was acted on, or the expectation failed, every state change on the same
 *   page other than the named element's (a ticked option, a bumped quantity) is reported with the
 *   steps that undo it — and an expectation that held is overruled;
 * - a field focused by mistake (keyboard up) is undone with back; a wrong element that left the
 *   page, or a committing control (Save, Add…) hit by mistake, is reported, and the latter kept as
 *   a `pressed` mistake for the completion check (its effect is elsewhere, so it is never "undone").
 */

export interface AuditInput {
  expect: Expect;
  pre: Observation;
  post: Observation;
  action: Action;
  /** The registry's table: what the action's tool does (it typed into a field, say) decides what was asked. */
  tools: ToolTable;
  /** The element acted on, as grounded on `pre` (a point's hit included). */
  acted?: Element;
  /** Whether the expectation held. */
  expectationHeld: boolean;
  /** A person (or policy) approved this very action (a guarded send, delete…). */
  approved?: boolean;
}

export interface Audit {
  /** Set when an expectation that held must be overruled: the action did something else. */
  fail?: string;
  /** Sentence to append to the failure reason (changes made and how to undo them). */
  addendum?: string;
  /** Unintended changes on the page (for the completion check). */
  changes: StateChange[];
  /** Planner-form actions that undo them. */
  undo: string[];
}

const NAMES_TARGET = new Set(['element_state', 'element_gone']);

const pressed = (e: Element): StateChange => ({
  kind: 'pressed',
  id: e.id,
  label: labelOf(e),
  from: '',
  to: 'pressed',
});

/** The element hit and the element the expectation named, when they are different controls. */
interface Miss {
  acted: Element;
  named: Element;
}

const tapped = (e: Element) => `"${labelOf(e)}" [${e.id}]`;

export function auditAction(i: AuditInput): Audit {
  const acted = actionableOwner(i.acted, i.pre);
  const namedId = NAMES_TARGET.has(i.expect.kind) ? i.expect.target_id : undefined;
  const named = actionableOwner(namedId ? i.pre.elements.find((e) => e.id === namedId) : undefined, i.pre);
  // An approved action aimed by id that hit that id is the one the user said yes to: the element
  // an expect names (a field emptied by Send) is a consequence to check, never the intended target.
  const approvedHit = !!i.approved && !!i.action.target_id && i.acted?.id === i.action.target_id;
  const miss = !approvedHit && acted && named && !sameControl(acted, named) ? { acted, named } : undefined;
  if (miss) {
    const audit = missAudit(i, miss);
    if (audit) return audit;
  } else if (i.expectationHeld) return { changes: [], undo: [] };
  return changesAudit(i, acted, named, miss);
}

/** What hitting the wrong control did to the page, when that alone says what happened. */
function missAudit(i: AuditInput, { acted, named }: Miss): Audit | undefined {
  const { pre, post } = i;
  if (i.expectationHeld) {
    const w = samePage(pre, post) ? undefined : wrongLanding(post, acted, named);
    if (!w) return undefined;
    const fail = `the tap landed on ${tapped(acted)}, not on ${tapped(named)}: the page it opened is about "${w.shared.join(' ')}" — wrong page; go back`;
    return { fail, changes: [], undo: [] };
  }
  // A field focused by mistake: the keyboard now covers half the page (and its ids moved).
  const samePackage = post.app.package === pre.app.package && post.app.activity === pre.app.activity;
  if (acted.flags.editable && post.keyboard.shown && !pre.keyboard.shown && samePackage)
    return {
      addendum: `the action hit the field ${tapped(acted)} instead of ${tapped(named)} and opened the keyboard; undo: back expect page_changes`,
      changes: [],
      undo: ['back expect page_changes'],
    };
  // The wrong element took the phone elsewhere: whatever it does (save, send, add) may have happened.
  if (samePage(pre, post)) return undefined;
  const where = post.app.title || `${post.app.package}${post.app.activity}`;
  return {
    addendum: `the action hit ${tapped(acted)} instead of ${tapped(named)} and left the page (now "${where}"): check what "${labelOf(acted)}" did before going on`,
    changes: commitsSomething(acted) ? [pressed(acted)] : [],
    undo: [],
  };
}

/** The state changes on the page that nobody asked for, and how to undo them. */
function changesAudit(i: AuditInput, acted: Element | undefined, named: Element | undefined, miss?: Miss): Audit {
  // The named element's own change is the announced one — unless the expectation failed and it
  // flipped: a switch has two states, so that flip went the wrong way.
  const byId = new Map(i.pre.elements.map((e) => [e.id, e]));
  // A sequence's members that pressed a control asked for its change (a burst's "Dark theme" click),
  // whatever the sequence's one expectation said (relay: a Flash burst told to undo its own goal).
  const pressedByMembers = new Set(
    sequenceMembers(i.action, i.pre)
      .filter(memberPresses)
      .flatMap((m) => (m.element ? [m.element.id] : [])),
  );
  const changes = stateChanges(i.pre, i.post).filter((c) => {
    if (c.id && pressedByMembers.has(c.id)) return false;
    // Text typed into a field is the change asked for (a search, a name), never an unasked edit.
    if (c.kind === 'field' && entersText(i.tools.get(i.action.tool), i.action) && acted && c.id === acted.id)
      return false;
    if (!named || !c.id || (!i.expectationHeld && c.kind === 'checked')) return true;
    const e = byId.get(c.id);
    return !e || !sameControl(e, named);
  });
  if (changes.length === 0) {
    // Nothing visible changed here, but a committing control hit by mistake acts elsewhere.
    // (Only when the expectation failed: "tap OK, expect the dialog's title gone" is a normal pattern.)
    if (!miss || i.expectationHeld || !commitsSomething(miss.acted)) return { changes, undo: [] };
    const sentence = `the action hit ${tapped(miss.acted)} instead of ${tapped(miss.named)}: check what "${labelOf(miss.acted)}" did`;
    return { addendum: sentence, changes: [pressed(miss.acted)], undo: [] };
  }
  const undo = undoSteps(changes, acted, i.post);
  const what = changes.map(describeChange).join(', ');
  const undoText = undo.length ? `; undo: ${undo.join('; ')}` : '; check it and set it back';
  const hit = miss ? `the action hit ${tapped(miss.acted)} instead of ${tapped(miss.named)} and ` : 'the action ';
  const sentence = `${hit}changed ${what} unasked${undoText}`;
  return i.expectationHeld ? { fail: sentence, changes, undo } : { addendum: sentence, changes, undo };
}

/** Merge an audit into a validator outcome (the shape the loop's ports use). */
export function applyAudit<T extends { ok: boolean; signals: string[]; reason?: string }>(out: T, audit: Audit): T {
  if (audit.fail) return { ...out, ok: false, signals: [...out.signals, 'audit_failed'], reason: audit.fail };
  if (audit.addendum && !out.ok)
    return {
      ...out,
      signals: [...out.signals, 'side_effects'],
      reason: `${out.reason ?? 'failed'}; ${audit.addendum}`,
    };
  return out;
}
