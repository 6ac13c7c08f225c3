import { impliedVerb } from '../../core/element-ref.js';
import { HELD_LINE, SCREEN_CLOSE, SCREEN_LINE, SCREEN_OPEN } from '../../planner/prompt/format.js';

/**
 * Reads the fenced compact observation (DESIGN §3 line format) out of a prompt, through the
 * grammar in planner/prompt/format.ts. Tolerant of column spacing and extra fields.
 */

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
  range?: { current: number; max: number };
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
  raw: string;
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
  const range = /(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)/.exec(rest);
  const state = /(?:^|\s)(on|off|checked|unchecked)(?=\s|$)/.exec(rest)?.[1];
  const held = HELD_LINE.exec(rest)?.[1]?.split('/');
  return {
    id: id ?? '',
    // The legend: a line without a verb does what its class implies (a plain view: tap).
    verb: verb ?? impliedVerb(role),
    role: role ?? 'View',
    text,
    resourceId: res,
    ...(last ? { x: Number(last[1]), y: Number(last[2]) } : {}),
    state,
    range: range ? { current: Number(range[1]), max: Number(range[2]) } : undefined,
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
  for (const line of raw.split('\n')) {
    const el = parseScreenLine(line);
    if (el) elements.push(el);
  }
  const texts = [...raw.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '').filter(Boolean);
  return { elements, texts, raw };
}
