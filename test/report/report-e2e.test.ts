import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, loadRun, renderReport, writeReport } from '../../src/report/index.js';
import { articleOf, centreOf, cliRun, readSteps, tagProblems } from './helpers.js';

let dir: string;
let wifi: { status: string; runDir: string; steps: number };
let html: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-report-'));
  wifi = await cliRun('Turn Wi-Fi off', dir);
  await writeReport(wifi.runDir);
  html = await readFile(path.join(wifi.runDir, 'report.html'), 'utf8');
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('report of a real run (Wi-Fi off on the virtual phone, reference model)', () => {
  it('the run itself finished and left steps to report', () => {
    expect(wifi.status).toBe('done');
    expect(wifi.steps).toBeGreaterThanOrEqual(3);
  });

  it('ends with the screen the run finished on (each step shows the screen before it)', async () => {
    expect(existsSync(path.join(wifi.runDir, 'steps', 'final.png'))).toBe(true);
    const final = html.slice(html.indexOf('<section id="final">'));
    expect(final).toMatch(/<h2>Final screen<\/h2>/);
    expect(final).toMatch(/<img src="steps\/final\.png"/);
  });

  it('shows every step action in order, one article per step file', async () => {
    const steps = await readSteps(wifi.runDir);
    expect(steps.length).toBe(wifi.steps);
    let at = 0;
    for (const s of steps) {
      const art = articleOf(html, s.step);
      expect(art).toContain(escapeHtml(s.action));
      const i = html.indexOf(`<article id="step-${s.step}"`);
      expect(i).toBeGreaterThan(at);
      at = i;
    }
    expect(html.match(/<article /g)?.length).toBe(steps.length);
  });

  it('draws the tap where the target element is on the screenshot', async () => {
    const steps = await readSteps(wifi.runDir);
    const tap = steps.find((s) => s.decision?.action.tool === 'tap');
    expect(tap, 'the Wi-Fi run taps the switch').toBeDefined();
    expect(tap!.target?.id).toBe(tap!.decision!.action.target_id);
    const want = centreOf(tap!);
    const art = articleOf(html, tap!.step);
    const m = art.match(/<circle class="mark tap" cx="([\d.]+)%" cy="([\d.]+)%"/);
    expect(m, art).not.toBeNull();
    expect(Math.abs(Number(m![1]) - want.x / 10)).toBeLessThan(1);
    expect(Math.abs(Number(m![2]) - want.y / 10)).toBeLessThan(1);
    // The page hash before → after the tap (the switch state is part of the page).
    const post = tap!.receipt?.post?.pageHash as string;
    expect(post).not.toBe(tap!.pageHash);
    expect(art).toContain(`<dt>page</dt><dd><code>${tap!.pageHash}</code> → <code>${post}</code></dd>`);
    // The launch step touches no point: no mark is drawn on it.
    const launch = steps.find((s) => s.decision?.action.tool === 'launch_app');
    expect(articleOf(html, launch!.step)).not.toContain('class="mark');
  });

  it('links every screenshot by a relative path that exists on disk, the screen after a step beside it', async () => {
    const srcs = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]!);
    const pngs = (await readdir(path.join(wifi.runDir, 'steps'))).filter((n) => n.endsWith('.png'));
    expect(new Set(srcs)).toEqual(new Set(pngs.map((p) => `steps/${p}`)));
    // Each step: before and after; then the final screen once more.
    expect(srcs.length).toBe(2 * wifi.steps + 1);
    for (let n = 1; n <= wifi.steps; n++) {
      const pics = [...articleOf(html, n).matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
      const next = n < wifi.steps ? `steps/${String(n + 1).padStart(3, '0')}.png` : 'steps/final.png';
      expect(pics).toEqual([`steps/${String(n).padStart(3, '0')}.png`, next]);
    }
    for (const s of srcs) {
      expect(s).toMatch(/^steps\/(\d{3}|final)\.png$/);
      expect((await stat(path.join(wifi.runDir, s))).size).toBeGreaterThan(1000);
    }
  });

  it('has the header facts: goal, status, steps, LLM calls and tokens, plan with done marks', async () => {
    const steps = await readSteps(wifi.runDir);
    const inSteps = steps.reduce((n, s) => n + s.llm.calls, 0);
    const cp = JSON.parse(await readFile(path.join(wifi.runDir, 'checkpoint.json'), 'utf8'));
    expect(html).toContain('<h1>Turn Wi-Fi off</h1>');
    expect(html).toContain('<span class="badge st-done">done</span>');
    expect(html).toMatch(new RegExp(`<dt>steps</dt><dd>${steps.length} of 12</dd>`));
    // The run's own totals include the planning call, which no step file holds.
    expect(cp.usage.calls).toBeGreaterThan(inSteps);
    expect(html).toContain(`<dt>LLM calls</dt><dd>${cp.usage.calls} (${inSteps} in steps, the rest planning)</dd>`);
    expect(html).toContain(
      `${cp.usage.promptTokens.toLocaleString('en-US')} prompt + ${cp.usage.completionTokens.toLocaleString('en-US')} completion`,
    );
    const done = cp.subgoals.filter((s: { done: boolean }) => s.done);
    expect(done.length).toBeGreaterThan(0);
    for (const s of done) expect(html).toContain(`<li class="done">✓ ${escapeHtml(s.text)}</li>`);
  });

  it('sums the step files when the checkpoint carries no totals', async () => {
    const model = await loadRun(wifi.runDir);
    const steps = await readSteps(wifi.runDir);
    const page = renderReport({
      ...model,
      checkpoint: { ...model.checkpoint!, usage: undefined, counters: undefined },
    });
    const calls = steps.reduce((n, s) => n + s.llm.calls, 0);
    const prompt = steps.reduce((n, s) => n + s.llm.promptTokens, 0);
    expect(page).toContain(`<dt>LLM calls (in steps)</dt><dd>${calls}</dd>`);
    expect(page).toContain(`<dt>tokens</dt><dd>${prompt.toLocaleString('en-US')} prompt`);
  });

  it('is self-contained: no script, no external URL; --inline embeds the screenshots', async () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(tagProblems(html)).toEqual([]);
    const out = path.join(dir, 'inline.html');
    const r = await writeReport(wifi.runDir, { out, inline: true });
    const inline = await readFile(out, 'utf8');
    expect(r.bytes).toBe(Buffer.byteLength(inline));
    // Each distinct screen once, as a small JPEG in the stylesheet; every picture names one.
    const pictures = [
      ...inline.matchAll(/img\.(pic\d+)\{aspect-ratio:\d+\/\d+;background:url\("data:image\/jpeg;base64,/g),
    ].map((m) => m[1]);
    expect(pictures.length).toBeGreaterThan(0);
    expect(pictures.length).toBeLessThanOrEqual(wifi.steps + 1);
    const used = [...inline.matchAll(/<img src="data:image\/gif;base64,[^"]+" class="(pic\d+)"/g)].map((m) => m[1]);
    expect(used.length).toBe(2 * wifi.steps + 1);
    expect(new Set(used)).toEqual(new Set(pictures));
    expect(inline).not.toContain('src="steps/');
    expect(inline).not.toContain('data:image/png');
  });

  it('links screenshots relative to a report written elsewhere (its folder is created)', async () => {
    const out = path.join(dir, 'elsewhere', 'r.html');
    await writeReport(wifi.runDir, { out });
    const page = await readFile(out, 'utf8');
    const srcs = [...page.matchAll(/<img src="([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    expect(srcs.length).toBe(2 * wifi.steps + 1);
    for (const s of srcs) expect(existsSync(path.resolve(path.dirname(out), s))).toBe(true);
  });
});

describe('report of runs that fail or stop', () => {
  it('shows a pending confirmation and the guard that stopped the step', async () => {
    const r = await cliRun('Text 15551234567: "On my way".', dir, { yes: false });
    expect(r.status).toBe('needs_confirmation');
    const page = renderReport(await loadRun(r.runDir));
    const cp = JSON.parse(await readFile(path.join(r.runDir, 'checkpoint.json'), 'utf8'));
    expect(cp.pendingConfirmation).toBeDefined();
    expect(page).toContain(`Waiting for confirmation at step ${cp.pendingConfirmation.step}`);
    expect(page).toContain(escapeHtml(cp.pendingConfirmation.summary));
    const art = articleOf(page, cp.pendingConfirmation.step);
    expect(art).toContain('<dt>guard</dt><dd><strong>deferred</strong>');
    expect(page).toContain(`approve with <code>phone-agent resume ${r.runDir} --yes</code>`);
  });
});
