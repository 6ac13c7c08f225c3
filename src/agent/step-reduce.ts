import type { Action } from '../core/types.js';
import { NOT_CHECKABLE_PAGE_CHANGED } from '../executor/validator.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { addUsage } from '../planner/llm/client.js';
import { consentNote, coveredNote } from '../planner/prompt/format.js';
import { actionSignature, REGISTRY } from '../tools/index.js';
import { swipe } from '../tools/swipe.js';
import { wait } from '../tools/wait.js';
import { cancellable } from './cancel.js';
import type { Executed, Perceived } from './ports.js';
import { type Executed as ExecutedEvent, REPLAN_AFTER_FAILURES, replanDue, scrollVerdict } from './reduce.js';
import { apply, type Session } from './session.js';
import type { StepCtx } from './step-context.js';
import { askedAbout, onScreen, replanOn } from './step-helpers.js';
import { notApplied, subgoalOpen, withPlanNote } from './step-meta.js';
import { breakerKey } from './step-preflight.js';
import type { DecisionSource } from './types.js';

/**
 * An executed action, told to the run (the `executed` event, ./reduce.ts): the history line, the
 * completion evidence, the wait gate, the scroll-end detector, the plan — and, after repeated
 * failures, a new plan. Page memory (outside the run) learns or forgets it here. The post-action
 * read is what the next step decides on.
 */

