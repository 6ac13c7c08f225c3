/**
 * The shape check of a chat-completions request, as any OpenAI-compatible server does it: a JSON
 * object, `messages` a non-empty array of `{ role, content }` objects, `tools` an array when given.
 * A failure is a 400 whose message names the parameter (`param`), never a TypeError and a 500.
 */

export interface ChatRequest {
  model?: string;
  messages: { role: string; content?: unknown }[];
  tools?: { function?: { name?: string; parameters?: unknown } }[];
}

export type Checked = { ok: true; body: ChatRequest } | { ok: false; message: string; param: string | null };

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function checkMessage(m: unknown, i: number): string | undefined {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return `messages[${i}] must be an object, got ${kind(m)}`;
  const { role, content } = m as { role?: unknown; content?: unknown };
  if (typeof role !== 'string' || !ROLES.has(role))
    return `messages[${i}].role must be one of ${[...ROLES].join(', ')}, got ${typeof role === 'string' ? JSON.stringify(role.slice(0, 40)) : kind(role)}`;
  if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content))
    return `messages[${i}].content must be a string or an array of content parts, got ${kind(content)}`;
  return undefined;
}

export function checkChatRequest(v: unknown): Checked {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    return { ok: false, message: `the request body must be a JSON object, got ${kind(v)}`, param: null };
  const body = v as { model?: unknown; messages?: unknown; tools?: unknown };
  if (body.model !== undefined && typeof body.model !== 'string')
    return { ok: false, message: `model must be a string, got ${kind(body.model)}`, param: 'model' };
  if (!Array.isArray(body.messages))
    return {
      ok: false,
      message: `messages must be an array of message objects, got ${body.messages === undefined ? 'nothing' : kind(body.messages)}`,
      param: 'messages',
    };
  if (body.messages.length === 0)
    return { ok: false, message: 'messages must hold at least one message, got []', param: 'messages' };
  for (let i = 0; i < body.messages.length; i++) {
    const why = checkMessage(body.messages[i], i);
    if (why) return { ok: false, message: why, param: `messages[${i}]` };
  }
  if (body.tools !== undefined && !Array.isArray(body.tools))
    return { ok: false, message: `tools must be an array, got ${kind(body.tools)}`, param: 'tools' };
  return { ok: true, body: body as ChatRequest };
}
