import { resolveRef } from '../../core/element-ref.js';
import type { HistoryEntry, Subgoal } from './types.js';

/**
 * PROMPT_FORMAT: the layout of the planner's prompts, defined once; the builders (./builders.ts)
 * write prompts only through it. Readers are clients: the reference model reads a request with
 * its own reader (src/testbed/reference-model/read-request.ts), as any model would, and
 * test/testbed/prompt-format.test.ts builds real prompts and proves that reader recovers every
 * field, so a layout change it does not follow fails there instead of silently degrading the suite.
 *
 * User message grammar:
 *   message   = section *( "\n\n" section ) [ "\n\n" image-note ]
 *   section   = label [ " (" qualifier ")" ] ":" ( " " value | "\n" lines )
 *   label     = one of SECTION's values (letters and spaces)
 *   screen    = the Screen section's lines: SCREEN_OPEN "\n" compact view "\n" SCREEN_CLOSE
 * Block bodies use these line grammars:
 *   Plan, Previous plan   planLine:     `N. [m] text`  m = "x" done · ">" current · " " open; a Plan
 *                         with none yet is one line, `Plan: ` PLAN_PENDING (Flash's first decision)
 *   Burst                 one line, burstLine(N): N = the most steps of one action_sequence (Flash)
 *   Notes                 one `- text` line per note (the model's working memory), oldest first
 *   Recent steps          historyLine:  `N. action[ expect E] → R[ (note)]`, R = met (E checked and held) ·
 *                         FAILED · ok (no E: done, read, note, look) · ok, not checked · `taken before you, from a recording` (a step
 *                         given from a recording, e.g. a benchmark's gold history: not run, not checked, no E shown); the action in the
 *                         act call's fields (`tool [id] "label" op=… value=…`)
 *   Banned on this page   a LIST_SEPARATOR-joined list on one line, each action as it was sent (`tap point=503,897`, `type [id] "Email" text=(5 chars)`)
 *   Apps                  one line, the launcher's app names joined by APPS_SEPARATOR (formatApps): what
 *                         launch_app takes; in the plan prompt, and in a step's prompt on the home screen
 *   Screen                perception's compact view (DESIGN §3): a header line `app pkg/activity "title" · …`,
 *                         element lines `id verb Class "label" state #resource x,y` (SCREEN_LINE; the id
 *                         is its shortest unique prefix, bare (bracketed in the full listing), the verb only where the class does not imply it,
 *                         the class omitted for plain views), a held control's line ending in HELD_MARK + its
 *                         categories (`· asks user: payment`), then `text: "…" · "…"`.
 * System message: one line `Tools: ` + tool help entries joined by LIST_SEPARATOR + ".", each entry
 * starting with the tool's name (`tap(target_id|point)`).
 *
 * Screen text is untrusted: fenceScreen escapes the markers inside it, so exactly one fence exists.
 */

export const SCREEN_OPEN = '<screen untrusted>';
export const SCREEN_CLOSE = '</screen>';

/** Section labels, in the order the decide prompt writes them. */
export const SECTION = {
  goal: 'Goal',
  apps: 'Apps',
  previousPlan: 'Previous plan',
  plan: 'Plan',
  current: 'Current subgoal',
  burst: 'Burst',
  notes: 'Notes',
  knowledge: 'App map',
  history: 'Recent steps',
  banned: 'Banned on this page',
  hint: 'Note',
  screen: 'Screen',
  tools: 'Tools',
} as const;
type SectionLabel = (typeof SECTION)[keyof typeof SECTION];

export const SECTION_BREAK = '\n\n';
export const LIST_SEPARATOR = '; ';
/** The Plan value while there is none yet (Flash: the first decision carries it). */
export const PLAN_PENDING = 'none yet — send plan=[…] with this action: the subgoals still to do after it';

/**
 * The Burst value (Flash): when to send several steps as one action_sequence, how many at most, and
 * how a step on the next screen is written (by label: the agent grounds it there, agent/flash-burst.ts).
 */
export function burstLine(max: number): string {
  return `when the next steps are certain (fields to fill, switches to flip, then a tap that moves on), send them as one action_sequence of up to ${max} control_action steps; after a tap that opens a screen you know, go on there by label, not id ({"label":"Wi-Fi","op":"click","state":"off"}); a step that asks the user goes alone`;
}

/** The Current subgoal value once every subgoal is done (while one is open, the plan's [>] line names it and the section is left out). */
export const ALL_DONE =
  'all subgoals done — call done if the screen shows the goal reached, else plan=[…] what is left';
