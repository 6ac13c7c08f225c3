import { readdir } from 'node:fs/promises';
import { ActionableError } from '../core/errors.js';
import { CompletionTracker } from '../executor/completion.js';
import { addUsage, emptyUsage } from '../planner/llm/client.js';
import { Blacklist } from '../planner/memory/blacklist.js';
import { History } from '../planner/memory/history.js';
import { lastJournalEntry } from '../store/action-journal.js';
import { type Checkpoint, CheckpointStore } from '../store/checkpoint.js';
import { RunArchive } from '../store/run-archive.js';
import { actionSignature, describeAction } from '../tools/index.js';
import { DEFAULT_LISTENERS } from './listeners.js';
import { drive } from './loop.js';
import { judgeInFlight, reconcileAction, reconciledRecord } from './reconcile.js';
import { maskSecrets } from './secrets.js';
import { type AgentDeps, emptyResult, freshLoop, freshMemory, type Session } from './session.js';
import { replan, screenState } from './step-helpers.js';
import type { RunResult } from './types.js';

/**
 * Resume a run from its folder (DESIGN §6): re-observe; the action in flight when the run died
 * (journaled, its result never recorded) is judged on screen before the model decides anything —
 * an irreversible intent by reconcileIntent below, any other by ./reconcile.ts — and never
 * blindly repeated; a screen other than the one the run stopped on (and not explained by that
 * action) gets a new plan from where the phone is now. Steps continue their numbering.
 */

export interface ResumeOptions {
  runDir: string;
  /** The original task text, needed only when it held a credential (never stored). */
  goal?: string;
  /** Steps granted beyond the run's budget (needed to resume a run that used it up). */
  extraSteps?: number;
}

const ENDED: ReadonlySet<Checkpoint['status']> = new Set(['done', 'failed', 'infeasible', 'dry_run']);
const SECRET = /⟨secret\d+⟩/;

export async function resumeAgent(deps: AgentDeps, o: ResumeOptions): Promise<RunResult> {
  const checkpoint = await CheckpointStore.load(o.runDir);
  const c = structuredClone(checkpoint.data);
  if (ENDED.has(c.status))
    throw new ActionableError(
      'RESUME',
      `run ${c.runId} already ended (${c.status}${c.reason ? `: ${c.reason}` : ''})`,
      'start a new run with `phone-agent run`',
    );
  const secrets = secretsFor(c, o.goal);
  const maxSteps = c.maxSteps + Math.max(0, o.extraSteps ?? 0);
  const archive = await RunArchive.create(o.runDir);
  const archived = await lastArchivedStep(archive);
  // The action in flight when the run died: journaled, its result never checkpointed. A guarded
  // one is the checkpoint's own intent (reconcileIntent below).
  const last = await lastJournalEntry(o.runDir);
  const inFlight = !c.intent && last && last.step > c.step ? last : undefined;
  const first = 1 + Math.max(c.step, archived, inFlight?.step ?? 0);
  if (first > maxSteps)
    throw new ActionableError(
      'RESUME',
      `run ${c.runId} has used its budget of ${c.maxSteps} steps`,
      'pass --more-steps N to grant more',
    );

  const perf = deps.perf ?? (() => performance.now());
  const t0 = perf();
  const cur = await deps.ports.observe();
  const apps = await deps.ports.apps?.();
  const result = emptyResult(c.runId, o.runDir, c.goal);
  Object.assign(result, c.counters ?? {});
  const s: Session = {
    deps,
    perf,
    run: { runId: c.runId, runDir: o.runDir, goal: c.goal, secrets, maxSteps, dryRun: !!c.dryRun, apps },
    plan: c.subgoals,
    current: c.current,
    mem: {
      ...freshMemory(),
      history: History.from(c.history),
      blacklist: Blacklist.fromJSON(c.blacklist, undefined, c.bannedAs),
      completion: CompletionTracker.fromJSON(c.completion),
      alreadyDone: new Set(c.irreversibleDone ?? []),
      notes: c.notes ?? [],
      taskApps: new Set(c.taskApps ?? []),
      // An action in flight after the approval (not its own) ended its reach.
      approval: inFlight ? undefined : c.approval,
    },
    loop: freshLoop(),
    cur,
    total: c.usage ?? emptyUsage(),
    result,
    archive,
    checkpoint,
    listeners: DEFAULT_LISTENERS,
  };
  s.mem.completion.observe(cur.obs);
  const notes = reconcileIntent(s, c, first);
  const judged = inFlight && judgeInFlight(inFlight, cur.obs);
  if (inFlight && judged) {
    notes.push(reconcileAction(s, inFlight, judged));
    if (inFlight.step > archived) await archive.writeStep(inFlight.step, reconciledRecord(s, inFlight, judged));
  }
  let llmMs = 0;
  // A screen changed by the in-flight action's visible effect is where the run was heading.
  const explained = judged?.verdict === 'done';
  if (!c.intent && !explained && c.lastPageHash && c.lastPageHash !== cur.obs.pageHash) {
    // The phone moved on without us (a person, an app, the last step's unrecorded effect).
    const tl = perf();
    const r = await replan(deps.planner, {
      goal: s.run.goal,
      plan: s.plan,
      screen: cur.compact,
      aspect: cur.obs.screen.aspect,
      apps,
      reason: 'the run was interrupted and resumed on a different screen',
      history: s.mem.history.recent(),
    });
    llmMs = perf() - tl;
    s.total = addUsage(s.total, r.usage);
    s.plan = r.plan;
    s.current = r.current;
    notes.push('the screen differs from where the run stopped: plan revised from the current screen');
  }
  if (c.pendingConfirmation) {
    const p = c.pendingConfirmation;
    s.mem.history.add({ step: p.step, action: p.summary, expect: '-', ok: false, note: 'paused for confirmation' });
    notes.push(`"${p.summary}" was waiting for confirmation: it is asked again if still the next action`);
  }
  await checkpoint.save({
    status: 'running',
    maxSteps,
    // The reconciled in-flight step is settled: a second kill does not judge it again.
    step: first - 1,
    intent: undefined,
    pendingConfirmation: undefined,
    subgoals: s.plan,
    current: s.current,
    history: s.mem.history.all().slice(-20),
    blacklist: s.mem.blacklist.toJSON(),
    bannedAs: s.mem.blacklist.shownJSON(),
    usage: s.total,
    irreversibleDone: s.mem.alreadyDone.size ? [...s.mem.alreadyDone] : undefined,
    approval: s.mem.approval,
    resumes: [...(c.resumes ?? []), deps.clock.now()],
    updatedAt: deps.clock.now(),
  });
  deps.onEvent?.({ kind: 'resume', fromStep: first, notes, subgoals: s.plan.map((p) => p.text) });
  return drive(s, first, { t0, llmMs });
}

