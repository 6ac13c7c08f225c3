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

/** Ask a person; `ask` puts the question (the CLI's readline prompt) and returns their reply. */
export class InteractiveConfirmation implements ConfirmationChannel {
  readonly name = 'user';
  constructor(private readonly ask: (question: string, deadline: Deadline) => Promise<string | undefined>) {}
  async confirm(req: ConfirmationRequest, deadline: Deadline): Promise<ConfirmationAnswer> {
    const q = `\nConfirm ${req.categories.join('/')}: ${req.summary}\n  because ${req.reasons.join('; ')}\n  Proceed? [y/N] `;
    const reply = (await this.ask(q, deadline))?.trim().toLowerCase();
    return reply === 'y' || reply === 'yes' || reply === '是' || reply === '确认'
      ? { verdict: 'approved', by: this.name }
      : { verdict: 'denied', by: this.name, reason: reply ? `answered "${reply}"` : 'no answer' };
  }
}

export type ConsentPolicy = Partial<Record<ConfirmCategory, 'allow' | 'deny'>>;

/**
 * A written policy (`--yes send,delete`, `--deny`): an action all of whose categories it allows is
 * approved, one with a category it denies is denied, and anything else goes to `otherwise` (a
 * person, or a pause) — denied when there is none. `name` says who answered (`--yes send`).
 */
export class PolicyConfirmation implements ConfirmationChannel {
  readonly name: string;
  constructor(
    private readonly policy: ConsentPolicy,
    private readonly opts: { name?: string; otherwise?: ConfirmationChannel } = {},
  ) {
    this.name = opts.name ?? 'policy';
  }
  async confirm(req: ConfirmationRequest, deadline: Deadline): Promise<ConfirmationAnswer> {
    const refused = req.categories.filter((c) => this.policy[c] === 'deny');
    if (refused.length > 0) return { verdict: 'denied', by: this.name, reason: `refused by ${this.name}` };
    const allowed = req.categories.length > 0 && req.categories.every((c) => this.policy[c] === 'allow');
    if (allowed) return { verdict: 'approved', by: this.name };
    if (this.opts.otherwise) return this.opts.otherwise.confirm(req, deadline);
    const unlisted = req.categories.filter((c) => this.policy[c] !== 'allow');
    return { verdict: 'denied', by: this.name, reason: `${this.name} does not allow ${unlisted.join(', ') || 'it'}` };
  }
}

/** Non-interactive runs: defer, so the loop checkpoints and waits for a person. */
export class PauseForConfirmation implements ConfirmationChannel {
  readonly name = 'pause';
  async confirm(req: ConfirmationRequest): Promise<ConfirmationAnswer> {
    return { verdict: 'deferred', by: this.name, pending: req };
  }
}
