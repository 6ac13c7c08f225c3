import { createInterface } from 'node:readline/promises';
import type { ConfirmVerdict, GuardCheck } from '../agent/ports.js';
import { ActionableError } from '../core/errors.js';

/**
 * Who may approve a guarded action (a payment, a send, a deletion, an account change): the person
 * at the terminal, `--yes` (every kind) or `--yes send,delete` (only those kinds: anything else is
 * asked at a terminal and paused for consent otherwise), or `--deny` (refuse all). Each answer is
 * printed with who gave it.
 */

/** The kinds a guarded action can have (executor/guardrails), and short names people type. */
export const CONSENT_KINDS = ['payment', 'send', 'delete', 'account', 'ambiguous_target', 'personal_data'] as const;
const ALIASES: Record<string, (typeof CONSENT_KINDS)[number]> = {
  pay: 'payment',
  payments: 'payment',
  sends: 'send',
  sms: 'send',
  del: 'delete',
  deletes: 'delete',
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

async function askAtPrompt(c: GuardCheck): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const a = await rl.question(
      `\nConfirm ${c.categories.join('/')}: ${c.summary}\n  because ${c.reasons.join('; ')}\n  Proceed? [y/N] `,
    );
    return /^(y|yes|是|确认)$/i.test(a.trim());
  } finally {
    rl.close();
  }
}

export function confirmer(
  flags: ConsentFlags,
  interactive: boolean,
  say: Say,
  ask: (c: GuardCheck) => Promise<boolean> = askAtPrompt,
): (c: GuardCheck) => Promise<ConfirmVerdict> {
  const yes = parseYes(flags.yes);
  const what = (c: GuardCheck) => `${c.categories.join('/')}: ${c.summary}`;
  return async (c) => {
    if (flags.deny) {
      say(`denied ${what(c)} (by --deny)`);
      return 'denied';
    }
    if (yes === 'all' || (yes && c.categories.length > 0 && c.categories.every((k) => yes.has(k)))) {
      say(`approved ${what(c)} (by --yes${yes === 'all' ? '' : ` ${[...yes].join(',')}`})`);
      return 'approved';
    }
    if (!interactive) return 'deferred';
    const ok = await ask(c);
    say(`${ok ? 'approved' : 'denied'} ${what(c)} (by you, at the prompt)`);
    return ok ? 'approved' : 'denied';
  };
}
