import { typedTextOf } from '../tools/index.js';
import { type Gesture, gestureOf, stepScreen, targetIsPassword, toPercent } from './gesture.js';
import { renderCalls } from './render-calls.js';
import type { ReportStep, Shot, StepFile } from './schema.js';
import { escapeHtml, fmtInt, fmtMs, pct, type Text } from './text.js';

/**
 * One step of the timeline: the screen before it with the touch and the target's box drawn on it
 * and the screen after it, then what was decided, what was expected, what happened, what it cost,
 * and the model's and the device's calls.
 */

export interface StepRenderOptions {
  /** The `src` of a screenshot (a relative path, or a data URL with --inline). */
  imageSrc: (shot: Shot) => string;
  /**
   * A class that paints the picture from the stylesheet instead (inline reports: each distinct
   * screen is embedded once, though the screen after a step is also the one before the next).
   */
  imageClass?: (shot: Shot) => string | undefined;
}

const SOURCE_TITLE: Record<string, string> = {
  llm: 'decided by the model',
  cache: 'replayed from page memory (no model call)',
  rule: 'handled by an interrupt rule (no model call)',
  gate: 'frame gate: still waiting, nothing changed (no model call)',
};

export function renderStep(s: ReportStep, text: Text, opts: StepRenderOptions): string {
  const cls = s.kind === 'broken' ? 'broken' : s.record.ok ? 'ok' : 'failed';
  const shots = s.shot || s.after ? renderShots(s, opts) : '';
  const body = s.kind === 'broken' ? renderBroken(s, text) : renderBody(s.n, s.record, text);
  return `<article id="step-${s.n}" class="step ${cls}${shots ? '' : ' noshot'}">${shots}<div class="body">${body}${renderCalls(s.calls, text)}</div></article>`;
}

function renderBroken(s: Extract<ReportStep, { kind: 'broken' }>, text: Text): string {
  return (
    `<h3><a href="#step-${s.n}">Step ${s.n}</a> <span class="badge broken">broken</span></h3>` +
    `<p class="error">This step could not be shown: ${text.t(s.error)}</p>`
  );
}

export function img(shot: Shot, alt: string, opts: StepRenderOptions): string {
  const size = shot.width && shot.height ? ` width="${shot.width}" height="${shot.height}"` : '';
  const cls = opts.imageClass?.(shot);
  return `<img src="${escapeHtml(opts.imageSrc(shot))}"${cls ? ` class="${escapeHtml(cls)}"` : ''} alt="${alt}" loading="lazy"${size}>`;
}

function renderShots(s: ReportStep, opts: StepRenderOptions): string {
  const out: string[] = [];
  if (s.shot) {
    const g = s.kind === 'ok' ? gestureOf(s.record) : undefined;
    const screen = s.kind === 'ok' ? stepScreen(s.record) : undefined;
    const box = s.kind === 'ok' && s.record.target ? targetBox(s.record.target.bounds, screen, s.shot) : '';
    const marks = g ? gestureMarks(s.n, g, screen, s.shot) : '';
    const overlay = box || marks ? `<svg aria-hidden="true">${box}${marks}</svg>` : '';
    const what = [g ? captionOf(g) : '', box ? 'the box is the target element' : ''].filter(Boolean).join('; ');
    out.push(
      `<figure class="shot before"><div class="frame">${img(s.shot, `screen before step ${s.n}`, opts)}${overlay}</div><figcaption>before${what ? `: ${what}` : ''}</figcaption></figure>`,
    );
  }
  if (s.after)
    out.push(
      `<figure class="shot after"><div class="frame">${img(s.after, `screen after step ${s.n}`, opts)}</div><figcaption>after</figcaption></figure>`,
    );
  return `<div class="shots">${out.join('')}</div>`;
}

/** The target element's box, in percentages of the screenshot like the touch marks. */
function targetBox(
  b: { left: number; top: number; right: number; bottom: number },
  screen: { w: number; h: number } | undefined,
  shot: Shot,
): string {
  const tl = toPercent({ x: b.left, y: b.top }, screen, shot);
  const br = toPercent({ x: b.right, y: b.bottom }, screen, shot);
  if (!(br.x > tl.x && br.y > tl.y)) return '';
  return `<rect class="mark box" x="${pct(tl.x)}" y="${pct(tl.y)}" width="${pct(br.x - tl.x)}" height="${pct(br.y - tl.y)}" rx="4"/>`;
}

function captionOf(g: Gesture): string {
  if (g.kind === 'swipe') return 'the arrow is the swipe';
  if (g.kind === 'focus') return 'the dashed ring is the target';
  return g.long ? 'the double ring is the long press' : 'the red ring is the tap';
}

