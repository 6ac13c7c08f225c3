import { z } from 'zod';
import { asksQuestion } from '../core/goal.js';
import { writeRange } from '../core/range-value.js';
import { type Action, type Expect, ExpectSchema, type Observation } from '../core/types.js';
import { keyTokens } from '../executor/landing.js';
import { counterAfter, describeChange, mistakes, type StateChange } from '../executor/side-effects.js';
import { holdsOn } from '../executor/validator.js';
import { askUser } from '../tools/ask-user.js';
import { done } from '../tools/done.js';

/**
 * The completion check: a model's "done" (or its hand-over at the end) is a claim, checked against
 * what this run saw before it is believed —
 * - an unintended change (a ticked option, a bumped quantity) that was reported and never seen
 *   undone means the result is not what was asked;
 * - "done" right after an action that failed its check claims what the screen did not confirm,
 *   until the screen confirms it: an action whose check is met, a read or a look at the screen
 *   (the model's own look is its evidence), or the failed expectation holding on the screen now;
 * - an answer must be something the phone showed: its numbers and most of its words appear in a
 *   screen seen during the run (a made-up answer does not).
 * A model that insists after `maxRejections` questions is believed (a check can be wrong too).
 */

export interface PendingChange {
  change: StateChange;
  package: string;
  activity: string;
}

/** `handOver`: the model insists on ending while a mistake is still on the phone — a person must look. */
export type Verdict = { ok: true } | { ok: false; reason: string; handOver?: boolean };

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Text of a screen for answer grounding: labels, descriptions, values, plain text. */
function screenText(o: Observation): string[] {
  return [
    o.app.title,
    // A control's range is listed with its ends ("26 (0–255)"): a summary may quote any of them.
    ...o.elements.flatMap((e) => [e.text, e.desc, e.label ?? '', e.range ? writeRange(e.range) : '']),
    ...o.texts,
  ].filter(Boolean);
}

const NUMBER = /\d+(?:[.,:]\d+)*/g;
/** "08:45" and "8:45" are the same number on a screen; "1,200" keeps its shape. */
const normNumber = (n: string) => n.replace(/(^|[.,:])0+(?=\d)/g, '$1');
/** Words that say "finished" rather than report something read off the screen. */
const GENERIC = /^(done|ok|okay|finished|completed?|success(ful)?|all set|完成|好了|已完成)$/i;
/** A run of digits with the separators phone numbers and card numbers are written with. */
const DIGIT_RUN = /\+?\(?\d[\d\s\-().]{4,}\d/g;

/**
 * Every way a screen writes its numbers: as shown ("44,321.94"), without thousands separators
 * ("44321.94"), by parts ("8" and "45" of "8:45"), and a phone number's digits alone
 * ("+1 650-555-9734" → "16505559734").
 */
function shownNumbers(corpus: string): Set<string> {
  const out = new Set<string>();
  for (const m of corpus.match(NUMBER) ?? []) {
    out.add(normNumber(m));
    if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(m)) out.add(normNumber(m.replace(/,/g, '')));
    for (const part of m.split(/[.,:]/)) out.add(normNumber(part));
  }
  for (const m of corpus.match(DIGIT_RUN) ?? []) out.add(m.replace(/\D/g, ''));
  return out;
}

/** An answer's numbers, the way a person means them ("44,321.94" and "44321.94" are one number). */
function answerNumbers(a: string): string[] {
  return (a.match(NUMBER) ?? []).map((n) => normNumber(/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(n) ? n.replace(/,/g, '') : n));
}

const TIME = /(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])/g;
/** A time to the second ("16:49:41": a recording's readout and its watermark). */
const TIME_S = /(?<![\d:])(\d{1,2}):(\d{2}):(\d{2})(?![\d:])/g;
const AMOUNT = /(?<![\d.,:])\d+(?:\.\d+)?(?![\d:])/g;
/** Only a screen's first numbers are paired: a dial pad or a long list would make most numbers derivable. */
const MAX_PAIRED_TIMES = 20;
const MAX_PAIRED_AMOUNTS = 12;

/**
 * Numbers a person computes from what one screen shows, not reads off it: the time between two
 * shown times (as minutes, `H:MM`, and its hours and minutes), the sum and difference of two shown
 * amounts. An answer built from them ("the meeting lasts 1 h 45 min") is grounded; a number no pair
 * of one screen's numbers gives is still invented.
 */
