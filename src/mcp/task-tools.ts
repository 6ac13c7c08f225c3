import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { runAgent } from '../agent/loop.js';
import { resumeAgent } from '../agent/resume.js';
import type { AgentEvent, RunResult } from '../agent/types.js';
import { callbackConfirmation } from '../compose/agent.js';
import { errorMessage } from '../core/errors.js';
import { DEFAULT_RUN_MODE, type RunMode, TASK_MODES } from '../core/run-mode.js';
import type { ConfirmationChannel } from '../executor/guardrails/confirm.js';
import { CheckpointStore } from '../store/checkpoint.js';
import { newRunId } from '../store/run-archive.js';
import { type TaskFactory, type TaskLaunch, withAgent } from './task-factory.js';
import { type ToolCall, type ToolDef, type ToolOutput, toolError } from './tool.js';

/**
 * The task tools: `mobile_run_task` runs the whole agent (plan, act, verify, guardrails) on the
 * server's device and reports each step as a progress notification; a guarded action asks the user
 * through elicitation when the client can, else the run pauses as `needs_confirmation` and
 * `mobile_resume_task` continues it with the user's decision. `mobile_task_status` reports a run.
 */

interface Live {
  runId: string;
  goal: string;
  step: number;
  max: number;
  last?: string;
  startedAt: number;
}

type Verdict = 'approved' | 'denied';

const RUN_ID = /^[A-Za-z0-9._-]{1,80}$/;

function resultOf(r: RunResult, device: string, pending?: { summary: string; categories: string[] }): ToolOutput {
  const needs = r.status === 'needs_confirmation';
  return {
    result: {
      status: r.status,
      device,
      ...(r.answer !== undefined ? { answer: r.answer } : {}),
      ...(r.reason ? { reason: r.reason } : {}),
      run_id: r.runId,
      run_folder: r.runDir,
      steps: r.steps,
      llm_calls: r.llm.calls,
      mode: r.mode,
      ...(r.handover ? { handover: r.handover } : {}),
      ...(needs
        ? {
            needs_confirmation: {
              run_id: r.runId,
              summary: pending?.summary,
              categories: pending?.categories,
              next: 'ask your user, then call mobile_resume_task with run_id and decision approve or deny',
            },
          }
        : {}),
    },
    isError: r.status === 'failed',
  };
}

