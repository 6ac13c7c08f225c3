import { impliedVerb } from '../../core/element-ref.js';
import { type GridLine, gridCellCentre, readGridLine } from '../../core/grid-line.js';
import { readRange } from '../../core/range-value.js';
import { readSectionLine } from '../../core/section-line.js';
import type { ChatRequest } from './request.js';

/**
 * The reference model's one reader: what a chat-completions request carries, read as any model
 * client would read it — the function it is asked to call and the tools that function's schema
 * offers (`properties.tool.enum`, or the schema a JSON-mode system message spells out), the
 * system and user text, and in the user text the sections a person would see (Goal, Plan,
 * Recent steps, the fenced screen …). It knows the prompt's layout as a reader of it, not through
 * the product's code: test/testbed/prompt-format.test.ts builds real prompts with the real
 * builders and proves this reader recovers every field, so a layout change it does not follow
 * fails there rather than silently degrading the suite.
 */

const SCREEN_OPEN = '<screen untrusted>';
const SCREEN_CLOSE = '</screen>';
const SECTION = {
  goal: 'Goal',
  apps: 'Apps',
  previousPlan: 'Previous plan',
  plan: 'Plan',
  current: 'Current subgoal',
  burst: 'Burst',
  history: 'Recent steps',
  banned: 'Banned on this page',
  hint: 'Note',
  screen: 'Screen',
} as const;
const SECTION_BREAK = '\n\n';
const LIST_SEPARATOR = '; ';
/** `Label[ (qualifier)]:[ value]` */
const SECTION_HEADER = /^([A-Z][A-Za-z ]*?)(?: \((.*)\))?:(?: (.*))?$/;
/** The Plan line while there is none yet: this decision sends it (Flash). */
const PLAN_PENDING = /^none yet\b/;
/** The Burst line: how many steps one action_sequence may have. */
const BURST_MAX = /\bup to (\d+)\b/;
/** The Current subgoal line once every subgoal is done. */
const ALL_DONE = /^all subgoals done\b/;
/** `N. [m] text` */
const PLAN_LINE = /^(\d+)\. \[([x> ])\] (.*)$/;
/** `N. action[ expect E] → result[ (note)]`: the first ` expect ` ends the action. */
/** A step given from a recording (a benchmark's gold history), as the history writes its result. */
const RECORDED = 'taken before you, from a recording';
const HISTORY_LINE =
  /^(\d+)\. (.*?)(?: expect (.*?))? → (met|ok, not checked|ok|taken before you, from a recording|FAILED)(?: \((.*)\))?$/;
/** `id verb? Class? rest` of the compact view (the agent's lean listing writes ids bare; the full one brackets them). */
const SCREEN_LINE =
  /^\s*\[?([0-9a-f]{3,8}(?:~\d+)?)\]?\s+(?:(tap|fill|toggle|slide|scroll|long)\s+)?(?:([A-Z][\w.]*)\s+)?(.*)$/;
const SCREEN_APP = /^app (\S+)/m;
/** A held control's line ends in ` · asks user: payment` (after the quoted label: screen text cannot forge it). */
const HELD = / · asks user: ([a-z_/]+)$/;
const SCREEN_QUALIFIER = /^aspect (\d+(?:\.\d+)?)(, changes since last step)?/;
const MORE_APPS = / \(\+\d+ more\)$/;
const REVISE = /^revise it; /;
const DECLINED = /\bthe user declined\b/;

export type PlanMark = 'x' | '>' | ' ';

export interface PromptStep {
  step: number;
  action: string;
  expect?: string;
  ok: boolean;
  /** Its expectation was checked and held (`met`); false for `ok`, `ok, not checked`, `recorded` and FAILED. */
  met: boolean;
  /** Given from a recording (`recorded`: a benchmark's gold step), not run or checked here. */
  recorded?: boolean;
  /** The step's note (why it failed), when the prompt shows one. */
  note?: string;
}

export interface PromptSubgoal {
  text: string;
  mark: PlanMark;
}

export interface ScreenLine {
  id: string;
  verb: string;
  role: string;
  text: string;
  resourceId: string;
  /** The centre, where the line shows one (the lean listing places only what its label cannot). */
  x?: number;
  y?: number;
  state?: string;
  range?: { current: number; min: number; max: number };
  focused: boolean;
  /** The guard's categories when the line is marked as held (`· asks user: payment`). */
  held?: string[];
  /** Everything after the label (state, resource id, centre). */
  raw: string;
}

export interface ParsedScreen {
  elements: ScreenLine[];
  /** Every quoted string on the screen, for answers and "is it visible" checks. */
  texts: string[];
  /** The section headers (`section "…"` lines): headings of the rows below, never a row's value. */
  sections?: string[];
  raw: string;
}

