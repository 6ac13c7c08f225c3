import type { Deadline } from '../../core/clock.js';
import type { RiskCategory } from '../../core/risk-lexicon.js';

/**
 * What a confirmation is about: a lexicon category, an emergency call (held for what it does: no
 * word names it), an ambiguous touch, or typed personal data.
 */
export type ConfirmCategory = RiskCategory | 'emergency_call' | 'ambiguous_target' | 'personal_data';

/**
 * Pluggable confirmation channels (DESIGN §5). Only a channel can approve a guarded action — never
 * the decision itself. In non-interactive runs the pause-and-checkpoint channel defers: the loop
 * saves a checkpoint with the pending confirmation and stops, and a person resumes it.
 */

export interface ConfirmationRequest {
  categories: ConfirmCategory[];
  /** What would happen, for the person: "tap \"Pay ¥36.00\" in com.foodshop". Never contains typed secrets. */
  summary: string;
  reasons: string[];
  package: string;
  pageHash: string;
}

export type ConfirmationAnswer =
  | { verdict: 'approved'; by: string }
  | { verdict: 'denied'; by: string; reason?: string }
  | { verdict: 'deferred'; by: string; pending: ConfirmationRequest };

export interface ConfirmationChannel {
  readonly name: string;
  confirm(req: ConfirmationRequest, deadline: Deadline): Promise<ConfirmationAnswer>;
}

/** Ask a person; `ask` is the CLI's prompt (readline) and returns their reply. */
export class InteractiveConfirmation implements ConfirmationChannel {
  readonly name = 'interactive';
  constructor(private readonly ask: (question: string, deadline: Deadline) => Promise<string | undefined>) {}
  async confirm(req: ConfirmationRequest, deadline: Deadline): Promise<ConfirmationAnswer> {
    const q = `Confirm ${req.categories.join('/')} action: ${req.summary}\n  because: ${req.reasons.join('; ')}\n  Proceed? [y/N] `;
    const reply = (await this.ask(q, deadline))?.trim().toLowerCase();
    return reply === 'y' || reply === 'yes' || reply === '是' || reply === '确认'
      ? { verdict: 'approved', by: this.name }
      : { verdict: 'denied', by: this.name, reason: reply ? `answered "${reply}"` : 'no answer' };
  }
}

/** An explicit, written policy: per category allow or deny; anything unlisted is denied. */
export class PolicyConfirmation implements ConfirmationChannel {
  readonly name = 'policy';
  constructor(private readonly policy: Partial<Record<ConfirmCategory, 'allow' | 'deny'>>) {}
  async confirm(req: ConfirmationRequest): Promise<ConfirmationAnswer> {
    const denied = req.categories.filter((c) => this.policy[c] !== 'allow');
    return denied.length === 0
      ? { verdict: 'approved', by: this.name }
      : { verdict: 'denied', by: this.name, reason: `policy does not allow ${denied.join(', ')}` };
  }
}

/** Non-interactive runs: defer, so the loop checkpoints and waits for a person. */
export class PauseForConfirmation implements ConfirmationChannel {
  readonly name = 'pause';
  readonly pending: ConfirmationRequest[] = [];
  async confirm(req: ConfirmationRequest): Promise<ConfirmationAnswer> {
    this.pending.push(req);
    return { verdict: 'deferred', by: this.name, pending: req };
  }
}
