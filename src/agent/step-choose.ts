import type { Decision, Observation } from '../core/types.js';
import { stateMatches } from '../executor/element-state.js';
import type { PlannedStep } from '../planner/act-tool.js';
import { matchInterrupt } from '../planner/interrupts.js';
import { addUsage } from '../planner/llm/client.js';
import { actionSignature } from '../tools/index.js';
import { decideRequest } from './decide-request.js';
import type { Session } from './session.js';
import type { StepCtx } from './step-context.js';
import { GATE_WAIT } from './step-helpers.js';
import type { DecisionSource } from './types.js';

/**
 * Choose the step's decision (DESIGN §1): an interrupt rule, then the wait gate, then a verified
 * replay from page memory, then the model. What the model got wrong comes back as the next prompt's
 * hint with its reason, never as a history line it did not send.
 */

const MAX_INVALID = 3;

export type Choice =
  | { kind: 'decided'; planned: PlannedStep; source: DecisionSource; ruleNote?: string; ruleLabel?: string }
  | { kind: 'end'; status: 'ask_user' | 'failed'; reason: string }
  | { kind: 'retry'; reason: string };

export async function choose(s: Session, ctx: StepCtx): Promise<Choice> {
  const obs = ctx.seen.obs;
  const interrupt = matchInterrupt(obs, { goal: s.run.goal, taskApps: s.mem.taskApps });
  // A prompt the rule may not answer (a permission it may not grant) is the user's decision.
  if (interrupt?.kind === 'hand_over') return { kind: 'end', status: 'ask_user', reason: interrupt.reason };
  if (interrupt) {
    if (!s.mem.interrupts.attempt(interrupt.key))
      return {
        kind: 'end',
        status: 'ask_user',
        reason: `a ${interrupt.kind} dialog did not go away after 3 tries; please dismiss it and resume`,
      };
    s.result.ruleActions++;
    return {
      kind: 'decided',
      planned: { decision: interrupt.decision, subgoalDone: false },
      source: 'rule',
      ruleNote: interrupt.reason,
      ruleLabel: interrupt.label,
    };
  }
  const w = s.loop.waiting;
  if (w && w.count < 3 && unchangedSinceWait(w, ctx)) return { kind: 'decided', planned: GATE_WAIT, source: 'gate' };
  const replay = replayFromMemory(s, ctx);
  if (replay) return replay;
  return askModel(s, ctx);
}

/** The frame gate (blockhash distance) when frames exist, else the compact view verbatim. */
function unchangedSinceWait(w: NonNullable<Session['loop']['waiting']>, ctx: StepCtx): boolean {
  const hash = ctx.seen.obs.frameHash;
  if (hash) return w.gate.check(hash).skip;
  return w.compact === ctx.seen.compact;
}

function replayFromMemory(s: Session, ctx: StepCtx): Choice | undefined {
  const { memory } = s.deps;
  const page = ctx.seen.obs.pageHash;
  const hit = memory.lookup(s.run.goal, ctx.record.subgoal, page);
  if (!hit) return undefined;
  // A page replayed twice in one run means the cache is going round a cycle: drop the entry. An
  // entry this run learned itself is not replayed on it either (the model just did that action).
  const key = `${ctx.record.subgoal}|${page}`;
  if (s.mem.replayed.has(key)) {
    if (!s.mem.learned.has(key)) memory.evict(s.run.goal, ctx.record.subgoal, page);
    return undefined;
  }
  if (s.mem.blacklist.isBanned(page, actionSignature(hit.decision.action))) return undefined;
  // The page hash ignores checked state: a remembered toggle would switch an already-right switch
  // back. What the entry expects already holds, so there is nothing to replay; the model decides.
  if (alreadyInExpectedState(hit.decision, ctx.seen.obs)) return undefined;
  s.mem.replayed.add(key);
  s.result.cacheHits++;
  return { kind: 'decided', planned: { decision: hit.decision, subgoalDone: hit.subgoalDone }, source: 'cache' };
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
  const tl = s.perf();
  const banned = s.mem.blacklist.signatures(obs.pageHash);
  // A look's screenshot goes with the next decision, and only on the screen it was taken of.
  const look = s.loop.look?.seen === ctx.seen ? s.loop.look : undefined;
  s.loop.look = undefined;
  const res = await planner.decide(
    decideRequest(ports, {
      goal: s.run.goal,
      plan: s.plan,
      current: s.current,
      seen: ctx.seen,
      history: s.mem.history.recent(5),
      banned,
      bannedShown: banned.map((sig) => s.mem.blacklist.shownAs(sig)),
      look: look && { url: look.url, of: look.of },
      notes: s.mem.notes,
      apps: s.run.apps,
      hint: s.loop.hint,
      approval: s.mem.approval,
    }),
  );
  ctx.llmMs += s.perf() - tl;
  ctx.usage = addUsage(ctx.usage, res.usage);
  s.total = addUsage(s.total, res.usage);
  if (!res.ok) {
    if (++s.loop.invalidRun >= MAX_INVALID)
      return {
        kind: 'end',
        status: 'failed',
        reason: `the model gave no valid action ${MAX_INVALID} times: ${res.error}`,
      };
    // The reason goes to the next prompt; the history keeps only what was really done.
    s.loop.hint = `Your last reply was rejected: ${res.error}. Reply with one valid act call.`;
    return { kind: 'retry', reason: res.error };
  }
  s.loop.invalidRun = 0;
  s.loop.hint = undefined;
  return { kind: 'decided', planned: res.step, source: 'llm' };
}
