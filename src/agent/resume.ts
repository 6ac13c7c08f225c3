import { readdir } from 'node:fs/promises';
import { ActionableError } from '../core/errors.js';
import { lastJournalEntry } from '../store/action-journal.js';
import { type Checkpoint, CheckpointStore } from '../store/checkpoint.js';
import { RunArchive } from '../store/run-archive.js';
import { actionSignature } from '../tools/index.js';
import { cancellable, controlled, type RunControl } from './cancel.js';
import { drive } from './loop.js';
import type { Perceived } from './ports.js';
import { judgeInFlight, reconcileAction, reconciledRecord } from './reconcile.js';
import type { RunEvent } from './reduce.js';
import { deserialize, type RunState } from './run-state.js';
import { maskSecrets } from './secrets.js';
import { type AgentDeps, apply, openSession } from './session.js';
import { describeOn, replan, screenState } from './step-helpers.js';
import type { RunResult } from './types.js';

/**
 * Resume a run from its folder (DESIGN §6): the checkpoint is the run's state (`deserialize`), and
 * the same loop goes on from it. First it re-observes; the action in flight when the run died
 * (journaled, its result never recorded) is judged on screen before the model decides anything —
 * an irreversible intent by reconcileIntent below, any other by ./reconcile.ts — and never
 * blindly repeated; a screen other than the one the run stopped on (and not explained by that
 * action) gets a new plan from where the phone is now. Steps continue their numbering.
 */

export interface ResumeOptions extends RunControl {
  runDir: string;
  /** The original task text, needed only when it held a credential (never stored). */
  goal?: string;
  /** Steps granted beyond the run's budget (needed to resume a run that used it up). */
  extraSteps?: number;
}

const ENDED: ReadonlySet<Checkpoint['status']> = new Set(['done', 'failed', 'infeasible', 'dry_run']);
const SECRET = /⟨secret\d+⟩/;

