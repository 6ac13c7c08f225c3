import type { Action } from '../core/types.js';
import { isLauncherPackage } from '../device/app-label.js';
import { ScrollEndTracker } from '../perception/scroll-end.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { addUsage } from '../planner/llm/client.js';
import { consentNote, coveredNote } from '../planner/prompt/format.js';
import { actionSignature, REGISTRY } from '../tools/index.js';
import type { Executed, Perceived } from './ports.js';
import { type Session, waitGate } from './session.js';
import type { StepCtx } from './step-context.js';
import { askedAbout, replan } from './step-helpers.js';
import { closeCurrent, notApplied } from './step-meta.js';
import { breakerKey } from './step-preflight.js';
import type { DecisionSource } from './types.js';

/**
 * Fold an executed action into the run: the history line, the completion evidence, the wait gate,
 * the scroll-end detector, page memory, the plan, and — after repeated failures — a new plan. The
 * post-action read becomes the next step's perception.
 */

const REPLAN_AFTER_FAILURES = 4;
const MAX_REPLANS = 2;

export async function reduce(
  s: Session,
  ctx: StepCtx,
  planned: PlannedStep,
  source: DecisionSource,
  exec: Executed,
): Promise<void> {
  const { memory } = s.deps;
  const decision = planned.decision;
  const action = decision.action;
  const obs = ctx.seen.obs;
  // The phone refused the touch because its screen was not this one (a dialog came up, the target
  // moved): the next step decides on the screen as it is now, not on the stale read.
  const post: Perceived = exec.post ?? (refusedAsStale(exec) ? await s.deps.ports.observe(obs) : ctx.seen);
  const sig = actionSignature(action);
  const ok = exec.ok;
  const reason = ok ? undefined : (exec.error ?? 'dispatch failed');
  // What an interrupt rule handled, named (its dialog, or what it granted): the history says so.
  const ruleNote = source === 'rule' ? ctx.record.note : undefined;
  if (source !== 'rule' && source !== 'gate') noteTaskApps(s, [obs.app.package, exec.post?.obs.app.package]);
  ctx.record.ok = ok;
  ctx.record.signals = exec.signals;
  ctx.record.note = ok ? (source === 'cache' ? 'replayed from page memory' : ctx.record.note) : reason;
  // An expectation without an id is about the element acted on: kept with that id, to re-check later.
  const expect = { ...decision.expect, target_id: decision.expect.target_id ?? exec.target?.id };
  s.mem.completion.record({ ok, reason, expect }, exec.post?.obs, exec.changes);
  // Fed on every step (it tracks a run of swipes), so it runs before the note is chosen.
  const scrollNote = trackScroll(s, ctx, exec);
  s.mem.history.add({
    step: ctx.step,
    action: ctx.record.action,
    expect: ctx.record.expect ?? '-',
    ok,
    ...(ok && !exec.checked ? { unchecked: true } : {}),
    note: ok
      ? (ruleNote ?? scrollNote ?? coveredOf(ctx) ?? successNote(action, exec))
      : notApplied(planned, reason ?? ''),
    ...byOf(source),
  });
  s.loop.waiting =
    action.tool === 'wait'
      ? {
          gate: s.loop.waiting?.gate ?? waitGate(ctx.seen),
          compact: s.loop.waiting?.compact ?? ctx.seen.compact,
          count: (s.loop.waiting?.count ?? 0) + 1,
        }
      : undefined;

  if (ok) {
    // Verified although the tree's state stayed put (a map zoomed by pinch): progress, not a loop.
    // (Not a wait or a no-change step: those verify by nothing moving.)
    // An expectation that held before the action (the field already held the text) did nothing:
    // that is no progress, and repeating it is the circle the breaker is for.
    const already = exec.signals?.includes('already_in_state') ?? false;
    const invisible = decision.expect.kind !== 'no_change' && post.compact === ctx.seen.compact && !already;
    if (source === 'llm' && invisible) s.mem.breaker.progressed(breakerKey(ctx), sig);
    // A step right after a failure that does not complete the subgoal (an undo, a back out of a
    // wrong page) answers that failure, not the page: replayed on a later visit it does harm.
    const corrective = s.loop.failRun > 0 && !planned.subgoalDone;
    s.loop.failRun = 0;
    if (!corrective && source !== 'rule' && source !== 'gate' && action.tool !== 'wait') {
      memory.remember(s.run.goal, ctx.record.subgoal, obs.pageHash, decision, planned.subgoalDone);
      // Learned now, replayed on a later run: on this run the model has just done it.
      s.mem.replayed.add(`${ctx.record.subgoal}|${obs.pageHash}`);
      s.mem.learned.add(`${ctx.record.subgoal}|${obs.pageHash}`);
    }
    if (planned.subgoalDone) closeCurrent(s);
  } else {
    // A touch the phone refused because its screen was not this one (STALE, OCCLUDED) was never
    // tried on this page: it says nothing against the action here.
    if (!refusedAsStale(exec)) s.mem.blacklist.recordFailure(obs.pageHash, sig, ctx.record.action);
    // Verified replay: a cached action whose expectation fails is forgotten at once.
    if (source === 'cache') memory.evict(s.run.goal, ctx.record.subgoal, obs.pageHash);
    if (++s.loop.failRun >= REPLAN_AFTER_FAILURES && s.loop.replans < MAX_REPLANS) await replanNow(s, ctx, post);
  }
  s.cur = post;
}