/**
 * The Current subgoal value once every subgoal is done while a dialog is open (the confirmation an
 * approved Delete opened): "call done" is not said over a question still on the screen.
 */
export function allDoneDialog(title: string): string {
  return `all subgoals done, but a dialog is open${title ? ` (${JSON.stringify(title)})` : ''}: answer it first (unless the goal wants it left open), then check the screen and call done`;
}

/** How the tool help offers `subgoal_done=N` (ticks up to subgoal N): a reader knows it may send a number. */
export const SUBGOAL_DONE_FORMS = 'subgoal_done=true|N';

const APPS_SEPARATOR = ', ';
/** At most this many names on the Apps line; a phone with more says how many are left out. */
export const MAX_APPS = 80;

/**
 * The Apps value: names as given, each once (a `,` inside a name would split it, so it becomes a
 * space), in the given order, capped at MAX_APPS with `(+N more)`.
 */
export function formatApps(names: readonly string[]): string {
  const seen = new Set<string>();
  const clean = names
    .map((n) =>
      n
        .replace(/[,\n]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((n) => n && !seen.has(n.toLowerCase()) && seen.add(n.toLowerCase()));
  const shown = clean.slice(0, MAX_APPS).join(APPS_SEPARATOR);
  return clean.length > MAX_APPS ? `${shown} (+${clean.length - MAX_APPS} more)` : shown;
}

/** `Label: value` */
export function lineSection(label: SectionLabel, value: string, qualifier?: string): string {
  return `${header(label, qualifier)} ${value}`;
}

/** `Label:\nline…` */
export function blockSection(label: SectionLabel, lines: string, qualifier?: string): string {
  return `${header(label, qualifier)}\n${lines}`;
}

function header(label: SectionLabel, qualifier?: string): string {
  return qualifier ? `${label} (${qualifier}):` : `${label}:`;
}

const REVISE = 'revise it; ';
/** The Previous plan section's qualifier: why the plan is revised. */
export function reviseQualifier(reason: string): string {
  return `${REVISE}${reason}`;
}

const DELTA = ', changes since last step';
/**
 * The Screen section's qualifier: `aspect 0.45[, changes since last step]`, or none where the
 * aspect is left out (`placed` false: no point on the screen needs it) — a delta always says it.
 */
export function screenQualifier(aspect: number, delta: boolean, placed = true): string | undefined {
  if (!placed && !delta) return undefined;
  return `aspect ${aspect.toFixed(2)}${delta ? DELTA : ''}`;
}

type PlanMark = 'x' | '>' | ' ';
function planLine(index: number, mark: PlanMark, text: string): string {
  return `${index + 1}. [${mark}] ${text}`;
}

export function formatPlan(plan: Subgoal[], current: number): string {
  return plan.map((s, i) => planLine(i, s.done ? 'x' : i === current ? '>' : ' ', s.text)).join('\n');
}

const BY_WHOM: Record<NonNullable<HistoryEntry['by']>, string> = {
  rule: 'not your action: an interrupt rule',
  replay: 'not your action: replayed from page memory',
  gate: 'not your action: waited for the screen',
};

/**
 * The model must tell its own actions from those the agent took for it: they say who, in the note.
 * Every step with an expectation shows it and what became of it: `met` (checked and held), `FAILED`
 * (with what was seen), or `ok, not checked` (done, but nothing verified it); a step without one
 * (done, read, note, look: expect "-") says `ok` or `FAILED`. A step given from a recording (a
 * benchmark's gold history) says it was taken before the model, from a recording, with no expectation:
 * it was neither run here nor checked (players read a bare `recorded` as their own step replaced).
 */
function historyLine(e: HistoryEntry): string {
  const who = e.by ? `${BY_WHOM[e.by]}${e.note ? '; ' : ''}` : '';
  const note = who || e.note ? ` (${who}${e.note ?? ''})` : '';
  // A recorded step's expectation is not the model's and was never checked: not shown as if sent.
  const expect = e.expect === '-' || e.recorded ? '' : ` expect ${e.expect}`;
  return `${e.step}. ${withoutTypedLength(e.action, e.expect)}${expect} → ${resultWord(e)}${note}`;
}

/**
 * A typed text hidden as its length (`text=(7 chars)`): when the expectation names it
 * (`element_state text=Cortado`), the length says nothing more and is left out of the action. A
 * text shown as typed stays: players read a type line without `text=` as a type of nothing.
 */
function withoutTypedLength(action: string, expect: string): string {
  const typed = /^element_state (?:\S+ )?text=(.*)$/.exec(expect)?.[1];
  if (typed === undefined) return action;
  return action.replace(` text=${typedText(typed)}`, '');
}

/** The result of a step as its history line writes it. */
const RESULT = {
  met: 'met',
  ok: 'ok',
  unchecked: 'ok, not checked',
  recorded: 'taken before you, from a recording',
  failed: 'FAILED',
} as const;

function resultWord(e: HistoryEntry): string {
  if (!e.ok) return RESULT.failed;
  if (e.recorded) return RESULT.recorded;
  if (e.expect === '-') return RESULT.ok;
  return e.unchecked ? RESULT.unchecked : RESULT.met;
}

const PLACEHOLDER = /^(⟨secret\d+⟩)+$/;
/**
 * Typed text as a history line or a ban shows it: the model's own placeholder (`⟨secret1⟩`) as is;
 * a secret (a password field's text, or where the field is not known) only by its length; any
 * other text quoted, as typed — a player cannot check `(10 chars)` against what it meant.
 */
export function typedText(t: string, shown = false): string {
  if (PLACEHOLDER.test(t)) return t;
  return shown ? JSON.stringify(t) : `(${[...t].length} chars)`;
}

export function formatNotes(notes: readonly string[]): string {
  return notes.map((n) => `- ${n.replace(/\n/g, ' ')}`).join('\n');
}

export function formatHistory(h: HistoryEntry[]): string {
  return h.map(historyLine).join('\n');
}

/**
 * `id verb? Class? rest` (the id bracketed in the full listing): id is 3–8 hex digits (the shortest prefix unique on the screen) with an
 * optional `~N` for repeated ids; the verb is written only where the class does not imply it
 * (core's IMPLIED_VERB), and a plain view has neither.
 */
export const SCREEN_LINE =
  /^\s*\[?([0-9a-f]{3,8}(?:~\d+)?)\]?\s+(?:(tap|fill|toggle|slide|scroll|long)\s+)?(?:([A-Z][\w.]*)\s+)?(.*)$/;

/**
 * The mark on a screen line whose tap the guard holds for the user (`… 540,860 · asks user: payment`),
 * so the model knows before it taps. It follows the line's centre, outside any quoted label, so
 * screen text cannot forge one; the agent computes which ids get it (the executor's guard).
 */
export const HELD_WORDS = 'asks user: ';
const HELD_MARK = ` · ${HELD_WORDS}`;

/** The screen with the held controls' lines marked; `held`: element id → the guard's categories. */
export function markHeld(screen: string, held: Readonly<Record<string, readonly string[]>> | undefined): string {
  if (!held || Object.keys(held).length === 0) return screen;
  return screen
    .split('\n')
    .map((line) => {
      const id = SCREEN_LINE.exec(line)?.[1];
      // A line shows its id's shortest unique prefix; `held` is keyed by full ids.
      const key = id ? resolveRef(Object.keys(held), id) : undefined;
      const cats = key?.ok ? held[key.id] : undefined;
      return cats?.length ? `${line}${HELD_MARK}${cats.join('/')}` : line;
    })
    .join('\n');
}

/**
 * The history note of a guarded action the user answered: it names the control and the guard's
 * category, never "this payment step" (two relay models read that as "something was paid").
 * `what` is the action as the person was asked (`tap "Pay ¥18"`).
 */
export function consentNote(verdict: 'approved' | 'declined', what: string, categories: readonly string[]): string {
  const kinds = categories.length ? ` (held as ${categories.join('/')})` : '';
  return verdict === 'approved' ? `the user approved ${what}${kinds}` : `the user declined ${what}${kinds}: not done`;
}

/**
 * The history note of a tap on the confirmation dialog an approved action opened: one act, one
 * consent (`covered by the user's approval of tap "Delete" at step 5`), not asked again.
 */
export function coveredNote(what: string, step: number): string {
  return `covered by the user's approval of ${what} at step ${step}: not asked again`;
}

/** Keeps a screen dump from closing its own fence. */
export function fenceScreen(text: string): string {
  const safe = text.replaceAll(SCREEN_CLOSE, '</ screen>').replaceAll(SCREEN_OPEN, '< screen untrusted>');
  return `${SCREEN_OPEN}\n${safe}\n${SCREEN_CLOSE}`;
}
