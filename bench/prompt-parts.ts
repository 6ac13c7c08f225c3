import { LINE_ID_RE } from '../src/core/element-ref.js';
import { SCREEN_CLOSE, SECTION, SECTION_BREAK } from '../src/planner/prompt/format.js';
import type { ChatRequest } from '../src/testbed/reference-model/server.js';
import { countTokens } from '../src/testbed/reference-model/tokens.js';

/**
 * Where a decision request's prompt tokens go (bench:loop): the system message, the tool and its
 * JSON schema, the fenced screen, the history, and the rest of the user message (goal, plan,
 * notes, bans, hint). Counted with the same tokenizer the reference model reports usage with, so the
 * parts add up to that call's `prompt_tokens` (give or take the separators between messages).
 */

export interface PromptParts {
  system: number;
  schema: number;
  screen: number;
  history: number;
  other: number;
  total: number;
  /** The screen's app line and element ids: equal keys on consecutive calls = the same page. */
  screenKey: string;
}

export const PART_NAMES = ['system', 'schema', 'screen', 'history', 'other'] as const;

function text(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => (p && typeof p === 'object' && 'text' in p ? String((p as { text: unknown }).text) : ''))
      .join('\n');
  return '';
}

/** The block of one section (label to the next section break), or '' when absent. */
function section(user: string, label: string, end?: string): string {
  const at =
    user.startsWith(`${label} `) || user.startsWith(`${label}:`) ? 0 : user.indexOf(`${SECTION_BREAK}${label}`);
  if (at < 0) return '';
  const from = at === 0 ? 0 : at + SECTION_BREAK.length;
  const stop = end ? user.indexOf(end, from) + end.length : user.indexOf(SECTION_BREAK, from);
  return user.slice(from, stop > from ? stop : undefined);
}

/** Only `act` calls are decisions; the plan call is counted apart by the caller. */
export function isDecision(body: ChatRequest): boolean {
  return body.tools?.[0]?.function?.name === 'act';
}

export async function promptParts(body: ChatRequest): Promise<PromptParts> {
  const system = body.messages
    .filter((m) => m.role === 'system')
    .map((m) => text(m.content))
    .join('\n');
  const user = body.messages
    .filter((m) => m.role !== 'system')
    .map((m) => text(m.content))
    .join('\n');
  const screen = section(user, SECTION.screen, SCREEN_CLOSE);
  const history = section(user, SECTION.history);
  const other = user.replace(screen, '').replace(history, '');
  const parts = {
    system: await countTokens(system),
    schema: await countTokens(JSON.stringify(body.tools ?? [])),
    screen: await countTokens(screen),
    history: history ? await countTokens(history) : 0,
    other: await countTokens(other),
  };
  const ids = screen
    .split('\n')
    .map((l) => LINE_ID_RE.exec(l)?.[1])
    .filter(Boolean)
    .sort();
  const app = /^app (\S+)/m.exec(screen)?.[1] ?? '';
  return {
    ...parts,
    total: parts.system + parts.schema + parts.screen + parts.history + parts.other,
    screenKey: `${app} ${ids.join(',')}`,
  };
}
