import { createInterface } from 'node:readline/promises';
import type { AgentEvent, RunResult, RunStatus } from '../agent/types.js';
import { type Composed, composeAgent } from '../compose/agent.js';
import type { DeviceSpec } from '../compose/device.js';
import { RealClock } from '../core/clock.js';
import { ActionableError } from '../core/errors.js';
import { Logger } from '../core/logger.js';
import {
  type ConfirmationChannel,
  type ConfirmCategory,
  InteractiveConfirmation,
  PauseForConfirmation,
  PolicyConfirmation,
} from '../executor/guardrails/confirm.js';

/**
 * What `run` and `resume` share: connecting a device (the built-in virtual phone, a helper bridge
 * URL, or an adb serial), starting the model, and building the agent's dependencies.
 */

/** Exit codes: scripts can tell "done" from "needs a person" from "cannot be done". */
export const EXIT: Record<RunStatus, number> = {
  done: 0,
  dry_run: 0,
  failed: 1,
  budget: 1,
  needs_confirmation: 3,
  ask_user: 3,
  infeasible: 4,
};
export const EXIT_USAGE = 2;

export interface AgentFlags {
  device: string;
  /** Bridge token for `--device http://…` or `--helper` (else ANDROID_BRIDGE_TOKEN). */
  token?: string;
  /** A helper bridge in front of an adb serial: preferred, with adb as the fallback. */
  helper?: string;
  model?: string;
  baseUrl?: string;
  preset?: string;
  /** The model reads images (else the preset's, else PHONE_AGENT_VISION, else no). */
  vision?: boolean;
  yes?: boolean;
  deny?: boolean;
  json?: boolean;
  runsDir: string;
  memory: string;
  seed: string;
  locale: string;
  adbHost: string;
  adbPort: string;
  verbose?: boolean;
}

/** The flags worth keeping in the checkpoint so `resume` reconnects the same way (no secrets). */
export function launchRecord(f: AgentFlags): Record<string, string> {
  const out: Record<string, string> = { device: f.device, seed: f.seed, locale: f.locale };
  for (const k of ['model', 'baseUrl', 'preset', 'adbHost', 'adbPort', 'helper'] as const) {
    const v = f[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The run's confirmation port: --yes / --deny as a written policy, a terminal asks, anything else pauses. */
function confirmationChannel(flags: AgentFlags, interactive: boolean): ConfirmationChannel {
  if (flags.yes) return new PolicyConfirmation(ALL_CATEGORIES('allow'));
  if (flags.deny) return new PolicyConfirmation(ALL_CATEGORIES('deny'));
  if (!interactive) return new PauseForConfirmation();
  return new InteractiveConfirmation(async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await rl.question(`\n${question}`);
    } finally {
      rl.close();
    }
  });
}

function ALL_CATEGORIES(v: 'allow' | 'deny'): Partial<Record<ConfirmCategory, 'allow' | 'deny'>> {
  return { payment: v, send: v, delete: v, account: v, ambiguous_target: v, personal_data: v };
}

function progress(json: boolean, tty: boolean): (e: AgentEvent) => void {
  if (json) return () => {};
  const out = (s: string) => process.stderr.write(s);
  return (e) => {
    if (e.kind === 'plan') out(`plan${e.cached ? ' (from memory)' : ''}: ${e.subgoals.join(' → ')}\n`);
    else if (e.kind === 'resume') {
      out(`resuming at step ${e.fromStep}; plan: ${e.subgoals.join(' → ')}\n`);
      for (const n of e.notes) out(`  ${n}\n`);
    } else if (e.kind === 'step') {
      const s = e.summary;
      const line = `step ${s.step}/${e.max} · ${s.subgoal || '-'} · ${s.action || '(none)'} → ${s.ok ? 'ok' : 'failed'}${s.source === 'llm' ? '' : ` [${s.source}]`}${s.note ? ` (${s.note})` : ''}`;
      out(tty ? `\x1b[2K\r${s.ok ? '\x1b[32m✓\x1b[0m' : '\x1b[31m✗\x1b[0m'} ${line}\n` : `${line}\n`);
    }
  };
}

/** --device sim | URL | SERIAL (with --helper URL: the helper first, adb as fallback). */
export function deviceSpec(flags: AgentFlags): DeviceSpec {
  if (flags.device === 'sim')
    return { kind: 'sim', seed: Number(flags.seed), locale: flags.locale === 'zh' ? 'zh' : 'en' };
  const token = () => {
    const t = flags.token ?? process.env.ANDROID_BRIDGE_TOKEN;
    if (!t)
      throw new ActionableError(
        'USAGE',
        `${flags.helper ? `--helper ${flags.helper}` : `--device ${flags.device}`} is a helper bridge, which needs its token`,
        'pass --token T or set ANDROID_BRIDGE_TOKEN',
      );
    return t;
  };
  if (/^https?:\/\//.test(flags.device)) return { kind: 'bridge', url: flags.device, token: token() };
  return {
    kind: 'adb',
    serial: flags.device,
    host: flags.adbHost,
    port: Number(flags.adbPort),
    helper: flags.helper ? { url: flags.helper, token: token() } : undefined,
  };
}

export type { Composed } from '../compose/agent.js';

/** Model + device + ports + planner through the one factory, ready for runAgent / resumeAgent. */
export async function composeFromFlags(flags: AgentFlags): Promise<Composed> {
  const interactive = !!process.stdin.isTTY && !flags.json;
  return composeAgent({
    device: deviceSpec(flags),
    model: { model: flags.model, baseUrl: flags.baseUrl, preset: flags.preset, vision: flags.vision },
    confirm: confirmationChannel(flags, interactive),
    memory: { file: flags.memory },
    clock: new RealClock(),
    logger: new Logger('agent', { level: flags.verbose ? 'info' : 'warn' }),
    onEvent: progress(!!flags.json, !!process.stderr.isTTY),
  });
}

export function printResult(result: RunResult, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const what = result.answer ? `answer: ${result.answer}` : (result.reason ?? '');
  process.stdout.write(
    `${result.status}${what ? ` — ${what}` : ''}\n${result.steps} steps, ${result.llm.calls} LLM calls, ${result.llm.promptTokens} prompt tokens` +
      `${result.cacheHits ? `, ${result.cacheHits} replayed from memory` : ''}\nrun folder: ${result.runDir}\n` +
      `trace: phone-agent report ${result.runDir}\n`,
  );
}
