import type { Decision, Observation } from '../core/types.js';
import { stateMatches } from '../executor/element-state.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { matchInterrupt } from '../planner/interrupts.js';
import { addUsage } from '../planner/llm/client.js';
import { actionSignature, REGISTRY } from '../tools/index.js';
import { decideRequest } from './decide-request.js';
import type { BurstPart } from './flash-burst.js';
import { pendingPart } from './flash-burst-step.js';
import { knowledgeLines } from './knowledge.js';
import { gateSkips, interruptMayTry } from './reduce.js';
import { bannedOn, standingApproval } from './run-state.js';
import { apply, type Session } from './session.js';
import type { StepCtx } from './step-context.js';
import { GATE_WAIT, hashText } from './step-helpers.js';
import type { DecisionSource } from './types.js';

/**
 * Choose the step's decision (DESIGN §1): an interrupt rule, then the wait gate, then the rest of a
 * burst that crossed a page, then a verified replay from page memory, then the model. What the model got wrong comes back as the next prompt's
 * hint with its reason, never as a history line it did not send.
 */

const MAX_INVALID = 3;

export type Choice =
  | {
      kind: 'decided';
      planned: PlannedStep;
      source: DecisionSource;
      ruleNote?: string;
      ruleLabel?: string;
      /** The next part of the model's burst, grounded on this screen (./flash-burst.ts). */
      part?: BurstPart;
    }
  | { kind: 'end'; status: 'ask_user' | 'failed'; reason: string }
  | { kind: 'retry'; reason: string };

export async function choose(s: Session, ctx: StepCtx): Promise<Choice> {
  const obs = ctx.seen.obs;
  const st = s.state;
  const interrupt = matchInterrupt(obs, { goal: st.goal, taskApps: new Set(st.taskApps) }, REGISTRY.catalog);
  // A prompt the rule may not answer (a permission it may not grant) is the user's decision.
  if (interrupt?.kind === 'hand_over') return { kind: 'end', status: 'ask_user', reason: interrupt.reason };
  if (interrupt) {
    const mayTry = interruptMayTry(st, interrupt.key);
    await apply(s, { kind: 'interrupt_tried', key: interrupt.key });
    if (!mayTry)
      return {
        kind: 'end',
        status: 'ask_user',
        reason: `a ${interrupt.kind} dialog did not go away after 3 tries; please dismiss it and resume`,
      };
    return {
      kind: 'decided',
      planned: { decision: interrupt.decision, subgoalDone: false },
      source: 'rule',
      ruleNote: interrupt.reason,
      ruleLabel: interrupt.label,
    };
  }
  const w = st.loop.waiting;
  if (w && w.count < 3 && (await unchangedSinceWait(s, ctx)))
    return { kind: 'decided', planned: GATE_WAIT, source: 'gate' };
  // The rest of a burst that crossed a page: the model's own decision, grounded on this screen.
  const part = await pendingPart(s, ctx);
  if (part?.kind === 'part')
    return {
      kind: 'decided',
      planned: part.planned,
      source: 'llm',
      ruleNote: 'the rest of your action_sequence, grounded on this screen by label',
      part,
    };
  const replay = await replayFromMemory(s, ctx);
  if (replay) return replay;
  return askModel(s, ctx);
}

/** The frame gate (blockhash distance) when frames exist, else the compact view verbatim. */
async function unchangedSinceWait(s: Session, ctx: StepCtx): Promise<boolean> {
  const hash = ctx.seen.obs.frameHash;
  if (!hash) return s.state.loop.waiting?.compact === ctx.seen.compact;
  const skip = gateSkips(s.state, hash);
  await apply(s, { kind: 'gate_checked', hash });
  return skip;
}

