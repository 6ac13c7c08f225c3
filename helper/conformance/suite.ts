import type { ErrorCode } from '../../src/core/types.js';
import type { ActionReceipt } from '../../src/device/protocol/receipt.js';
import type { Hello, WireNode, WireSnapshot } from '../../src/device/protocol/wire.js';
import type { ConformanceClient } from './client.js';

/** Shared pieces of the conformance checks: state passed between checks, assertions, node finders. */

export interface SuiteState {
  hello?: Hello;
  settingsPackage?: string;
  /** Selector of Settings' main scrollable list. */
  list?: { resource_id?: string; class_name: string };
  /** Selector of an editable field reached from Settings. */
  edit?: { resource_id?: string; class_name: string };
}

export interface Ctx {
  client: ConformanceClient;
  state: SuiteState;
  /** Notes a check adds to its result (what it did, on which node). */
  note(line: string): void;
}

export interface Check {
  name: string;
  run(ctx: Ctx): Promise<void>;
}

export class CheckFailed extends Error {}

export function expect(cond: unknown, message: string): asserts cond {
  if (!cond) throw new CheckFailed(message);
}

export function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new CheckFailed(`prerequisite missing: ${what} (an earlier check failed)`);
  return v;
}

export function brief(v: unknown): string {
  return JSON.stringify(v).slice(0, 400);
}

export function expectStatus(r: ActionReceipt, statuses: ActionReceipt['status'][], what: string): void {
  expect(
    statuses.includes(r.status) && (r.status === 'partial' || !r.error),
    `${what}: expected status ${statuses.join('|')} without error, got ${brief({ status: r.status, error: r.error })}`,
  );
}

export function expectCode(r: ActionReceipt, code: ErrorCode, what: string): void {
  expect(r.error?.code === code, `${what}: expected error ${code}, got ${brief({ status: r.status, error: r.error })}`);
}

/** Nodes of the foreground app's application windows. */
export function appNodes(snap: WireSnapshot): WireNode[] {
  const wins = new Set(
    snap.windows.filter((w) => w.type === 'application' && w.package === snap.foreground.package).map((w) => w.id),
  );
  return snap.nodes.filter((n) => wins.has(n.window) && n.flags.visible);
}

export function count(snap: WireSnapshot, pred: (n: WireNode) => boolean): number {
  return snap.nodes.filter((n) => n.flags.visible && pred(n)).length;
}

/** A visible node with text whose text is unique on the whole screen. */
export function uniqueTextNode(snap: WireSnapshot, pred: (n: WireNode) => boolean = () => true): WireNode | undefined {
  return appNodes(snap).find(
    (n) => n.text.trim() !== '' && pred(n) && count(snap, (m) => m.text === n.text) === 1 && !n.flags.password,
  );
}

export function center(n: WireNode): { x: number; y: number } {
  return {
    x: Math.round((n.bounds.left + n.bounds.right) / 2),
    y: Math.round((n.bounds.top + n.bounds.bottom) / 2),
  };
}

/**
 * Retry `fn` until it yields a value. Time passes through the protocol's own `wait_until stable`, so
 * the device's clock decides (a virtual phone under a virtual clock advances exactly as needed).
 */
export async function poll<T>(ctx: Ctx, what: string, fn: () => Promise<T | undefined>, tries = 12): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await settle(ctx);
  }
  throw new CheckFailed(`gave up waiting for ${what}`);
}

/** Wait until the screen holds still (a transition has ended), via the protocol's own wait. */
export async function settle(ctx: Ctx): Promise<void> {
  await ctx.client.action({ action: 'wait_until', condition: 'stable', stable_ms: 400, timeout_ms: 5_000 });
}

/** A selector for a node: its resource id when unique, else its short class name (must then be unique). */
export function selectorFor(snap: WireSnapshot, n: WireNode): { resource_id?: string; class_name: string } {
  const short = n.className.slice(n.className.lastIndexOf('.') + 1);
  if (n.resourceId && count(snap, (m) => m.resourceId === n.resourceId) === 1)
    return { resource_id: n.resourceId, class_name: n.className };
  return { class_name: short };
}

export type ListSelector = NonNullable<SuiteState['list']>;

/** Scroll the list back to its top (earlier gestures may have moved it). */
export async function toTop(ctx: Ctx, list: ListSelector): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const r = await ctx.client.action({
      action: 'control_action',
      request: { selector: list, action: 'scroll_backward' },
    });
    if (r.status !== 'completed') break;
  }
  await settle(ctx);
}
