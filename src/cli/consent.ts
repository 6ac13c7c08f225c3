import { createInterface } from 'node:readline/promises';
import { ActionableError } from '../core/errors.js';
import type { ConfirmationAnswer, ConfirmationChannel, ConfirmationRequest } from '../executor/guardrails/confirm.js';

/**
 * Who may approve a guarded action (a payment, a send, a deletion, an account change): the person
 * at the terminal, `--yes` (every kind) or `--yes send,delete` (only those kinds: anything else is
 * asked at a terminal and paused for consent otherwise), or `--deny` (refuse all). Each answer is
 * printed with who gave it.
 */

/** The kinds a guarded action can have (executor/guardrails), and short names people type. */
export const CONSENT_KINDS = [
  'payment',
  'send',
  'delete',
  'account',
  'emergency_call',
  'ambiguous_target',
  'personal_data',
] as const;
const ALIASES: Record<string, (typeof CONSENT_KINDS)[number]> = {
  pay: 'payment',
  payments: 'payment',
  sends: 'send',
  sms: 'send',
  del: 'delete',
  deletes: 'delete',
  emergency: 'emergency_call',
  ambiguous: 'ambiguous_target',
  personal: 'personal_data',
};

export type YesFlag = boolean | string | undefined;

/** `--yes` → every kind; `--yes send,delete` → those kinds; a word that is no kind is a usage error. */
export function parseYes(yes: YesFlag): 'all' | ReadonlySet<string> | undefined {
  if (yes === undefined || yes === false) return undefined;
  if (yes === true || yes.trim() === '' || yes.trim() === 'all') return 'all';
  const kinds = new Set<string>();
  for (const raw of yes.split(',')) {
    const w = raw.trim().toLowerCase();
    if (!w) continue;
    const kind = (CONSENT_KINDS as readonly string[]).includes(w) ? w : ALIASES[w];
    if (!kind)
      throw new ActionableError(
        'USAGE',
        `--yes "${yes}": "${raw.trim()}" is not a kind of guarded action`,
        `use --yes alone for all, or a list of ${CONSENT_KINDS.join(', ')} (e.g. --yes send,delete); put the task before --yes`,
      );
    kinds.add(kind);
  }
  return kinds;
}

export interface ConsentFlags {
  yes?: YesFlag;
  deny?: boolean;
  json?: boolean;
}

type Say = (line: string) => void;

async function askAtPrompt(req: ConfirmationRequest): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const a = await rl.question(
      `\nConfirm ${req.categories.join('/')}: ${req.summary}\n  because ${req.reasons.join('; ')}\n  Proceed? [y/N] `,
    );
    return /^(y|yes|是|确认)$/i.test(a.trim());
  } finally {
    rl.close();
  }
}

/**
 * The run's confirmation channel. `by` names who answered (the executor logs it): `--deny`,
 * `--yes` or `--yes send,delete`, `user` (at the prompt), or `pause` (nobody there: the run stops
 * for consent and `resume --yes` continues it).
 */
export function consentChannel(
  flags: ConsentFlags,
  interactive: boolean,
  say: Say,
  ask: (req: ConfirmationRequest) => Promise<boolean> = askAtPrompt,
): ConfirmationChannel {
  const yes = parseYes(flags.yes);
  const what = (req: ConfirmationRequest) => `${req.categories.join('/')}: ${req.summary}`;
  return {
    name: 'consent',
    async confirm(req): Promise<ConfirmationAnswer> {
      if (flags.deny) {
        say(`denied ${what(req)} (by --deny)`);
        return { verdict: 'denied', by: '--deny', reason: 'refused by --deny' };
      }
      if (yes === 'all' || (yes && req.categories.length > 0 && req.categories.every((k) => yes.has(k)))) {
        const by = `--yes${yes === 'all' ? '' : ` ${[...yes].join(',')}`}`;
        say(`approved ${what(req)} (by ${by})`);
        return { verdict: 'approved', by };
      }
      if (!interactive) return { verdict: 'deferred', by: 'pause', pending: req };
      const ok = await ask(req);
      say(`${ok ? 'approved' : 'denied'} ${what(req)} (by you, at the prompt)`);
      return ok ? { verdict: 'approved', by: 'user' } : { verdict: 'denied', by: 'user', reason: 'you answered no' };
    },
  };
}
