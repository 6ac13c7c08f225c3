import type { Approval } from '../core/approval.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { Progress } from '../core/progress.js';
import type { Action, Element, Observation } from '../core/types.js';
import { covers } from './consent-scope.js';
import type { ConfirmationAnswer, ConfirmationChannel, ConfirmationRequest } from './guardrails/confirm.js';
import { checkGuard, type GuardConfig, type GuardVerdict } from './guardrails/guard.js';
import { redactTyped } from './guardrails/pii.js';
import { sequenceMembers } from './native-args.js';
import type { ToolTable } from './tool-spec.js';

/**
 * The guard of one action and, when it needs one, the consent for it (DESIGN §5): only a
 * confirmation channel — the caller's port: a person, a written policy, pause-and-checkpoint — can
 * let a guarded action through; the decision's own words never can.
 */

export type Consent =
  | { kind: 'free'; guard: GuardVerdict; request: ConfirmationRequest }
  /** `covered`: nobody was asked, the earlier approval of the act that opened this dialog covers it. */
  | { kind: 'approved'; guard: GuardVerdict; request: ConfirmationRequest; by: string; covered?: Approval }
  | { kind: 'denied'; guard: GuardVerdict; request: ConfirmationRequest; by: string; reason?: string }
  | { kind: 'deferred'; guard: GuardVerdict; request: ConfirmationRequest; by: string };

/** For the person and the journal: `tap "Pay ¥18.00" in com.foodshop` (never typed text). */
export function actionSummary(a: Action, obs: Observation, target: Element | undefined): string {
  const label = target ? ` ${quoted(target)}` : a.point ? ` at ${a.point.x},${a.point.y}` : '';
  return `${a.tool}${label}${membersSummary(a, obs)} in ${obs.app.package || 'the current app'}`;
}

/** What an action_sequence's members do, by the labels of what they act on ("click "Send""). */
function membersSummary(a: Action, obs: Observation): string {
  const parts = sequenceMembers(a, obs).map((m) => `${m.op}${m.element ? ` ${quoted(m.element)}` : ''}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

const quoted = (e: Element) => `"${e.label || e.text || e.desc || e.role}"`;

export function guardOf(
  tools: ToolTable,
  a: Action,
  obs: Observation,
  target: Element | undefined,
  config: GuardConfig | undefined,
  aimNeedsConfirmation: string | undefined,
): { guard: GuardVerdict; request: ConfirmationRequest } {
  const guard = checkGuard(tools, a, obs, target, config, aimNeedsConfirmation);
  return {
    guard,
    request: {
      categories: guard.categories,
      summary: actionSummary(a, obs, target),
      reasons: guard.reasons,
      package: obs.app.package,
      pageHash: obs.pageHash,
    },
  };
}

/**
 * What the run already knows about consent, as data (the executor judges by it; no caller code runs):
 * the approval that may cover the confirmation dialog its act opened (./consent-scope.ts), and the
 * guarded acts a resume found already done (they are refused, never repeated).
 */
export interface ConsentScope {
  approval?: Approval;
  alreadyDone?: readonly string[];
}

/** The denial's reason for an act a resume found already done. */
export const ALREADY_DONE = 'already took effect before the run was interrupted';

export async function askConsent(
  deps: { clock: Clock; logger: Logger; channel: ConfirmationChannel; timeoutMs?: number; progress: Progress },
  a: Action,
  obs: Observation,
  target: Element | undefined,
  g: { guard: GuardVerdict; request: ConfirmationRequest },
  scope: ConsentScope = {},
): Promise<Consent> {
  const { guard, request } = g;
  if (guard.pii.length)
    deps.logger.child('guardrail').info('typed text contains personal data', {
      kinds: guard.pii.join(','),
      text: redactTyped(a.text ?? '', !!target?.flags.password),
    });
  if (!guard.needsConfirmation) return { kind: 'free', guard, request };
  const { approval } = scope;
  if (approval && covers(approval, request, obs, target))
    return { kind: 'approved', guard, request, by: `the approval of step ${approval.step}`, covered: approval };
  if (scope.alreadyDone?.includes(request.summary))
    return { kind: 'denied', guard, request, by: 'resume', reason: ALREADY_DONE };
  // A person may take a while: the confirmation has its own deadline (the action a fresh one after
  // it), and the run's cancel ends the wait.
  const wait = Progress.start(deps.clock, { timeoutMs: deps.timeoutMs ?? 600_000, signal: deps.progress.signal });
  const answer: ConfirmationAnswer = await wait.race('the confirmation', deps.channel.confirm(request, wait));
  deps.logger.child('guardrail').warn(`guarded ${request.categories.join('/')} action: ${answer.verdict}`, {
    by: answer.by,
    summary: request.summary,
  });
  if (answer.verdict === 'approved') return { kind: 'approved', guard, request, by: answer.by };
  if (answer.verdict === 'denied') return { kind: 'denied', guard, request, by: answer.by, reason: answer.reason };
  return { kind: 'deferred', guard, request, by: answer.by };
}
