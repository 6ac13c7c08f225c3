import type { Call } from './schema.js';
import { fmtMs, type Text } from './text.js';

/**
 * The calls of a step, as recorded in `steps/NNN.calls.jsonl` (already masked by the archive):
 * each model call with its request (messages by role) and its response, each device command with
 * its output. Collapsed by default: a person opens the one that went wrong.
 */

export function renderCalls(calls: readonly Call[], text: Text): string {
  if (!calls.length) return '';
  const items = calls.map((c, i) => (c.kind === 'llm' ? llmCall(c, i, text) : deviceCall(c, text)));
  return `<div class="calls">${items.join('')}</div>`;
}

function llmCall(c: Extract<Call, { kind: 'llm' }>, i: number, text: Text): string {
  const took = c.ms !== undefined ? ` · ${fmtMs(c.ms)}` : '';
  const state = c.error ? ` · <span class="error">${text.t(c.error)}</span>` : '';
  const response = c.response === undefined ? '' : `<h4>response</h4><pre>${text.t(pretty(c.response))}</pre>`;
  return (
    `<details class="call llm"><summary>model call ${i + 1}${took}${state}</summary>` +
    `<h4>request</h4>${messagesOf(c.request, text)}${response}</details>`
  );
}

function deviceCall(c: Extract<Call, { kind: 'device' }>, text: Text): string {
  const took = c.ms !== undefined ? ` · ${fmtMs(c.ms)}` : '';
  const bad = c.ok === false ? ' <span class="badge failed">failed</span>' : '';
  const out = c.output === undefined ? '' : `<pre>${text.t(pretty(c.output))}</pre>`;
  return `<details class="call device"><summary>device <code>${text.t(c.command)}</code>${took}${bad}</summary>${out}</details>`;
}

/** Chat messages as role + text (image parts named, not shown); anything else as JSON. */
function messagesOf(request: unknown, text: Text): string {
  const messages = (request as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return `<pre>${text.t(pretty(request))}</pre>`;
  const rest = { ...(request as Record<string, unknown>) };
  delete rest.messages;
  const parts = messages.map((m: { role?: string; content?: unknown }) => {
    const body = contentText(m.content);
    return `<div class="msg"><span class="role">${text.t(m.role ?? '?')}</span><pre>${text.t(body)}</pre></div>`;
  });
  const extra = Object.keys(rest).length ? `<pre class="meta">${text.t(pretty(rest))}</pre>` : '';
  return parts.join('') + extra;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return pretty(content);
  return content
    .map((p: { type?: string; text?: string; image_url?: { url?: string } }) =>
      p.type === 'text' ? (p.text ?? '') : p.type === 'image_url' ? `[image: ${p.image_url?.url ?? ''}]` : pretty(p),
    )
    .join('\n');
}

function pretty(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 2) ?? String(v);
}