export function taskTools(factory: TaskFactory): ToolDef[] {
  const live = new Map<string, Live>();

  /** Consent inside a run: elicitation when the client has it, else pause (`deferred`). */
  const confirmer = (call: ToolCall, preset?: Verdict): ConfirmationChannel =>
    callbackConfirmation('mcp', async (req) => {
      if (preset) {
        const v = preset;
        preset = undefined; // the decision covers the one action that was waiting, not later ones
        return v;
      }
      return (await call.consent.ask?.(req)) ?? 'deferred';
    });

  const progress = (call: ToolCall, runId: string) => (e: AgentEvent) => {
    const l = live.get(runId);
    if (e.kind !== 'step' || !l) return;
    const s = e.summary;
    l.step = s.step;
    l.max = e.max;
    l.last = `${s.action || '(none)'} → ${s.ok ? 'ok' : 'failed'}`;
    void call.progress?.(`step ${s.step}/${e.max}: ${s.subgoal || '-'} · ${l.last}`, s.step, e.max);
  };

  async function drive(
    call: ToolCall,
    launch: TaskLaunch,
    runId: string,
    goal: string,
    body: (deps: Parameters<typeof runAgent>[0], record: Record<string, string>) => Promise<RunResult>,
    preset?: Verdict,
  ): Promise<ToolOutput> {
    live.set(runId, { runId, goal, step: 0, max: 0, startedAt: Date.now() });
    try {
      return await withAgent(
        factory,
        {
          launch,
          command: `mcp mobile_run_task ${runId}`,
          confirm: confirmer(call, preset),
          onEvent: progress(call, runId),
        },
        async (deps, taken) => {
          const r = await body(deps, taken.record);
          const cp = await CheckpointStore.load(r.runDir).catch(() => undefined);
          return resultOf(r, taken.device, cp?.data.pendingConfirmation);
        },
      );
    } finally {
      live.delete(runId);
    }
  }

  const runDirOf = async (runId: string): Promise<string | undefined> => {
    if (!RUN_ID.test(runId)) return undefined;
    const dir = path.join(factory.runsDir, runId);
    const s = await stat(path.join(dir, 'checkpoint.json')).catch(() => undefined);
    return s?.isFile() ? dir : undefined;
  };

  return [
    {
      name: 'mobile_run_task',
      title: 'Run a phone task',
      description:
        'Run a natural-language task on the phone ("Turn Wi-Fi off"): the agent plans, acts and verifies each step (progress notifications per step). Pay/send/delete actions ask the user (elicitation) or end as needs_confirmation → mobile_resume_task. Returns status, answer and the run folder.',
      shape: {
        goal: z.string().min(1).max(2_000),
        device: z
          .string()
          .optional()
          .describe(
            'a --device value, a device of the server\'s pool by id, or "any" (any free pool device); default: the server\'s device, or any free one when it has a pool',
          ),
        max_steps: z.number().int().min(1).max(200).optional().describe('step budget (default 30)'),
        dry_run: z.boolean().optional().describe('plan and decide, dispatch nothing that changes the phone'),
        mode: z
          .enum(TASK_MODES)
          .optional()
          .describe(
            'pro (default): a plan, then verified steps; flash: short familiar tasks in fewer model calls, handing over to pro when unsure',
          ),
        locale: z
          .enum(['en', 'zh'])
          .optional()
          .describe('virtual phone language (a fresh virtual phone if it differs)'),
      },
      readOnly: false,
      destructive: true,
      usesDevice: false,
      async run(args, call) {
        const launch: TaskLaunch = {
          device: args.device as string | undefined,
          locale: args.locale as string | undefined,
        };
        const runId = newRunId(Date.now());
        const maxSteps = (args.max_steps as number | undefined) ?? 30;
        const goal = String(args.goal);
        return drive(call, launch, runId, goal, (deps, record) =>
          runAgent(deps, {
            goal,
            maxSteps,
            runsDir: factory.runsDir,
            runId,
            dryRun: !!args.dry_run,
            launch: record,
            mode: args.mode as RunMode | undefined,
            settings: factory.settings,
            // The client's cancellation of this call cancels the run (resumable).
            signal: call.signal,
          }),
        );
      },
    },
    {
      name: 'mobile_resume_task',
      title: 'Resume a paused task',
      description:
        "Continue a run that stopped for confirmation (or was interrupted) with the user's decision: approve lets the waiting action through once, deny refuses it and the agent continues without it.",
      shape: {
        run_id: z.string(),
        decision: z.enum(['approve', 'deny']),
        more_steps: z.number().int().min(0).max(200).optional(),
      },
      readOnly: false,
      destructive: true,
      usesDevice: false,
      async run(args, call) {
        const runId = String(args.run_id);
        const runDir = await runDirOf(runId);
        if (!runDir)
          return toolError(
            'NOT_FOUND',
            `no run ${runId} under ${factory.runsDir}; use the run_id mobile_run_task returned`,
          );
        if (live.has(runId)) return toolError('BUSY', `run ${runId} is running now; wait for it to end`);
        const launch = (await CheckpointStore.load(runDir)).data.launch ?? {};
        const decision: Verdict = args.decision === 'approve' ? 'approved' : 'denied';
        return drive(
          call,
          { device: launch.device, locale: launch.locale },
          runId,
          '',
          (deps) =>
            resumeAgent(deps, { runDir, extraSteps: args.more_steps as number | undefined, signal: call.signal }),
          decision,
        );
      },
    },
    {
      name: 'mobile_task_status',
      title: 'Task status',
      description: "A run's state: running (with its step), or how it ended, and what it waits for.",
      shape: { run_id: z.string() },
      readOnly: true,
      destructive: false,
      usesDevice: false,
      async run(args) {
        const runId = String(args.run_id);
        const l = live.get(runId);
        if (l)
          return { result: { run_id: runId, state: 'running', step: l.step, max_steps: l.max, last_step: l.last } };
        const runDir = await runDirOf(runId);
        if (!runDir) return toolError('NOT_FOUND', `no run ${runId} under ${factory.runsDir}`);
        try {
          const c = (await CheckpointStore.load(runDir)).data;
          return {
            result: {
              run_id: runId,
              state: c.status,
              goal: c.goal,
              mode: c.mode ?? DEFAULT_RUN_MODE,
              step: c.step,
              max_steps: c.maxSteps,
              ...(c.answer !== undefined ? { answer: c.answer } : {}),
              ...(c.reason ? { reason: c.reason } : {}),
              ...(c.pendingConfirmation
                ? {
                    waiting_for: {
                      summary: c.pendingConfirmation.summary,
                      categories: c.pendingConfirmation.categories,
                    },
                  }
                : {}),
              run_folder: runDir,
            },
          };
        } catch (e) {
          return toolError('READ_FAILED', errorMessage(e));
        }
      },
    },
  ];
}
