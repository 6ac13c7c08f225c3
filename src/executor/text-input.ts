import type { Deadline } from '../core/clock.js';
import { distance, type Rect, rectCenter } from '../core/geometry.js';
import type { Logger } from '../core/logger.js';
import type { Element, Receipt, Selector } from '../core/types.js';
import { isInputTextSafe } from '../device/adb/commands.js';
import type { Device, DeviceCall } from '../device/device.js';
import type { WireNode, WireSnapshot } from '../device/protocol/index.js';
import { redactTyped } from './guardrails/pii.js';
import type { Pacer } from './pacing.js';

/**
 * The text ladder (DESIGN §5, article §4.3): set the text on the node (which replaces pre-filled
 * text) → focus, clear, and `input text` for plain ASCII → commit through the IME (Unicode) →
 * ask the user. Every rung is verified by reading the field back. Typed text is logged redacted,
 * a password never.
 */

export type TextRung = 'set_text' | 'ime_commit' | 'input_text' | 'ask_user';

export interface TextResult {
  ok: boolean;
  rung: TextRung;
  receipt: Receipt;
  /** Whether the field was read back and holds exactly the text. */
  verified: boolean;
  /** Rungs tried, with why each was left. */
  tried: { rung: TextRung; result: string }[];
  /** The read that verified the text: a fresh post-action screen the caller may reuse. */
  snap?: WireSnapshot;
  message?: string;
}

export interface TextDeps {
  device: Device;
  logger: Logger;
  pacer: Pacer;
  /** A fresh read of the screen (counted by the executor). */
  read: (d: Deadline) => Promise<WireSnapshot | undefined>;
}

/** What finding a field again needs of a node or an element. */
export interface FieldLike {
  editable: boolean;
  className: string;
  resourceId: string;
  bounds: Rect;
}

/**
 * The field among a fresh screen's `items`: same class and resource id, nearest to where it was (its
 * text changes). A web form may number its fields anew as it re-renders (a WebView's generated ids:
 * `…-control-0001` becomes `…-0003` once typed into): then the field of that class still where it was.
 */
export function findFieldIn<T>(field: Element, items: readonly T[], view: (t: T) => FieldLike): T | undefined {
  const was = rectCenter(field.boundsPx);
  const nearest = (ok: (f: FieldLike) => boolean) => {
    let best: T | undefined;
    let bestD = Number.POSITIVE_INFINITY;
    for (const t of items) {
      const f = view(t);
      if (!f.editable || f.className !== field.className || !ok(f)) continue;
      const d = distance(rectCenter(f.bounds), was);
      if (d < bestD) {
        best = t;
        bestD = d;
      }
    }
    return best;
  };
  const slack = Math.max(8, (field.boundsPx.bottom - field.boundsPx.top) / 2);
  return (
    nearest((f) => f.resourceId === field.resourceId) ?? nearest((f) => distance(rectCenter(f.bounds), was) <= slack)
  );
}

/**
 * The field in a fresh snapshot (findFieldIn); else the one focused editable field, where the app
 * re-created the field it was typing into (a new node elsewhere, which holds what was typed).
 */
export function findField(field: Element, snap: WireSnapshot): WireNode | undefined {
  const same = findFieldIn(field, snap.nodes, (n) => ({
    editable: n.flags.editable,
    className: n.className,
    resourceId: n.resourceId,
    bounds: n.bounds,
  }));
  if (same) return same;
  const focused = snap.nodes.filter((n) => n.flags.editable && n.flags.focused && n.flags.visible);
  return focused.length === 1 ? focused[0] : undefined;
}

export function fieldSelector(field: Element): Selector {
  if (field.resourceId) return { resource_id: field.resourceId, class_name: field.className };
  if (field.desc) return { content_desc: field.desc, class_name: field.className };
  return { class_name: field.className, text: field.text };
}

/** Whether the field now holds `text` (a password field only shows its length, if anything). */
export function holdsText(n: WireNode, text: string): boolean {
  if (n.text === text) return true;
  // An empty field reports its hint as its text on many Android versions: cleared is cleared.
  if (text === '' && n.hint && n.text === n.hint) return true;
  if (n.flags.password) return n.text.length === text.length && /^[•*·●]+$/.test(n.text);
  return false;
}

const NOT_FOUND = 'field not found to read back';

/** One climb of the ladder: what each rung did, and the last device call (a failed climb's receipt). */
interface Climb {
  deps: TextDeps;
  field: Element;
  text: string;
  d: Deadline;
  tried: TextResult['tried'];
  last?: DeviceCall;
}

export async function enterText(deps: TextDeps, field: Element, text: string, d: Deadline): Promise<TextResult> {
  const climb: Climb = { deps, field, text, d, tried: [] };
  const ops = deps.device.capabilities().ops;
  if (ops.has('set_text')) {
    const r = await verifyRung(climb, 'set_text', await setTextCall(climb));
    if (r) return r;
  }
  for (const rung of keyRungs(ops, text)) {
    const r = await typeByKeys(climb, rung);
    if (r === 'stop') break;
    if (r !== 'next') return r;
  }
  return exhausted(climb);
}