async function replayFromMemory(s: Session, ctx: StepCtx): Promise<Choice | undefined> {
  const { memory } = s.deps;
  const st = s.state;
  const page = ctx.seen.obs.pageHash;
  const hit = memory.lookup(st.goal, ctx.record.subgoal, page);
  if (!hit) return undefined;
  // A page replayed twice in one run means the cache is going round a cycle: drop the entry. An
  // entry this run learned itself is not replayed on it either (the model just did that action).
  const key = `${ctx.record.subgoal}|${page}`;
  if (st.replayed.includes(key)) {
    if (!st.learned.includes(key)) memory.evict(st.goal, ctx.record.subgoal, page);
    return undefined;
  }
  if (bannedOn(st, page).signatures.includes(actionSignature(hit.decision.action))) return undefined;
  // The page hash ignores checked state: a remembered toggle would switch an already-right switch
  // back. What the entry expects already holds, so there is nothing to replay; the model decides.
  if (alreadyInExpectedState(hit.decision, ctx.seen.obs)) return undefined;
  await apply(s, { kind: 'replayed', key });
  // The plan the remembered action came with is replayed with it: a Flash run with no plan yet gets
  // its plan (page-memory replay first), a burst closes the subgoals it covered.
  const revisedPlan = hit.plan;
  const planned = {
    decision: hit.decision,
    subgoalDone: hit.subgoalDone,
    ...(hit.alsoDone ? { doneThrough: st.current + hit.alsoDone } : {}),
    ...(revisedPlan ? { revisedPlan } : {}),
  };
  // The first part of a burst brings the rest it went on with: grounded by label, as it was then.
  const part: BurstPart | undefined = hit.burst && {
    kind: 'part',
    planned,
    rest: structuredClone(hit.burst),
    before: [],
    first: 1,
  };
  return { kind: 'decided', planned, source: 'cache', ...(part ? { part } : {}) };
}

/** A remembered `element_state` step whose element is already in that state on this screen. */
function alreadyInExpectedState(d: Decision, obs: Observation): boolean {
  if (d.expect.kind !== 'element_state' || !d.expect.state) return false;
  const id = d.expect.target_id ?? d.action.target_id;
  const e = id ? obs.elements.find((x) => x.id === id) : undefined;
  return !!e && stateMatches(e, d.expect.state);
}

async function askModel(s: Session, ctx: StepCtx): Promise<Choice> {
  const { ports, planner } = s.deps;
  const obs = ctx.seen.obs;
  const st = s.state;
  const tl = s.perf();
  const banned = bannedOn(st, obs.pageHash);
  // A look's screenshot goes with the next decision, and only on the screen it was taken of.
  const look = st.loop.look?.screen === screenKey(ctx.seen) ? st.loop.look : undefined;
  const res = await planner.decide(
    decideRequest(ports, {
      goal: st.goal,
      plan: st.plan.map((p) => ({ ...p })),
      current: st.current,
      seen: ctx.seen,
      history: st.history.slice(-5),
      banned: banned.signatures,
      bannedShown: banned.shown,
      look: look && { url: look.url, of: look.of },
      notes: [...st.notes],
      knowledge: knowledgeLines(s.deps.knowledge, obs, st.goal),
      apps: s.run.apps,
      hint: st.loop.hint,
      approval: standingApproval(st),
      // Flash: its first decision carries the plan, and certain steps may go as one burst.
      planPending: st.planPending,
      bursts: st.mode === 'flash',
      maxBurst: st.settings.maxBurstActions,
    }),
    s.run.signal,
  );
  ctx.llmMs += s.perf() - tl;
  ctx.usage = addUsage(ctx.usage, res.usage);
  await apply(s, { kind: 'usage', usage: res.usage });
  await apply(s, { kind: 'model_answered', rejected: res.ok ? undefined : res.error });
  if (!res.ok) {
    if (s.state.loop.invalidRun >= MAX_INVALID)
      return {
        kind: 'end',
        status: 'failed',
        reason: `the model gave no valid action ${MAX_INVALID} times: ${res.error}`,
      };
    // The reason goes to the next prompt; the history keeps only what was really done.
    return { kind: 'retry', reason: res.error };
  }
  return { kind: 'decided', planned: res.step, source: 'llm' };
}

/** Which screen a perception is (a look's screenshot is for the next decision on that screen only). */
export function screenKey(p: { obs: Observation; compact: string }): string {
  return `${p.obs.pageHash}:${hashText(p.compact)}:${p.obs.frameHash ?? ''}`;
}