export async function reduce(
  s: Session,
  ctx: StepCtx,
  planned: PlannedStep,
  source: DecisionSource,
  exec: Executed,
): Promise<Perceived> {
  const { memory } = s.deps;
  const decision = planned.decision;
  const action = decision.action;
  const obs = ctx.seen.obs;
  const goal = s.state.goal;
  // The phone refused the touch because its screen was not this one (a dialog came up, the target
  // moved): the next step decides on the screen as it is now, not on the stale read.
  const post: Perceived =
    exec.post ?? (refusedAsStale(exec) ? await cancellable(s.deps.ports.observe(obs), s.run.signal) : ctx.seen);
  const sig = actionSignature(action);
  const ok = exec.ok;
  const reason = ok ? undefined : (exec.error ?? 'dispatch failed');
  // What an interrupt rule handled, named (its dialog, or what it granted): the history says so.
  const ruleNote = source === 'rule' ? ctx.record.note : undefined;
  const own = source !== 'rule' && source !== 'gate';
  ctx.record.ok = ok;
  ctx.record.signals = exec.signals;
  ctx.record.note = ok ? (source === 'cache' ? 'replayed from page memory' : ctx.record.note) : reason;
  // An expectation without an id is about the element acted on: kept with that id, to re-check later.
  const expect = { ...decision.expect, target_id: decision.expect.target_id ?? exec.target?.id };
  // Fed on every step (it tracks a run of swipes), so it runs before the note is chosen.
  const scroll = trackScroll(s, ctx, exec);
  // Verified although the tree's state stayed put (a map zoomed by pinch): progress, not a loop.
  // (Not a wait or a no-change step: those verify by nothing moving.)
  // An expectation that held before the action (the field already held the text) did nothing:
  // that is no progress, and repeating it is the circle the breaker is for.
  const already = exec.signals?.includes('already_in_state') ?? false;
  const invisible = decision.expect.kind !== 'no_change' && post.compact === ctx.seen.compact && !already;
  // A step right after a failure that does not complete the subgoal (an undo, a back out of a
  // wrong page) answers that failure, not the page: replayed on a later visit it does harm.
  const corrective = s.state.loop.failRun > 0 && !planned.subgoalDone;
  // A burst's later parts come from the rest its first part is remembered with (./flash-burst.ts).
  const remembers = ok && !corrective && own && action.tool !== wait.name && !ctx.burstNext;
  const page = `${ctx.record.subgoal}|${obs.pageHash}`;
  const e: ExecutedEvent = {
    step: ctx.step,
    ok,
    reason,
    expect,
    seen: { obs, compact: ctx.seen.compact },
    post: exec.post?.obs,
    changes: exec.changes,
    entry: onScreen(
      {
        step: ctx.step,
        action: ctx.record.action,
        expect: ctx.record.expect ?? '-',
        ok,
        ...(ok && !exec.checked ? { unchecked: true } : {}),
        note: ok
          ? withPlanNote(
              s,
              planned,
              ruleNote ??
                scroll.note ??
                coveredOf(ctx) ??
                successNote(action, exec) ??
                appChangeNote(planned, obs, exec),
            )
          : withApproval(exec, notApplied(planned, reason ?? '', subgoalOpen(s))),
        ...byOf(source),
      },
      obs,
    ),
    wait: action.tool === wait.name,
    apps: own ? [obs.app.package, exec.post?.obs.app.package].filter((p): p is string => !!p) : [],
    progressed: ok && source === 'llm' && invisible ? { key: breakerKey(ctx), signature: sig } : undefined,
    learned: remembers ? page : undefined,
    closes: ok && planned.subgoalDone,
    through: planned.doneThrough,
    readings: REGISTRY.get(action.tool)?.readings?.(exec.value),
    // A touch the phone refused because its screen was not this one (STALE, OCCLUDED) was never
    // tried on this page: it says nothing against the action here.
    failure:
      !ok && !refusedAsStale(exec) ? { page: obs.pageHash, signature: sig, shown: ctx.record.action } : undefined,
    scroll: scroll.tracker,
  };
  // The plan an action came with goes with it (a Flash first decision's, a burst's that closes the
  // subgoals it covers): replayed, it revises the plan as it did.
  // A `subgoal_done=N` is kept relative to the [>] subgoal: a replay on another run ticks as many.
  const through = planned.doneThrough ?? s.state.current;
  const alsoDone = through > s.state.current ? through - s.state.current : undefined;
  if (remembers)
    memory.remember({
      goal,
      subgoal: ctx.record.subgoal,
      pageHash: obs.pageHash,
      decision,
      subgoalDone: planned.subgoalDone,
      plan: planned.revisedPlan,
      alsoDone,
      burst: ctx.burstRest,
    });
  // Verified replay: a cached action whose expectation fails is forgotten at once.
  if (!ok && source === 'cache') memory.evict(goal, ctx.record.subgoal, obs.pageHash);
  const before = s.state;
  await apply(s, { kind: 'executed', e });
  if (replanDue(before, s.state)) await replanNow(s, ctx, post);
  return post;
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

/** A failed step the user approved still says so: the model must know it was asked and answered. */
function withApproval(exec: Executed, note: string): string {
  const c = exec.consent;
  return c?.kind === 'approved'
    ? `${consentNote('approved', askedAbout(c.request), c.request.categories)}; ${note}`
    : note;
}

/** What the history says after an action that worked: what it read, or what the model should know. */
function successNote(action: Action, exec: Executed): string | undefined {
  const told = REGISTRY.get(action.tool)?.summary;
  if (told) return told(exec.value);
  // Names the control, not "this payment step": approving "Continue to payment" pays nothing.
  if (exec.consent?.kind === 'approved')
    return consentNote('approved', askedAbout(exec.consent.request), exec.consent.request.categories);
  if (exec.signals?.includes('already_in_state')) return 'it was already so: nothing changed';
  if (exec.signals?.includes('not_checkable')) return NOT_CHECKABLE_PAGE_CHANGED;
  if (exec.signals?.includes('only_in_typed_field'))
    return 'the text is only in the field just typed into: nothing else on the page shows it (no result matched?)';
  return undefined;
}

/**
 * A step after which another app is in front (a link opened the browser, a share sheet, back left
 * the app): `met` alone read as "still here" to players (issue 22, item 8), so the line names the app.
 * Not where the step named the app itself (an action with a package, an app_foreground expectation).
 */
function appChangeNote(planned: PlannedStep, before: Perceived['obs'], exec: Executed): string | undefined {
  const { action, expect } = planned.decision;
  if (action.package !== undefined || expect.kind === 'app_foreground') return undefined;
  const now = exec.post?.obs.app.package;
  return now && before.app.package && now !== before.app.package ? `now in ${now}` : undefined;
}

function byOf(source: DecisionSource): { by?: 'rule' | 'replay' | 'gate' } {
  if (source === 'rule') return { by: 'rule' };
  if (source === 'cache') return { by: 'replay' };
  if (source === 'gate') return { by: 'gate' };
  return {};
}

async function replanNow(s: Session, ctx: StepCtx, post: Perceived): Promise<void> {
  const tl = s.perf();
  // The failures themselves go with it (the last steps).
  const r = await replanOn(s, post, `${REPLAN_AFTER_FAILURES} actions in a row failed`);
  ctx.llmMs += s.perf() - tl;
  ctx.usage = addUsage(ctx.usage, r.usage);
  await apply(s, { kind: 'replanned', plan: r.plan, current: r.current, usage: r.usage });
}

/**
 * Swipes through one list in one direction feed the scroll-end detector (DESIGN §4): the page hash
 * changes on every scroll, so "did it move" is not "is there more". Its verdict goes to the model.
 */
function trackScroll(s: Session, ctx: StepCtx, exec: Executed): { note?: string; tracker?: ExecutedEvent['scroll'] } {
  const a = ctx.record.decision?.action;
  if (a?.tool !== swipe.name || !exec.post) return {};
  const key = `${ctx.seen.obs.app.package}|${ctx.seen.obs.app.activity}|${a.direction ?? ''}|${a.target_id ?? ''}`;
  const container = a.target_id ? ctx.seen.obs.elements.find((e) => e.id === a.target_id) : undefined;
  const v = scrollVerdict(s.state, key, container, ctx.seen.obs, exec.post.obs);
  const tracker = { key, tracker: v.tracker };
  if (!v.atEnd) return { tracker };
  ctx.record.signals = [...(ctx.record.signals ?? []), 'scroll_end'];
  return { tracker, note: `the list is at its end (${v.reasons.join(', ')}): scrolling further shows nothing new` };
}