/**
 * A field with a resource id is named by it even when focused: the helper then resolves it with
 * Android's view-id query instead of walking the tree (PROTOCOL §7). A focused field without one
 * is "the focused field"; so is a focused one whose id turns out not to be unique on the screen.
 */
async function setTextCall({ deps, field, text, d }: Climb): Promise<DeviceCall> {
  const sel = field.resourceId || !field.flags.focused ? fieldSelector(field) : undefined;
  const call = await deps.device.setText(text, { selector: sel }, d);
  if (sel && field.flags.focused && !call.ok && call.code === 'AMBIGUOUS')
    return deps.device.setText(text, { selector: undefined }, d);
  return call;
}

/**
 * Plain ASCII goes by `input text` first: over adb the IME commit may have to select the base64
 * keyboard for the moment of typing, which the user sees flicker. Other text needs the IME.
 */
function keyRungs(ops: ReadonlySet<string>, text: string): ('ime_commit' | 'input_text')[] {
  const rungs: ('ime_commit' | 'input_text')[] = [];
  if (ops.has('input_text') && isInputTextSafe(text) && text !== '') rungs.push('input_text');
  if (ops.has('ime_commit')) rungs.push('ime_commit');
  return rungs;
}

/**
 * Focus with the cursor at the end, delete what is there (an IME commit inserts), type, verify.
 * `next`: this rung did not work, try the next; `stop`: a focus tap that may have landed ends the climb.
 */
async function typeByKeys(climb: Climb, rung: 'ime_commit' | 'input_text'): Promise<TextResult | 'next' | 'stop'> {
  const { deps, field, text, d } = climb;
  const p = {
    x: Math.round(field.boundsPx.right - 8),
    y: Math.round((field.boundsPx.top + field.boundsPx.bottom) / 2),
  };
  const focus = await deps.device.tap(p, { durationMs: deps.pacer.tapMs() }, d);
  if (!focus.ok) {
    climb.tried.push({ rung, result: `focus failed: ${focus.message}` });
    return focus.receipt.delivery === 'unknown' ? 'stop' : 'next';
  }
  const snap = await deps.read(d);
  const n = snap ? findField(field, snap) : undefined;
  const existing = n && !n.flags.password && n.text !== (n.hint ?? '') ? n.text.length : field.flags.password ? 64 : 0;
  for (let i = 0; i < existing; i++) {
    const k = await deps.device.key('delete', d);
    if (!k.ok) break;
  }
  const call = rung === 'ime_commit' ? await deps.device.imeCommit(text, d) : await deps.device.inputText(text, d);
  return (await verifyRung(climb, rung, call)) ?? 'next';
}

/** A rung's call, checked by reading the field back: the result when it ends the climb, else undefined. */
async function verifyRung(climb: Climb, rung: TextRung, call: DeviceCall): Promise<TextResult | undefined> {
  const { deps, field, text, d, tried } = climb;
  climb.last = call;
  if (!call.ok) {
    tried.push({ rung, result: `${call.code}: ${call.message}` });
    // Input that may have landed must be looked at, not typed again on top.
    if (call.receipt.delivery !== 'unknown') return undefined;
    const message = `${rung} may have typed part of the text; observe the field before retrying`;
    return { ok: false, rung, receipt: call.receipt, verified: false, tried, message };
  }
  const snap = await deps.read(d);
  const n = snap ? findField(field, snap) : undefined;
  if (n && holdsText(n, text)) {
    tried.push({ rung, result: 'verified' });
    deps.logger.info('text entered', { rung, text: redactTyped(text, field.flags.password) });
    return { ok: true, rung, receipt: call.receipt, verified: true, tried, snap };
  }
  const held = field.flags.password ? 'other text' : JSON.stringify(redactTyped(n?.text ?? '', false));
  tried.push({ rung, result: n ? `field holds ${held}` : NOT_FOUND });
  return undefined;
}

/** No rung worked: what each did, and what to do next (the receipt of the last call, or none sent). */
function exhausted({ deps, field, text, d, tried, last }: Climb): TextResult {
  tried.push({ rung: 'ask_user', result: 'no method could enter the text' });
  // A field that could not be read back may well hold the text: the screen says, not the user.
  const unread = tried.some((t) => t.result === NOT_FOUND);
  const next = unread
    ? 'the field was not found to read it back: look at the screen before typing again'
    : 'ask the user to type it';
  const what = field.flags.password ? 'the password' : `"${redactTyped(text, false)}"`;
  const message = `could not enter ${what} into the field (${tried.map((t) => `${t.rung}: ${t.result}`).join('; ')}); ${next}`;
  deps.logger.warn('text ladder exhausted', { tried: tried.map((t) => t.rung).join(',') });
  const base = last?.receipt;
  const error = { code: 'UNSUPPORTED', message } as const;
  const receipt: Receipt = base
    ? { ...base, status: base.delivery === 'delivered' ? 'partial' : base.status, error }
    : {
        status: 'not_started',
        delivery: 'not_delivered',
        method: 'none',
        timings: { startedAt: d.clock.now(), endedAt: d.clock.now() },
        error,
      };
  return { ok: false, rung: 'ask_user', receipt, verified: false, tried, message };
}