/** Percentages place the marks on the image at any display size without a viewBox stretch. */
function gestureMarks(
  n: number,
  g: Gesture,
  screen: { w: number; h: number } | undefined,
  shot: { width?: number; height?: number } | undefined,
): string {
  if (g.kind === 'swipe') {
    const a = toPercent(g.from, screen, shot);
    const b = toPercent(g.to, screen, shot);
    const id = `arrow-${n}`;
    return (
      `<defs><marker id="${id}" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto" markerUnits="strokeWidth">` +
      `<path class="arrowhead" d="M0,0 L4,2 L0,4 z"/></marker></defs>` +
      `<circle class="mark dot" cx="${pct(a.x)}" cy="${pct(a.y)}" r="5"/>` +
      `<line class="mark swipe" x1="${pct(a.x)}" y1="${pct(a.y)}" x2="${pct(b.x)}" y2="${pct(b.y)}" marker-end="url(#${id})"/>`
    );
  }
  const p = toPercent(g.at, screen, shot);
  const at = `cx="${pct(p.x)}" cy="${pct(p.y)}"`;
  if (g.kind === 'focus') return `<circle class="mark focus" ${at} r="16"/>`;
  const ring = g.long ? `<circle class="mark tap" ${at} r="20"/>` : '';
  return `${ring}<circle class="mark tap" ${at} r="13"/><circle class="mark dot" ${at} r="3"/>`;
}

function renderBody(n: number, r: StepFile, text: Text): string {
  const outcome = r.ok ? '<span class="badge ok">ok</span>' : '<span class="badge failed">failed</span>';
  const head =
    `<h3><a href="#step-${n}">Step ${n}</a> ${outcome} ` +
    `<span class="badge src-${text.t(r.source)}" title="${text.t(SOURCE_TITLE[r.source])}">${text.t(r.source)}</span>` +
    (r.subgoal ? ` <span class="subgoal">${text.t(r.subgoal)}</span>` : '') +
    '</h3>';
  const action = `<p class="action"><code>${r.action ? text.t(r.action) : '(no valid action)'}</code></p>`;
  const thought = r.decision?.thought ? `<p class="thought">${text.t(r.decision.thought)}</p>` : '';
  const facts: [string, string][] = [];
  const typed = typedText(r, text);
  if (typed) facts.push(['typed', typed]);
  if (r.expect) facts.push(['expected', text.t(r.expect)]);
  facts.push(['outcome', outcomeOf(r, text)]);
  if (r.guard) facts.push(['guard', guardOf(r.guard, text)]);
  if (r.receipt) facts.push(['dispatch', dispatchOf(r, text)]);
  facts.push(['time', timeOf(r)]);
  if (r.llm.calls > 0) facts.push(['model', modelOf(r)]);
  const after = r.receipt?.post?.pageHash;
  const moved = typeof after === 'string' && after !== r.pageHash ? ` → <code>${text.t(after)}</code>` : '';
  facts.push(['page', `<code>${text.t(r.pageHash)}</code>${moved}`]);
  const dl = `<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
  const obs = `<details><summary>screen as the model saw it</summary><pre>${text.t(r.observation)}</pre></details>`;
  return head + action + thought + dl + obs;
}

/** Typed text is shown for ordinary fields; a password field's never is. */
function typedText(r: StepFile, text: Text): string | undefined {
  const a = r.decision?.action;
  const typed = a && typedTextOf(a);
  if (typed === undefined) return undefined;
  if (targetIsPassword(r)) return '<em>into a password field (not shown)</em>';
  if (/⟨secret\d+⟩/.test(typed)) return '<em>a credential (not shown)</em>';
  return `“${text.t(typed)}”`;
}

function outcomeOf(r: StepFile, text: Text): string {
  const parts = [r.ok ? '<span class="outcome-ok">ok</span>' : '<span class="outcome-failed">failed</span>'];
  if (r.note) parts.push(text.t(r.note));
  if (r.signals?.length) parts.push(`signals: ${r.signals.map((s) => text.t(s)).join(', ')}`);
  return parts.join(' — ');
}

function guardOf(g: NonNullable<StepFile['guard']>, text: Text): string {
  const verdict = g.verdict ? `<strong>${text.t(g.verdict)}</strong>` : '<strong>stopped (not dispatched)</strong>';
  const cats = g.categories.length ? ` · ${g.categories.map((c) => text.t(c)).join(', ')}` : '';
  const why = g.reasons.length ? ` · because ${g.reasons.map((c) => text.t(c)).join('; ')}` : '';
  return verdict + cats + why;
}

function dispatchOf(r: StepFile, text: Text): string {
  const rc = r.receipt!;
  const parts = [`${text.t(rc.backend ?? rc.method)} · ${text.t(rc.delivery)} · ${text.t(rc.status)}`];
  if (rc.injectedPx) parts.push(`at ${Math.round(rc.injectedPx.x)},${Math.round(rc.injectedPx.y)} px`);
  if (rc.failover) parts.push('<strong>failover from the helper</strong>');
  if (rc.detail) parts.push(`<strong>${text.t(rc.detail)}</strong>`);
  if (rc.error) parts.push(`<span class="error">${text.t(rc.error.code)}: ${text.t(rc.error.message)}</span>`);
  return parts.join(' · ');
}

function timeOf(r: StepFile): string {
  const t = r.timings;
  return `${fmtMs(t.totalMs)} (model ${fmtMs(t.llmMs)}, device ${fmtMs(t.deviceMs)}, agent ${fmtMs(t.overheadMs)})`;
}

function modelOf(r: StepFile): string {
  const u = r.llm;
  const extra = [u.reasks ? `${u.reasks} re-asks` : '', u.retries ? `${u.retries} retries` : ''].filter(Boolean);
  return (
    `${u.calls} call${u.calls === 1 ? '' : 's'}, ${fmtInt(u.promptTokens)} prompt + ${fmtInt(u.completionTokens)} completion tokens` +
    (extra.length ? ` (${extra.join(', ')})` : '')
  );
}
