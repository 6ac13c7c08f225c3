import { createInterface } from 'node:readline/promises';
import { ActionableError } from '../core/errors.js';
import {
  type ConfirmationAnswer,
  type ConfirmationChannel,
  type ConfirmationRequest,
  type ConsentPolicy,
  InteractiveConfirmation,
  PauseForConfirmation,
  PolicyConfirmation,
} from '../executor/guardrails/confirm.js';

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

async function askAtPrompt(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/**
 * The run's confirmation channel: the executor's channels (guardrails/confirm.ts) in the order
 * the flags ask for — `--deny` or `--yes` (a policy), then the person at the prompt, or a pause
 * when nobody is there (the run stops for consent and `resume --yes` continues it). Each answer is
 * printed with who gave it (`by`, which the executor logs too).
 */
export function consentChannel(
  flags: ConsentFlags,
  interactive: boolean,
  say: Say,
  ask: (question: string) => Promise<string | undefined> = askAtPrompt,
): ConfirmationChannel {
  const yes = parseYes(flags.yes);
  const person: ConfirmationChannel = interactive ? new InteractiveConfirmation(ask) : new PauseForConfirmation();
  const every = (v: 'allow' | 'deny', kinds: Iterable<string>): ConsentPolicy =>
    Object.fromEntries([...kinds].map((k) => [k, v]));
  const channel = flags.deny
    ? new PolicyConfirmation(every('deny', CONSENT_KINDS), { name: '--deny' })
    : yes === 'all'
      ? new PolicyConfirmation(every('allow', CONSENT_KINDS), { name: '--yes' })
      : yes
        ? new PolicyConfirmation(every('allow', yes), { name: `--yes ${[...yes].join(',')}`, otherwise: person })
        : person;
  const what = (req: ConfirmationRequest) => `${req.categories.join('/')}: ${req.summary}`;
  return {
    name: 'consent',
    async confirm(req, deadline): Promise<ConfirmationAnswer> {
      const a = await channel.confirm(req, deadline);
      if (a.verdict !== 'deferred')
        say(`${a.verdict} ${what(req)} (by ${a.by === 'user' ? 'you, at the prompt' : a.by})`);
      return a;
    },
  };
}