export function derivedNumbers(texts: readonly string[]): string[] {
  const corpus = texts.join('\n');
  const out = new Set<string>();
  const times = [...new Set([...corpus.matchAll(TIME)].map((m) => Number(m[1]) * 60 + Number(m[2])))].slice(
    0,
    MAX_PAIRED_TIMES,
  );
  for (let i = 0; i < times.length; i++)
    for (let j = i + 1; j < times.length; j++) {
      const d = Math.abs((times[i] ?? 0) - (times[j] ?? 0));
      for (const m of [d, 24 * 60 - d]) {
        const h = Math.floor(m / 60);
        const min = m % 60;
        for (const v of [String(m), `${h}:${String(min).padStart(2, '0')}`, String(h), String(min)])
          out.add(normNumber(v));
      }
    }
  // To the second: the gap as seconds, as M:SS, and its minutes and seconds ("26 s", "1 min 26 s").
  const stamps = [
    ...new Set([...corpus.matchAll(TIME_S)].map((m) => (Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3]))),
  ];
  for (const [i, a] of stamps.slice(0, MAX_PAIRED_TIMES).entries())
    for (const b of stamps.slice(i + 1, MAX_PAIRED_TIMES)) {
      const d = Math.abs(a - b);
      const min = Math.floor(d / 60);
      const sec = d % 60;
      for (const v of [String(d), `${min}:${String(sec).padStart(2, '0')}`, String(min), String(sec)])
        out.add(normNumber(v));
    }
  const amounts = [...new Set((corpus.replace(TIME_S, ' ').replace(TIME, ' ').match(AMOUNT) ?? []).map(Number))].slice(
    0,
    MAX_PAIRED_AMOUNTS,
  );
  const fmt = (v: number) => normNumber(String(Math.round(v * 100) / 100));
  for (let i = 0; i < amounts.length; i++)
    for (let j = i + 1; j < amounts.length; j++) {
      const a = amounts[i] ?? 0;
      const b = amounts[j] ?? 0;
      out.add(fmt(a + b));
      out.add(fmt(Math.abs(a - b)));
    }
  return [...out];
}

export interface AnswerContext {
  /**
   * Whether the goal asks a question. A question's answer is judged by value (numbers, and the
   * words of a short answer); any other goal's `done` text is a summary, judged only by the
   * numbers it claims. Unknown: judged as an answer.
   */
  question?: boolean;
  /** The goal's own text: a summary may repeat its numbers ("Alarm set for 05:45") unseen on a screen. */
  goal?: string;
  /** Numbers computed from one screen's numbers (derivedNumbers): an answer may give them. */
  derived?: ReadonlySet<string>;
}

