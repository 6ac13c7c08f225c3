import { randomBytes } from 'node:crypto';
import type { Deadline } from '../core/clock.js';
import type { ConfirmationAnswer, ConfirmationChannel, ConfirmationRequest } from '../executor/guardrails/confirm.js';

/**
 * Consent for guarded actions over MCP (DESIGN §5: only a channel can let a Pay/Send/Delete
 * through, never the caller's own decision). When the client supports elicitation the user is
 * asked through it; otherwise the action is not sent and the result is `needs_confirmation`. For a
 * direct tool, the client calls the same action again with the returned `confirmation_id` after
 * its user agreed; the id is single-use and holds only for the same action on the same screen.
 */

/** Ask the user; `undefined` when the client cannot be asked (no elicitation capability). */
export type Asker = (req: ConfirmationRequest) => Promise<'approved' | 'denied' | undefined>;

interface Pending {
  req: ConfirmationRequest;
  at: number;
}

const TTL_MS = 10 * 60_000;

export function consentMessage(req: ConfirmationRequest): string {
  return `phone-agent wants to ${req.summary} — this is a ${req.categories.join('/')} action (${req.reasons.join('; ')}). Allow it?`;
}

export const CONSENT_SCHEMA = {
  type: 'object' as const,
  properties: {
    approve: { type: 'boolean' as const, title: 'Allow this action?', description: 'true lets it through once' },
  },
  required: ['approve'],
};

/** Per-call consent state for the direct tools' executor: set before a call, cleared after. */
export class McpConsent implements ConfirmationChannel {
  readonly name = 'mcp';
  private pending = new Map<string, Pending>();
  private call: { ask?: Asker; confirmationId?: string } = {};
  /** The confirmation id issued during the current call, if it was deferred. */
  issued?: string;

  begin(opts: { ask?: Asker; confirmationId?: string }): void {
    this.call = opts;
    this.issued = undefined;
  }

  end(): void {
    this.call = {};
  }

  async confirm(req: ConfirmationRequest, _d: Deadline): Promise<ConfirmationAnswer> {
    const id = this.call.confirmationId;
    if (id) {
      const p = this.pending.get(id);
      this.pending.delete(id);
      if (p && Date.now() - p.at < TTL_MS && p.req.summary === req.summary && p.req.pageHash === req.pageHash)
        return { verdict: 'approved', by: 'mcp confirmation_id' };
    }
    const asked = await this.call.ask?.(req);
    if (asked === 'approved') return { verdict: 'approved', by: 'mcp elicitation' };
    if (asked === 'denied') return { verdict: 'denied', by: 'mcp elicitation', reason: 'the user declined' };
    const newId = `c-${randomBytes(6).toString('hex')}`;
    this.pending.set(newId, { req, at: Date.now() });
    this.issued = newId;
    return { verdict: 'deferred', by: this.name, pending: req };
  }
}