export interface ParsedPrompt {
  goal: string;
  plan: PromptSubgoal[];
  /** Index of the `[>]` subgoal in `plan`; -1 when there is none. */
  currentIndex: number;
  /** The Current subgoal line (once every subgoal is done, it says so: `allDone`). */
  current: string;
  allDone: boolean;
  history: PromptStep[];
  /** A step's note says the user declined a guarded action. */
  declined: boolean;
  banned: string[];
  hint?: string;
  screen: ParsedScreen;
  /** The Screen section's qualifier: width/height, and whether the screen is a delta. */
  aspect?: number;
  screenIsDelta: boolean;
  /** `package/activity` from the screen's header line. */
  app: string;
  /** The tools the request's act schema offers (its `tool` enum). */
  tools: string[];
  /** The Apps line: the launcher's app names, as launch_app takes them (empty when not shown). */
  apps: string[];
  /** The plan prompt's previous plan and why it is revised. */
  previousPlan?: { plan: PromptSubgoal[]; reason: string };
  /** No plan yet: this decision is to send one (`plan=[…]`, Flash). */
  planPending: boolean;
  /** Bursts are asked for, of at most this many steps (the Burst line); absent otherwise. */
  burstMax?: number;
}

export interface ReadRequest {
  /** The function to call (`act`, `plan`): the request's tool, or the one a JSON-mode system message names. */
  fn: string;
  system: string;
  user: string;
  prompt: ParsedPrompt;
}

/** The text of a message's content (a string, or text parts among images). */
export function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => (p && typeof p === 'object' && 'text' in p && typeof p.text === 'string' ? p.text : ''))
      .join('\n');
  return '';
}

/** The function's JSON schema: the request's tool, or (JSON mode) the one the last system message spells out. */
function schemaOf(body: ChatRequest, system: string): unknown {
  const given = body.tools?.[0]?.function?.parameters;
  if (given !== undefined) return given;
  const m = /matching this JSON schema: (\{.*\})\s*$/m.exec(system);
  if (!m?.[1]) return undefined;
  try {
    return JSON.parse(m[1]);
  } catch {
    return undefined;
  }
}

/** The tool names a schema offers: its `tool` property's enum. */
export function offeredTools(schema: unknown): string[] {
  const tool = (schema as { properties?: { tool?: { enum?: unknown } } } | undefined)?.properties?.tool;
  return Array.isArray(tool?.enum) ? tool.enum.filter((t): t is string => typeof t === 'string') : [];
}

export function readRequest(body: ChatRequest): ReadRequest {
  const system = body.messages
    .filter((m) => m.role === 'system')
    .map((m) => contentText(m.content))
    .join('\n');
  const user = contentText(body.messages.find((m) => m.role === 'user')?.content);
  const fn = body.tools?.[0]?.function?.name ?? /the arguments of (\w+)/.exec(system)?.[1] ?? 'act';
  return { fn, system, user, prompt: parsePrompt(user, offeredTools(schemaOf(body, system))) };
}

interface Section {
  qualifier?: string;
  /** The same-line value, joined with any following lines. */
  value: string;
  lines: string[];
}

/** Label → section, for the user message with its fenced screen cut out (screen text is untrusted). */
function sections(user: string): Map<string, Section> {
  const start = user.lastIndexOf(SCREEN_OPEN);
  const end = user.lastIndexOf(SCREEN_CLOSE);
  const head = start >= 0 && end > start ? user.slice(0, start) + user.slice(end + SCREEN_CLOSE.length) : user;
  const out = new Map<string, Section>();
  for (const chunk of head.split(SECTION_BREAK)) {
    const [first = '', ...rest] = chunk.replace(/^\n+/, '').split('\n');
    const m = SECTION_HEADER.exec(first);
    if (!m?.[1] || out.has(m[1])) continue;
    const value = [m[3], ...rest].filter((l) => l !== undefined).join('\n');
    out.set(m[1], { qualifier: m[2], value, lines: rest });
  }
  return out;
}

function planLines(lines: string[] = []): PromptSubgoal[] {
  return lines
    .map((l) => PLAN_LINE.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ text: m[3] ?? '', mark: (m[2] ?? ' ') as PlanMark }));
}

function historyLines(lines: string[]): PromptStep[] {
  return lines
    .map((l) => HISTORY_LINE.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({
      step: Number(m[1]),
      action: m[2] ?? '',
      expect: m[3] ?? '',
      ok: m[4] !== 'FAILED',
      met: m[4] === 'met',
      ...(m[4] === RECORDED ? { recorded: true } : {}),
      ...(m[5] ? { note: m[5] } : {}),
    }));
}

/** The Recent steps of a prompt (or of a prompt fragment). */
export function extractHistory(prompt: string): PromptStep[] {
  return historyLines(sections(prompt).get(SECTION.history)?.lines ?? []);
}

function apps(value: string): string[] {
  return value
    .replace(MORE_APPS, '')
    .split(', ')
    .map((n) => n.trim())
    .filter(Boolean);
}

