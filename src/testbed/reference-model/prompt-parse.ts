import {
  ALL_DONE,
  HISTORY_LINE,
  LIST_SEPARATOR,
  PLAN_LINE,
  type PlanMark,
  parseApps,
  parseScreenQualifier,
  RESULT,
  reviseReason,
  SCREEN_APP,
  SCREEN_CLOSE,
  SCREEN_OPEN,
  SECTION,
  SECTION_BREAK,
  SECTION_HEADER,
  toolNames,
} from '../../planner/prompt/format.js';
import { extractScreen, type ParsedScreen } from './screen-parse.js';

/**
 * The reference model reads a request the way a model would, and only through PROMPT_FORMAT
 * (planner/prompt/format.ts): sections by label, block lines by their grammar, the screen by its
 * fence. Nothing here knows a literal of the prompt; test/testbed/prompt-format.test.ts proves the
 * parse recovers every field the builders write.
 */

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

export interface ParsedPrompt {
  goal: string;
  plan: PromptSubgoal[];
  /** Index of the `[>]` subgoal in `plan`; -1 when there is none. */
  currentIndex: number;
  /** The Current subgoal line (ALL_DONE once every subgoal is done). */
  current: string;
  allDone: boolean;
  history: PromptStep[];
  banned: string[];
  hint?: string;
  screen: ParsedScreen;
  /** The Screen section's qualifier: width/height, and whether the screen is a delta. */
  aspect?: number;
  screenIsDelta: boolean;
  /** `package/activity` from the screen's header line. */
  app: string;
  /** Tool names offered in the system message. */
  tools: string[];
  /** The Apps line: the launcher's app names, as launch_app takes them (empty when not shown). */
  apps: string[];
  /** The plan prompt's previous plan and why it is revised. */
  previousPlan?: { plan: PromptSubgoal[]; reason: string };
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

export function historyLines(lines: string[]): PromptStep[] {
  return lines
    .map((l) => HISTORY_LINE.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({
      step: Number(m[1]),
      action: m[2] ?? '',
      expect: m[3] ?? '',
      ok: m[4] !== RESULT.failed,
      met: m[4] === RESULT.met,
      ...(m[4] === RESULT.recorded ? { recorded: true } : {}),
      ...(m[5] ? { note: m[5] } : {}),
    }));
}

/** The Recent steps of a prompt (or of a prompt fragment). */
export function extractHistory(prompt: string): PromptStep[] {
  return historyLines(sections(prompt).get(SECTION.history)?.lines ?? []);
}

function systemTools(system: string): string[] {
  const line = system.split('\n').find((l) => l.startsWith(`${SECTION.tools}: `));
  return line ? toolNames(line.slice(SECTION.tools.length + 2)) : [];
}

export function parsePrompt(user: string, system = ''): ParsedPrompt {
  const s = sections(user);
  const plan = planLines(s.get(SECTION.plan)?.lines);
  // While a subgoal is open the plan's [>] line names it; the Current line is written once all are done.
  const currentIndex = plan.findIndex((p) => p.mark === '>');
  const current = s.get(SECTION.current)?.value.trim() ?? plan[currentIndex]?.text ?? '';
  const screen = extractScreen(user);
  const prev = s.get(SECTION.previousPlan);
  const banned = s.get(SECTION.banned)?.value;
  const shape = parseScreenQualifier(s.get(SECTION.screen)?.qualifier ?? '');
  return {
    goal: s.get(SECTION.goal)?.value.trim() ?? '',
    plan,
    currentIndex,
    current,
    allDone: current === ALL_DONE,
    history: historyLines(s.get(SECTION.history)?.lines ?? []),
    banned: banned ? banned.split(LIST_SEPARATOR).filter(Boolean) : [],
    hint: s.get(SECTION.hint)?.value,
    screen,
    aspect: shape?.aspect,
    screenIsDelta: shape?.delta ?? false,
    app: SCREEN_APP.exec(screen.raw.trim())?.[1] ?? '',
    tools: systemTools(system),
    apps: parseApps(s.get(SECTION.apps)?.value ?? ''),
    previousPlan: prev ? { plan: planLines(prev.lines), reason: reviseReason(prev.qualifier ?? '') } : undefined,
  };
}