export async function resumeAgent(deps: AgentDeps, o: ResumeOptions): Promise<RunResult> {
  const store = await CheckpointStore.load(o.runDir);
  const c = store.data;
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

  return controlled(o, async (signal) => {
    const perf = deps.perf ?? (() => performance.now());
    const t0 = perf();
    const cur = await cancellable(deps.ports.observe(), signal);
    const apps = await cancellable(deps.ports.apps?.() ?? Promise.resolve(undefined), signal);
    const state = deserialize(c);
    const s = openSession({
      deps,
      run: { runId: c.runId, runDir: o.runDir, secrets, apps, signal },
      state,
      archive,
      store,
    });
    const tell = (ev: RunEvent) => apply(s, ev);
    // An action in flight after the approval (not its own) ended its reach.
    if (inFlight) await tell({ kind: 'approval_dropped' });
    const notes = await reconcileIntent(s.state, tell, c, cur, first);
    const judged = inFlight && judgeInFlight(inFlight, cur.obs);
    if (inFlight && judged) {
      notes.push(await reconcileAction(s.state, tell, inFlight, judged, cur.obs));
      if (inFlight.step > archived) await archive.writeStep(inFlight.step, reconciledRecord(s.state, inFlight, judged));
    }
    let llmMs = 0;
    // A screen changed by the in-flight action's visible effect is where the run was heading.
    const explained = judged?.verdict === 'done';
    if (!c.intent && !explained && c.lastPageHash && c.lastPageHash !== cur.obs.pageHash) {
      // The phone moved on without us (a person, an app, the last step's unrecorded effect).
      const tl = perf();
      const r = await replan(
        deps.planner,
        {
          goal: s.state.goal,
          plan: s.state.plan.map((p) => ({ ...p })),
          screen: cur.compact,
          aspect: cur.obs.screen.aspect,
          apps,
          reason: 'the run was interrupted and resumed on a different screen',
          history: s.state.history.slice(-5),
        },
        signal,
      );
      llmMs = perf() - tl;
      await tell({ kind: 'replanned', plan: r.plan, current: r.current, usage: r.usage });
      notes.push('the screen differs from where the run stopped: plan revised from the current screen');
    }
    // A burst's rest goes on only from where it was left: after a part in flight (judged above) or
    // on another screen the model decides, told what was not sent (agent/flash-burst.ts).
    if (s.state.burst && (inFlight || s.state.lastPageHash !== cur.obs.pageHash)) {
      notes.push(`the rest of an action_sequence (member ${s.state.burst.next} on) was not sent`);
      const mine = `The run was interrupted in an action_sequence: member ${s.state.burst.next} on was not sent. Go on from this screen.`;
      await tell({ kind: 'burst' });
      await tell({ kind: 'hint', hint: [s.state.loop.hint, mine].filter(Boolean).join(' ') });
    }
    if (c.pendingConfirmation) {
      const p = c.pendingConfirmation;
      await tell({
        kind: 'history',
        entry: { step: p.step, action: p.summary, expect: '-', ok: false, note: 'paused for confirmation' },
      });
      notes.push(`"${p.summary}" was waiting for confirmation: it is asked again if still the next action`);
    }
    await tell({ kind: 'observed', obs: cur.obs });
    await tell({ kind: 'resumed', step: first - 1, maxSteps, at: deps.clock.now() });
    deps.onEvent?.({ kind: 'resume', fromStep: first, notes, subgoals: s.state.plan.map((p) => p.text) });
    return drive(s, first, cur, { t0, llmMs });
  });
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

/** The history line that says what became of an interrupted irreversible action. */
function intentHistory(step: number, action: string, ok: boolean, note: string): RunEvent {
  return { kind: 'history', entry: { step, action, expect: '-', ok, note } };
}

/**
 * An irreversible action confirmed and journaled, but whose result never was: if the screen it was
 * aimed at is still there with its target, it did not happen and will need a new confirmation; if
 * the screen changed, it happened — banned on its page and reported as done, never repeated.
 */
async function reconcileIntent(
  st: RunState,
  tell: (ev: RunEvent) => Promise<void>,
  c: Checkpoint,
  cur: Perceived,
  first: number,
): Promise<string[]> {
  const intent = c.intent;
  if (!intent) return [];
  const { action } = intent.decision;
  const what = intent.summary ?? `${action.tool}${action.target_id ? ` [${action.target_id}]` : ''}`;
  const obs = cur.obs;
  const targetThere = !action.target_id || obs.elements.some((e) => e.id === action.target_id);
  // The same page is not enough (a chat keeps its Send button after sending): its content must be
  // unchanged too. When in doubt, it counts as done: a missed send can be redone, a double one cannot.
  const unchanged =
    obs.pageHash === intent.pageHash && (intent.state === undefined || intent.state === screenState(obs));
  if (unchanged && targetThere) {
    // Not done: it is confirmed again, and its approval covers nothing yet.
    await tell({ kind: 'approval_dropped', step: intent.step });
    await tell(
      intentHistory(
        intent.step,
        what,
        false,
        'interrupted before it took effect (screen unchanged); needs a new confirmation',
      ),
    );
    return [`"${what}" was interrupted before it took effect (the screen is unchanged): it will be confirmed again`];
  }
  await tell({
    kind: 'refused',
    // Typed text shows as typed only where its field is on the screen now and no password field.
    ban: { page: intent.pageHash, signature: actionSignature(action), shown: describeOn(action, obs) },
  });
  await tell({ kind: 'already_done', what });
  if (intent.subgoalDone && intent.subgoal !== undefined && st.plan[intent.subgoal])
    await tell({ kind: 'subgoal_closed', index: intent.subgoal });
  await tell(
    intentHistory(
      intent.step,
      what,
      true,
      'dispatched before the interruption; the screen changed, so it took effect: do not repeat it',
    ),
  );
  await tell({
    kind: 'hint',
    hint: `Before the run was interrupted at step ${first - 1}, "${what}" was dispatched and the screen changed: it is done — do not repeat it; check its result on screen and go on.`,
  });
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
