import { SCREEN_CLOSE, SCREEN_OPEN } from '../../planner/prompt/builders.js';

/**
 * Reads the prompt the way a model would: the fenced compact observation (DESIGN §3 line format),
 * the goal, the current subgoal and the recent steps. Tolerant of column spacing and extra fields.
 */

export interface ScreenLine {
  id: string;
  verb: string;
  role: string;
  text: string;
  resourceId: string;
  x: number;
  y: number;
  state?: string;
  range?: { current: number; max: number };
  focused: boolean;
  /** Everything after the label (state, resource id, centre). */
  raw: string;
}

export interface ParsedScreen {
  elements: ScreenLine[];
  /** Every quoted string on the screen, for answers and "is it visible" checks. */
  texts: string[];
  raw: string;
}

// `[id] verb Class "label" state #rid x,y` — the class is omitted for plain views and texts.
const LINE = /^\s*\[([0-9a-f]{4,8}(?:~\d+)?)\]\s+(\S+)\s+(?:([A-Za-z][\w.]*)\s+)?(.*)$/;

export function parseScreenLine(line: string): ScreenLine | undefined {
  const m = LINE.exec(line);
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
  const range = /(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)/.exec(rest);
  const state = /(?:^|\s)(on|off|checked|unchecked)(?=\s|$)/.exec(rest)?.[1];
  return {
    id: id ?? '',
    verb: verb ?? '',
    role: role ?? 'View',
    text,
    resourceId: res,
    x: last ? Number(last[1]) : 500,
    y: last ? Number(last[2]) : 500,
    state,
    range: range ? { current: Number(range[1]), max: Number(range[2]) } : undefined,
    focused: /\bfocused\b/.test(rest),
    raw: rest,
  };
}

export function extractScreen(prompt: string): ParsedScreen {
  const start = prompt.lastIndexOf(SCREEN_OPEN);
  const end = prompt.lastIndexOf(SCREEN_CLOSE);
  const raw = start >= 0 && end > start ? prompt.slice(start + SCREEN_OPEN.length, end) : '';
  const elements: ScreenLine[] = [];
  for (const line of raw.split('\n')) {
    const el = parseScreenLine(line);
    if (el) elements.push(el);
  }
  const texts = [...raw.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '').filter(Boolean);
  return { elements, texts, raw };
}

export function extractLine(prompt: string, label: string): string | undefined {
  const re = new RegExp(`^${label}: (.*)$`, 'm');
  return re.exec(prompt)?.[1]?.trim();
}

export interface PromptStep {
  step: number;
  action: string;
  ok: boolean;
  /** The step's note (why it failed), when the prompt shows one. */
  note?: string;
}

export function extractHistory(prompt: string): PromptStep[] {
  const block = /Recent steps:\n([\s\S]*?)(?:\n\n|$)/.exec(prompt)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => /^(\d+)\. (.*?) expect .* → (ok|FAILED)(?: \((.*)\))?$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ step: Number(m[1]), action: m[2] ?? '', ok: m[3] === 'ok', ...(m[4] ? { note: m[4] } : {}) }));
}