/** An answer as judged: normalised, quotes trimmed, an element id quoted from the listing ("[e5e22768]") left out. */
const cleanAnswer = (answer: string) =>
  norm(answer.replace(/\[[0-9a-f]{3,8}(?:~\d+)?\]/gi, ' '))
    .trim()
    .replace(/^["'“”「]+|["'“”」.。!！]+$/g, '');

/**
 * Whether an answer is something the run's screens showed: every number in it was shown (as a
 * whole number: "8" is not shown by "85%"; separators and phone formatting do not matter), and a
 * short wordy answer to a question ("Pixel 7", "Bluetooth") has most of its words on a screen.
 * Longer prose, and any summary of a task, is judged by its numbers only: a summary of what was
 * done is not read off a screen.
 */
export function answerGrounded(answer: string, seen: readonly string[], ctx: AnswerContext = {}): boolean {
  const a = cleanAnswer(answer);
  if (!a || GENERIC.test(a)) return true;
  const corpus = norm(seen.join('\n'));
  if (corpus.includes(a)) return true;
  const shown = shownFor(corpus, ctx);
  const numbers = answerNumbers(a);
  const digitsOnly = a.replace(/\D/g, '');
  const asPhone = /^[+\d\s\-().]+$/.test(a) && digitsOnly.length >= 6 && shown.has(digitsOnly);
  if (!asPhone && unshown(numbers, shown, ctx).length > 0) return false;
  if (ctx.question === false) return true;
  if (numbers.length > 0 || a.split(/\s+/).length > 3) return true;
  const words = [...keyTokens(a)];
  if (words.length === 0) return true;
  const hits = words.filter((w) => corpus.includes(w)).length;
  return hits * 2 >= words.length;
}

/** The numbers a run showed: its screens', and for a summary (not a question) the goal's own. */
const shownFor = (corpus: string, ctx: AnswerContext) =>
  shownNumbers(ctx.question === false && ctx.goal ? `${corpus}\n${norm(ctx.goal)}` : corpus);

const unshown = (numbers: readonly string[], shown: ReadonlySet<string>, ctx: AnswerContext) =>
  numbers.filter((n) => !shown.has(n) && !ctx.derived?.has(n));

/** The numbers of an answer that no screen showed nor gives by a pair of its numbers (for the refusal to name). */
export function unshownNumbers(answer: string, seen: readonly string[], ctx: AnswerContext = {}): string[] {
  const corpus = norm(seen.join('\n'));
  const shown = shownFor(corpus, ctx);
  return unshown(answerNumbers(cleanAnswer(answer)), shown, ctx);
}

/** Screen texts a checkpoint keeps for answer grounding (the newest). */
const SAVED_TEXTS = 400;

const CompletionStateSchema = z.object({
  pending: z.array(z.object({ change: z.record(z.string(), z.unknown()), package: z.string(), activity: z.string() })),
  lastFailure: z.string().optional(),
  failedExpect: ExpectSchema.optional(),
  rejections: z.number(),
  seen: z.array(z.string()),
  derived: z.array(z.string()).optional(),
});
export type CompletionState = Omit<z.infer<typeof CompletionStateSchema>, 'pending'> & { pending: PendingChange[] };

export class CompletionTracker {
  private pending: PendingChange[] = [];
  private lastFailure?: string;
  /** The expectation that failed, re-checked on the screen a done is claimed on. */
  private failedExpect?: Expect;
  private readonly seen: string[] = [];
  private readonly seenSet = new Set<string>();
  /** Numbers computed from one screen's numbers (derivedNumbers), newest last. */
  private readonly derived = new Set<string>();
  private rejections = 0;

  constructor(
    private readonly opts: {
      maxRejections?: number;
      /** How many distinct screen texts are kept for answer grounding. */
      maxTexts?: number;
    } = {},
  ) {}

  /** Every observation the run makes: texts for grounding; pending changes seen put back resolve. */
  observe(o: Observation): void {
    this.observeTexts(screenText(o));
    this.pending = this.pending.filter((p) => !putBack(p, o));
  }

  /** Texts the run was shown as read off the screen (a screen's, or a tool's reading of it). */
  observeTexts(texts: readonly string[]): void {
    for (const n of derivedNumbers(texts)) this.derived.add(n);
    for (const t of texts) {
      if (this.seenSet.has(t)) continue;
      this.seenSet.add(t);
      this.seen.push(t);
    }
    const max = this.opts.maxTexts ?? 4000;
    while (this.seen.length > max) this.seenSet.delete(this.seen.shift() ?? '');
  }

  /** The outcome of one executed action (after the audit), with the changes it made unasked. */
  record(
    outcome: { ok: boolean; reason?: string; expect?: Expect },
    post: Observation | undefined,
    unintended: StateChange[],
  ): void {
    this.lastFailure = outcome.ok ? undefined : (outcome.reason ?? 'the last action failed');
    this.failedExpect = outcome.ok ? undefined : outcome.expect;
    // A field's old text is not kept (it may be typed text), so its undo cannot be seen: not tracked.
    if (post)
      for (const change of mistakes(unintended).filter((c) => c.kind !== 'field'))
        this.pending.push({ change, package: post.app.package, activity: post.app.activity });
    if (post) this.observe(post);
  }

  /**
   * The model read or looked at the screen after a failed check (a read that answered, a look whose
   * screenshot it gets): what it then claims with done is its judgement of what it saw.
   */
  confirmedOnScreen(): void {
    this.lastFailure = undefined;
    this.failedExpect = undefined;
    // A control pressed by mistake (Send, Save) acts elsewhere and cannot be undone: looking at its
    // result is all the check asks.
    this.pending = this.pending.filter((p) => p.change.kind !== 'pressed');
  }

  /**
   * Its evidence as data: the run's state keeps every text (`all`); a checkpoint the newest
   * SAVED_TEXTS — a resumed run still knows the mistake it never undid.
   */
  toJSON(all = false): CompletionState {
    return {
      pending: [...this.pending],
      lastFailure: this.lastFailure,
      failedExpect: this.failedExpect,
      rejections: this.rejections,
      seen: all ? [...this.seen] : this.seen.slice(-SAVED_TEXTS),
      derived: all ? [...this.derived] : [...this.derived].slice(-SAVED_TEXTS),
    };
  }

  /** From a checkpoint's copy (validated: a bad one is no evidence, not a broken resume). */
  static fromJSON(v: unknown, opts?: ConstructorParameters<typeof CompletionTracker>[0]): CompletionTracker {
    const parsed = CompletionStateSchema.safeParse(v);
    return parsed.success
      ? CompletionTracker.fromState(parsed.data as unknown as CompletionState, opts)
      : new CompletionTracker(opts);
  }

  /** From the run's own state (already typed). */
  static fromState(v: CompletionState, opts?: ConstructorParameters<typeof CompletionTracker>[0]): CompletionTracker {
    const t = new CompletionTracker(opts);
    t.pending = [...v.pending];
    t.lastFailure = v.lastFailure;
    t.failedExpect = v.failedExpect;
    t.rejections = v.rejections;
    for (const n of v.derived ?? []) t.derived.add(n);
    for (const x of v.seen) {
      if (t.seenSet.has(x)) continue;
      t.seenSet.add(x);
      t.seen.push(x);
    }
    return t;
  }

  pendingChanges(): readonly PendingChange[] {
    return this.pending;
  }

  /**
   * Whether a terminal action may end the run now (`done` and `ask_user`; `infeasible` always may).
   * With the goal, a `done` text is judged as an answer only when the goal asks a question.
   */
  check(action: Action, obs: Observation, ctx: { goal?: string } = {}): Verdict {
    this.observe(obs);
    // The check that failed holds now (a counter that updated late): the screen confirms it.
    if (this.failedExpect && holdsOn(this.failedExpect, obs)) this.confirmedOnScreen();
    const v = this.verdict(
      action,
      {
        ...(ctx.goal === undefined ? {} : { question: asksQuestion(ctx.goal), goal: ctx.goal }),
        derived: this.derived,
      },
      obs.visualFirst,
    );
    if (v.ok) return v;
    if (this.rejections >= (this.opts.maxRejections ?? 2)) {
      // Weak evidence (a failed check, an unseen answer) yields to a model that insists; a change
      // seen made by mistake and never put back does not: the run ends with a person, not "done".
      return this.pending.length > 0
        ? { ok: false, handOver: true, reason: `${v.reason}; handing over so a person can check` }
        : { ok: true };
    }
    this.rejections++;
    return v;
  }

  /** `drawn`: the screen is visual-first — what it shows is in its pixels, not in any tree read. */
  private verdict(action: Action, answer: AnswerContext, drawn = false): Verdict {
    if (action.tool !== done.name && action.tool !== askUser.name) return { ok: true };
    if (this.pending.length > 0) {
      const what = this.pending.map((p) => describeChange(p.change)).join(', ');
      // A press cannot be taken back: ask only to check it; state changes can be set back.
      const undoable = this.pending.some((p) => p.change.kind !== 'pressed');
      return {
        ok: false,
        reason: undoable
          ? `not finished: mistakes never put back: ${what}; undo them (or check the result) before ending`
          : `not finished: ${what} by mistake; read or look at what it did before ending`,
      };
    }
    if (action.tool !== done.name) return { ok: true };
    if (this.lastFailure)
      return {
        ok: false,
        reason: `the last action failed its check (${this.lastFailure}); done is accepted after an action whose expect is met, or after a read or look at what shows the goal reached`,
      };
    // A summary read off a drawn screen (a map's "z 15.1") names what no tree shows; a question's
    // answer must still be grounded.
    const unverifiable = drawn && answer.question === false;
    if (action.answer && !unverifiable && !answerGrounded(action.answer, this.seen, answer))
      return {
        ok: false,
        reason:
          answer.question === false
            ? `the summary "${action.answer}" names ${numbersNamed(unshownNumbers(action.answer, this.seen, answer))} neither the task nor any screen in this run showed (a time between two shown times, or a sum or difference of two shown amounts, counts as shown); check it on the screen`
            : `the answer "${action.answer}" is not on any screen seen in this run; read it from the screen`,
      };
    return { ok: true };
  }
}

const numbersNamed = (ns: readonly string[]) =>
  ns.length === 0 ? 'a number' : ns.length === 1 ? `a number (${ns[0]})` : `numbers (${ns.join(', ')})`;

/** A pending change is resolved when its page shows the element (or counter) back as it was. */
function putBack(p: PendingChange, o: Observation): boolean {
  if (o.app.package !== p.package || o.app.activity !== p.activity) return false;
  const c = p.change;
  if (c.kind === 'count' && !c.id) return counterAfter(o, c.label) === c.from;
  const e = o.elements.find((x) => x.id === c.id);
  if (!e) return false;
  if (c.kind === 'checked') return (e.flags.checked ? 'on' : 'off') === c.from;
  if (c.kind === 'value') return String(e.range?.current) === c.from;
  if (c.kind === 'count') return e.text === c.from;
  if (c.kind === 'badge') return e.text.includes(`(${c.from})`);
  return false;
}