/** The credential placeholders of the stored goal, filled from the original task text. */
function secretsFor(c: Checkpoint, goal: string | undefined): Map<string, string> {
  if (!SECRET.test(c.goal)) return new Map();
  if (!goal)
    throw new ActionableError(
      'RESUME',
      `run ${c.runId}'s task held a credential, which is never stored`,
      'pass the original task text again with --task "…"',
    );
  const masked = maskSecrets(goal);
  if (masked.goal !== c.goal)
    throw new ActionableError(
      'RESUME',
      `--task does not match run ${c.runId}'s goal ("${c.goal}")`,
      'pass the task text exactly as it was given to `phone-agent run`',
    );
  return masked.secrets;
}

/**
 * An irreversible action confirmed and journaled, but whose result never was: if the screen it was
 * aimed at is still there with its target, it did not happen and will need a new confirmation; if
 * the screen changed, it happened — banned on its page and reported as done, never repeated.
 */
function reconcileIntent(s: Session, c: Checkpoint, first: number): string[] {
  const intent = c.intent;
  if (!intent) return [];
  const { action } = intent.decision;
  const what = intent.summary ?? `${action.tool}${action.target_id ? ` [${action.target_id}]` : ''}`;
  const obs = s.cur.obs;
  const targetThere = !action.target_id || obs.elements.some((e) => e.id === action.target_id);
  // The same page is not enough (a chat keeps its Send button after sending): its content must be
  // unchanged too. When in doubt, it counts as done: a missed send can be redone, a double one cannot.
  const unchanged =
    obs.pageHash === intent.pageHash && (intent.state === undefined || intent.state === screenState(obs));
  if (unchanged && targetThere) {
    // Not done: it is confirmed again, and its approval covers nothing yet.
    if (s.mem.approval?.step === intent.step) s.mem.approval = undefined;
    s.mem.history.add({
      step: intent.step,
      action: what,
      expect: '-',
      ok: false,
      note: 'interrupted before it took effect (screen unchanged); needs a new confirmation',
    });
    return [`"${what}" was interrupted before it took effect (the screen is unchanged): it will be confirmed again`];
  }
  s.mem.blacklist.ban(intent.pageHash, actionSignature(action), describeAction(action));
  s.mem.alreadyDone.add(what);
  if (intent.subgoalDone && intent.subgoal !== undefined && s.plan[intent.subgoal]) {
    s.plan[intent.subgoal]!.done = true;
    while (s.plan[s.current]?.done) s.current++;
  }
  s.mem.history.add({
    step: intent.step,
    action: what,
    expect: '-',
    ok: true,
    note: 'dispatched before the interruption; the screen changed, so it took effect: do not repeat it',
  });
  s.loop.hint = `Before the run was interrupted at step ${first - 1}, "${what}" was dispatched and the screen changed: it is done — do not repeat it; check its result on screen and go on.`;
  return [
    `"${what}" had been dispatched before the interruption and the screen changed: counted as done, not repeated`,
  ];
}

async function lastArchivedStep(archive: RunArchive): Promise<number> {
  const names = await readdir(archive.stepsDir).catch(() => [] as string[]);
  return names.reduce((max, n) => {
    const m = /^(\d+)\.json$/.exec(n);
    return m ? Math.max(max, Number(m[1])) : max;
  }, 0);
}