function refusedAsStale(exec: Executed): boolean {
  const code = exec.receipt?.error?.code;
  return exec.receipt?.delivery === 'not_delivered' && (code === 'STALE' || code === 'OCCLUDED');
}

/** A tap the user's earlier approval covered (the confirmation dialog that action opened). */
function coveredOf(ctx: StepCtx): string | undefined {
  const a = ctx.covered;
  return a ? coveredNote(askedAbout({ summary: a.summary, package: a.package }), a.step) : undefined;
}

/** What the history says after an action that worked: what it read, or what the model should know. */
function successNote(action: Action, exec: Executed): string | undefined {
  const told = REGISTRY.get(action.tool)?.summary;
  if (told) return told(exec.value);
  // Names the control, not "this payment step": approving "Continue to payment" pays nothing.
  if (exec.consent?.kind === 'approved')
    return consentNote('approved', askedAbout(exec.consent.request), exec.consent.request.categories);
  if (exec.signals?.includes('already_in_state')) return 'it was already so: nothing changed';
  return undefined;
}

/** The apps the run's own actions were in or brought up (never the home screen). */
function noteTaskApps(s: Session, packages: (string | undefined)[]): void {
  for (const p of packages) if (p && !isLauncherPackage(p)) s.mem.taskApps.add(p);
}

function byOf(source: DecisionSource): { by?: 'rule' | 'replay' | 'gate' } {
  if (source === 'rule') return { by: 'rule' };
  if (source === 'cache') return { by: 'replay' };
  if (source === 'gate') return { by: 'gate' };
  return {};
}

async function replanNow(s: Session, ctx: StepCtx, post: Perceived): Promise<void> {
  s.loop.replans++;
  s.loop.failRun = 0;
  const tl = s.perf();
  const r = await replan(s.deps.planner, {
    goal: s.run.goal,
    plan: s.plan,
    screen: post.compact,
    aspect: post.obs.screen.aspect,
    apps: s.run.apps,
    reason: `${REPLAN_AFTER_FAILURES} actions in a row failed`,
    // The failures themselves, with their reasons: a plan revised blind repeats them.
    history: s.mem.history.recent(),
  });
  ctx.llmMs += s.perf() - tl;
  ctx.usage = addUsage(ctx.usage, r.usage);
  s.total = addUsage(s.total, r.usage);
  s.plan = r.plan;
  s.current = r.current;
}

/**
 * Swipes through one list in one direction feed the scroll-end detector (DESIGN §4): the page hash
 * changes on every scroll, so "did it move" is not "is there more". Its verdict goes to the model.
 */
function trackScroll(s: Session, ctx: StepCtx, exec: Executed): string | undefined {
  const a = ctx.record.decision?.action;
  if (a?.tool !== 'swipe' || !exec.post) {
    s.loop.scroll = undefined;
    return undefined;
  }
  const key = `${ctx.seen.obs.app.package}|${ctx.seen.obs.app.activity}|${a.direction ?? ''}|${a.target_id ?? ''}`;
  if (s.loop.scroll?.key !== key) {
    const container = a.target_id ? ctx.seen.obs.elements.find((e) => e.id === a.target_id) : undefined;
    s.loop.scroll = { key, tracker: new ScrollEndTracker(container) };
    s.loop.scroll.tracker.record(ctx.seen.obs);
  }
  const v = s.loop.scroll.tracker.record(exec.post.obs);
  if (!v.atEnd) return undefined;
  ctx.record.signals = [...(ctx.record.signals ?? []), 'scroll_end'];
  return `the list is at its end (${v.reasons.join(', ')}): scrolling further shows nothing new`;
}