/** A user message; `tools` are the names the request's schema offers. */
export function parsePrompt(user: string, tools: readonly string[] = []): ParsedPrompt {
  const s = sections(user);
  const plan = planLines(s.get(SECTION.plan)?.lines);
  // While a subgoal is open the plan's [>] line names it; the Current line is written once all are done.
  const currentIndex = plan.findIndex((p) => p.mark === '>');
  const current = s.get(SECTION.current)?.value.trim() ?? plan[currentIndex]?.text ?? '';
  const screen = extractScreen(user);
  const prev = s.get(SECTION.previousPlan);
  const banned = s.get(SECTION.banned)?.value;
  const shape = SCREEN_QUALIFIER.exec(s.get(SECTION.screen)?.qualifier ?? '');
  const history = historyLines(s.get(SECTION.history)?.lines ?? []);
  const burstMax = Number(BURST_MAX.exec(s.get(SECTION.burst)?.value ?? '')?.[1]) || undefined;
  return {
    goal: s.get(SECTION.goal)?.value.trim() ?? '',
    plan,
    currentIndex,
    current,
    allDone: ALL_DONE.test(current),
    history,
    declined: history.some((h) => DECLINED.test(`${h.action} ${h.note ?? ''}`)),
    banned: banned ? banned.split(LIST_SEPARATOR).filter(Boolean) : [],
    hint: s.get(SECTION.hint)?.value,
    screen,
    aspect: shape ? Number(shape[1]) : undefined,
    screenIsDelta: shape?.[2] !== undefined,
    app: SCREEN_APP.exec(screen.raw.trim())?.[1] ?? '',
    tools: [...tools],
    apps: apps(s.get(SECTION.apps)?.value ?? ''),
    previousPlan: prev
      ? { plan: planLines(prev.lines), reason: (prev.qualifier ?? '').replace(REVISE, '') }
      : undefined,
    planPending: PLAN_PENDING.test(s.get(SECTION.plan)?.value.trim() ?? ''),
    ...(burstMax ? { burstMax } : {}),
  };
}

export function parseScreenLine(line: string): ScreenLine | undefined {
  const m = SCREEN_LINE.exec(line);
  if (!m) return undefined;
  const [, id, verb, role, rest0] = m;
  let rest = rest0 ?? '';
  let text = '';
  const q = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
  if (q) {
    text = (q[1] ?? '').replace(/\\"/g, '"');
    rest = rest.slice(q[0].length);
  }
  const res = /#(\S+)/.exec(rest)?.[1] ?? '';
  const pts = [...rest.matchAll(/(?<![\d/])(\d{1,4}),(\d{1,4})(?![\d/])/g)];
  const last = pts[pts.length - 1];
  const range = readRange(rest);
  const state = /(?:^|\s)(on|off|checked|unchecked)(?=\s|$)/.exec(rest)?.[1];
  const held = HELD.exec(rest)?.[1]?.split('/');
  return {
    id: id ?? '',
    // The legend: a line without a verb does what its class implies (a plain view: tap).
    verb: verb ?? impliedVerb(role),
    role: role ?? 'View',
    text,
    resourceId: res,
    ...(last ? { x: Number(last[1]), y: Number(last[2]) } : {}),
    state,
    range,
    focused: /\bfocused\b/.test(rest),
    ...(held ? { held } : {}),
    raw: rest,
  };
}

/**
 * The listed element an id names: the listing shows each id's shortest unique prefix, while the
 * agent's own lines (history notes, the banned list) write the full id, so a full id names the
 * line whose id it starts with (same ordinal).
 */
export function listedElement(screen: ParsedScreen, ref: string): ScreenLine | undefined {
  const [hex = '', ord] = ref.replace(/^\[|\]$/g, '').split('~');
  return screen.elements.find((e) => {
    const [h = '', o] = e.id.split('~');
    return o === ord && h.length > 0 && hex.startsWith(h);
  });
}

export function extractScreen(prompt: string): ParsedScreen {
  const start = prompt.lastIndexOf(SCREEN_OPEN);
  const end = prompt.lastIndexOf(SCREEN_CLOSE);
  const raw = start >= 0 && end > start ? prompt.slice(start + SCREEN_OPEN.length, end) : '';
  const elements: ScreenLine[] = [];
  const sections: string[] = [];
  for (const line of raw.split('\n')) {
    const section = readSectionLine(line);
    if (section !== undefined) sections.push(section);
    const grid = readGridLine(line);
    if (grid) elements.push(...gridCells(grid));
    const el = grid ? undefined : parseScreenLine(line);
    if (el) elements.push(el);
  }
  const texts = [...raw.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '').filter(Boolean);
  return { elements, texts, raw, sections };
}

/** A grid line's cells, each as its own line would read (its look, and its centre from the grid's spacing). */
function gridCells(g: GridLine): ScreenLine[] {
  return g.ids.flatMap((row, r) =>
    row.flatMap((id, c) => {
      const { x, y } = gridCellCentre(g, r, c);
      const cell = parseScreenLine(`${id} ${g.look} ${x},${y}`.replace(/ {2,}/g, ' '));
      return cell ? [cell] : [];
    }),
  );
}

/** Typed text as the history shows it: its length (`(5 chars)`), or the model's own placeholder. */
export function shownTyped(t: string): string {
  return /^(⟨secret\d+⟩)+$/.test(t) ? t : `(${[...t].length} chars)`;
}
