import type { Checkpoint } from '../store/checkpoint.js';
import type { RunModel } from './schema.js';
import { fmtInt, fmtMs, type Text } from './text.js';
import { totalsOf } from './totals.js';

/**
 * The top of the report: the goal, how the run ended and what to do next, its totals and the plan.
 * Totals come from the checkpoint when it carries them (they include the planning calls, which no
 * step file holds), else they are summed over the step files.
 */

export const STATUS_LABEL: Record<string, string> = {
  done: 'done',
  failed: 'failed',
  budget: 'out of steps',
  infeasible: 'infeasible',
  ask_user: 'needs the user',
  needs_confirmation: 'waiting for confirmation',
  dry_run: 'dry run',
  running: 'interrupted',
};

const clockTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

export function renderHeader(model: RunModel, text: Text): string {
  const cp = model.checkpoint;
  const out: string[] = ['<header class="run">'];
  if (!cp) {
    out.push('<h1>Run (checkpoint unreadable)</h1>');
    out.push(`<p class="notice error">${text.t(model.checkpointError)}</p>`);
  } else {
    out.push(`<h1>${text.t(cp.goal)}</h1>`);
    const what = cp.answer ? `answer: ${text.t(cp.answer)}` : cp.reason ? text.t(cp.reason) : '';
    const dry = cp.dryRun && cp.status !== 'dry_run' ? ' <span class="badge">dry run</span>' : '';
    out.push(
      `<p class="status"><span class="badge st-${text.t(cp.status)}">${text.t(STATUS_LABEL[cp.status] ?? cp.status)}</span>${dry}${what ? ` ${what}` : ''}</p>`,
    );
    out.push(...modeLine(cp, text));
    out.push(...notices(cp, model.dir, text));
  }
  out.push(stats(model, text));
  if (cp?.subgoals.length) {
    const items = cp.subgoals.map((s, i) => {
      const cls = s.done ? 'done' : i === cp.current ? 'current' : '';
      const mark = s.done ? '✓ ' : i === cp.current ? '→ ' : '';
      return `<li${cls ? ` class="${cls}"` : ''}>${mark}${text.t(s.text)}</li>`;
    });
    out.push(`<h2>Plan</h2><ol class="plan">${items.join('')}</ol>`);
  }
  const banned = Object.entries(cp?.blacklist ?? {}).filter(([, v]) => v.length);
  if (banned.length) {
    const rows = banned.map(
      ([page, sigs]) =>
        `<li><code>${text.t(page)}</code>: ${sigs.map((g) => `<code>${text.t(g)}</code>`).join(', ')}</li>`,
    );
    out.push(
      `<details><summary>actions banned by page (${banned.length} page${banned.length === 1 ? '' : 's'})</summary><ul>${rows.join('')}</ul></details>`,
    );
  }
  out.push('</header>');
  return out.join('\n');
}

/** What the run is waiting for, and the command that continues it. */
function notices(cp: Checkpoint, dir: string, text: Text): string[] {
  const out: string[] = [];
  const resume = `phone-agent resume ${text.t(dir)}`;
  if (cp.status === 'running')
    out.push(
      `<p class="notice">The run was interrupted after step ${cp.step} — resume with <code>${resume}</code></p>`,
    );
  if (cp.status === 'budget')
    out.push(
      `<p class="notice">Out of steps after ${cp.step} — continue with <code>${resume} --more-steps N</code></p>`,
    );
  if (cp.pendingConfirmation) {
    const p = cp.pendingConfirmation;
    out.push(
      `<p class="notice">Waiting for confirmation at step ${p.step}: <strong>${text.t(p.summary)}</strong>` +
        (p.categories.length ? ` (${p.categories.map((c) => text.t(c)).join(', ')})` : '') +
        ` — approve with <code>${resume} --yes</code> or refuse with <code>--deny</code>.</p>`,
    );
  }
  if (cp.intent) {
    const what = cp.intent.summary ?? cp.intent.decision.action.tool;
    out.push(
      `<p class="notice">An irreversible action (${text.t(what)}) was journaled at step ${cp.intent.step} without a validated result: on resume it is judged on screen, never blindly repeated.</p>`,
    );
  }
  if (cp.irreversibleDone?.length)
    out.push(
      `<p class="notice">Took effect without a recorded result (not repeated in this run): ${cp.irreversibleDone.map((s) => text.t(s)).join('; ')}</p>`,
    );
  return out;
}

function stats(model: RunModel, text: Text): string {
  const cp = model.checkpoint;
  const t = totalsOf(model);
  const u = cp?.usage;
  const c = cp?.counters;
  const stat = (k: string, v: string) => `<div><dt>${k}</dt><dd>${v}</dd></div>`;
  const calls = u
    ? `${fmtInt(u.calls)}${u.calls !== t.llmCalls ? ` (${fmtInt(t.llmCalls)} in steps, the rest planning)` : ''}`
    : fmtInt(t.llmCalls);
  const tokens = u ?? { promptTokens: t.promptTokens, completionTokens: t.completionTokens };
  return (
    '<dl class="stats">' +
    stat('steps', cp ? `${cp.step} of ${cp.maxSteps}` : String(t.steps)) +
    stat('failed steps', `${t.failed}${t.broken ? ` (+${t.broken} unreadable)` : ''}`) +
    stat(u ? 'LLM calls' : 'LLM calls (in steps)', calls) +
    stat('tokens', `${fmtInt(tokens.promptTokens)} prompt + ${fmtInt(tokens.completionTokens)} completion`) +
    stat('total time (steps)', fmtMs(t.totalMs)) +
    stat('cache hits', fmtInt(c?.cacheHits ?? t.cacheHits)) +
    stat('rule actions', fmtInt(c?.ruleActions ?? t.ruleActions)) +
    stat('confirmations / denials', `${c?.confirmations ?? t.confirmations} / ${c?.denials ?? t.denials}`) +
    (cp?.launch && Object.keys(cp.launch).length
      ? stat(
          'started with',
          Object.entries(cp.launch)
            .map(([k, v]) => `${text.t(k)} ${text.t(v)}`)
            .join(' · '),
        )
      : '') +
    (cp?.resumes?.length
      ? stat('resumed', `${cp.resumes.length}× (${cp.resumes.map((r) => clockTime(r)).join(', ')})`)
      : '') +
    (cp ? stat('run', `<code>${text.t(cp.runId)}</code>`) : '') +
    (cp ? stat('last update', clockTime(cp.updatedAt)) : '') +
    '</dl>'
  );
}

/** How the run was driven (issue 25): a Flash run says so, and when and why it handed over to Pro. */
function modeLine(cp: NonNullable<RunModel['checkpoint']>, text: Text): string[] {
  if (cp.handover)
    return [
      `<p class="mode">Flash, handed over to Pro after step ${cp.handover.step}: ${text.t(cp.handover.reason)}</p>`,
    ];
  return cp.mode === 'flash' ? ['<p class="mode">Flash</p>'] : [];
}
