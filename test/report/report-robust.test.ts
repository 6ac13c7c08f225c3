import { mkdir, mkdtemp, readFile, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog, TASKS } from '../../regression-tasks/index.js';
import { register, reportCommand } from '../../src/cli/commands/report.js';
import { ActionableError } from '../../src/core/errors.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { loadRun, renderReport } from '../../src/report/index.js';
import { startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { articleOf, captureStdout, copyRun, readSteps, tagProblems } from './helpers.js';

/** Hostile text, damaged folders, interrupted runs and the CLI, over copies of one real run. */

let dir: string;
let runDir: string;
let swipeRunDir: string;
let n = 0;
const fresh = () => copyRun(runDir, path.join(dir, `copy-${++n}`));
const editJson = async (file: string, edit: (v: Record<string, unknown>) => void) => {
  const v = JSON.parse(await readFile(file, 'utf8'));
  edit(v);
  await writeFile(file, JSON.stringify(v));
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-report-robust-'));
  const model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  try {
    const task = TASKS.find((t) => t.id === 'SET-01')!;
    const r = await runTask(task, {
      seed: 1,
      modelUrl: model.url,
      memory: new PageMemory(),
      runsDir: dir,
      screenshots: true,
    });
    expect(r.run.status).toBe('done');
    runDir = r.run.runDir;
    const lau = TASKS.find((t) => t.id === 'LAU-01')!;
    const s = await runTask(lau, {
      seed: 1,
      modelUrl: model.url,
      memory: new PageMemory(),
      runsDir: dir,
      screenshots: true,
    });
    expect(s.run.status).toBe('done');
    swipeRunDir = s.run.runDir;
  } finally {
    await model.close();
  }
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('gestures', () => {
  it('draws a swipe as an arrow from where the finger went down, along its direction', async () => {
    const steps = await readSteps(swipeRunDir);
    const swipe = steps.find((s) => s.decision?.action.tool === 'swipe');
    expect(swipe?.decision?.action.direction).toBe('left');
    const page = renderReport(await loadRun(swipeRunDir));
    const art = articleOf(page, swipe!.step);
    const m = art.match(
      /<line class="mark swipe" x1="([\d.]+)%" y1="([\d.]+)%" x2="([\d.]+)%" y2="([\d.]+)%" marker-end="url\(#arrow-(\d+)\)"/,
    );
    expect(m, art).not.toBeNull();
    const [x1, y1, x2, y2] = m!.slice(1, 5).map(Number);
    expect(art).toContain(`<marker id="arrow-${swipe!.step}"`);
    // Leftward, horizontal, about 30 % of the screen wide, starting at the injected pixel.
    expect(x1! - x2!).toBeGreaterThan(25);
    expect(Math.abs(y1! - y2!)).toBeLessThan(1);
    const px = swipe!.receipt!.injectedPx!;
    const { w, h } = swipe!.screen!;
    expect(Math.abs(x1! - (px.x / w!) * 100)).toBeLessThan(1);
    expect(Math.abs(y1! - (px.y / h!) * 100)).toBeLessThan(1);
    expect(art).toContain('the arrow is the swipe');
  });
});

describe('escaping', () => {
  it('renders markup from the goal, labels, notes and the screen as text', async () => {
    const copy = await fresh();
    const evil = `Turn <script>alert("x")</script> & "Wi-Fi" off`;
    await editJson(path.join(copy, 'checkpoint.json'), (cp) => {
      cp.goal = evil;
      cp.subgoals = [{ text: '<b>bold</b> & "quoted"', done: true }];
    });
    await editJson(path.join(copy, 'steps', '001.json'), (s) => {
      s.action = 'tap [abc] "<img src=x onerror=alert(1)>"';
      s.note = `it's <i>fine</i> & "done"`;
      s.observation = `app x · 1080x2400 (0.45) · keyboard hidden\n[abc] tap "</pre><script>alert(2)</script>" 500,500`;
    });
    const page = renderReport(await loadRun(copy));
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<b>bold');
    expect(page).not.toContain('<i>fine');
    expect(page).toContain(
      '<h1>Turn &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#34;Wi-Fi&#34; off</h1>',
    );
    expect(page).toContain('&#60;/pre&#62;&#60;script&#62;alert(2)');
    expect(page).toContain('it&#39;s &#60;i&#62;fine&#60;/i&#62; &#38; &#34;done&#34;');
    expect(page).toContain('<title>Turn &#60;script&#62;');
    expect(tagProblems(page)).toEqual([]);
  });
});

describe('damaged and unfinished run folders', () => {
  it('shows a truncated, a malformed and a missing step file as broken steps, and the rest as usual', async () => {
    const copy = await fresh();
    const steps = await readSteps(copy);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    await truncate(path.join(copy, 'steps', '001.json'), 40);
    await editJson(path.join(copy, 'steps', '002.json'), (s) => {
      s.ok = 'yes';
    });
    const last = steps.length;
    await unlink(path.join(copy, 'steps', `${String(last).padStart(3, '0')}.json`));
    const page = renderReport(await loadRun(copy));
    const a1 = articleOf(page, 1);
    expect(a1).toContain('class="step broken');
    expect(a1).toMatch(/steps\/001\.json: not valid JSON .*cut off/);
    expect(a1).toContain('<img src="steps/001.png"'); // the screenshot is still shown
    expect(articleOf(page, 2)).toMatch(
      /class="step broken[\s\S]*steps\/002\.json: does not match the step record format \(ok: /,
    );
    expect(tagProblems(page)).toEqual([]);
    expect(articleOf(page, last)).toContain(`steps/${String(last).padStart(3, '0')}.json is missing`);
    for (const s of steps.slice(2, -1))
      expect(articleOf(page, s.step)).toContain(`class="step ${s.ok ? 'ok' : 'failed'}`);
    expect(page).toContain('(+3 unreadable)');
  });

  it('an unreadable checkpoint still shows the steps, with the reason', async () => {
    const copy = await fresh();
    await writeFile(path.join(copy, 'checkpoint.json'), '{"version": 1, "goal": ');
    const page = renderReport(await loadRun(copy));
    expect(page).toContain('checkpoint.json: not valid JSON');
    expect(page.match(/<article /g)?.length).toBe((await readSteps(copy)).length);
  });

  it('an interrupted run says after which step and how to resume', async () => {
    const copy = await fresh();
    await editJson(path.join(copy, 'checkpoint.json'), (cp) => {
      cp.status = 'running';
      cp.step = 2;
      cp.answer = undefined;
      cp.resumes = [Date.UTC(2026, 0, 2, 3, 4, 5), Date.UTC(2026, 0, 2, 4, 0, 0)];
      cp.launch = { device: 'sim', model: '<ref>' };
    });
    const page = renderReport(await loadRun(copy));
    expect(page).toContain('<dt>resumed</dt><dd>2× (2026-01-02 03:04:05, 2026-01-02 04:00:00)</dd>');
    expect(page).toContain('<dt>started with</dt><dd>device sim · model &#60;ref&#62;</dd>');
    expect(page).toContain('<span class="badge st-running">interrupted</span>');
    expect(page).toContain(`interrupted after step 2 — resume with <code>phone-agent resume ${copy}</code>`);
  });

  it('a missing folder or checkpoint is an actionable error naming the path', async () => {
    const nowhere = path.join(dir, 'no-such-run');
    await expect(loadRun(nowhere)).rejects.toThrow(ActionableError);
    await expect(loadRun(nowhere)).rejects.toThrow(nowhere);
    const empty = path.join(dir, 'empty');
    await mkdir(empty);
    await expect(loadRun(empty)).rejects.toThrow(/checkpoint\.json is missing.*phone-agent run/);
  });
});

describe('phone-agent report (command)', () => {
  it('writes <run>/report.html for a run id under --runs-dir and prints the path', async () => {
    const copy = await fresh();
    const { value, out } = await captureStdout(() => reportCommand(path.basename(copy), { runsDir: dir }));
    expect(value).toBe(0);
    expect(out.trim()).toBe(path.join(copy, 'report.html'));
    const page = await readFile(out.trim(), 'utf8');
    expect(page.match(/<article /g)?.length).toBe((await readSteps(copy)).length);
  });

  it('parses --out and --inline through commander', async () => {
    const program = new Command().exitOverride();
    register(program);
    const out = path.join(dir, 'via-commander.html');
    await captureStdout(() => program.parseAsync(['node', 'phone-agent', 'report', runDir, '--out', out, '--inline']));
    const page = await readFile(out, 'utf8');
    expect(page).toMatch(/background:url\("data:image\/jpeg;base64,/);
  });

  it('an unknown run names the paths tried and the runs it knows', async () => {
    const runs = path.join(dir, 'runs-one');
    await mkdir(runs);
    const only = await copyRun(runDir, path.join(runs, 'the-run'));
    await mkdir(path.join(runs, 'not-a-run'));
    const err = await reportCommand('nope', { runsDir: runs }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionableError);
    expect((err as Error).message).toContain(path.join(runs, 'nope'));
    expect((err as Error).message).toMatch(new RegExp(`run ids in .*: ${path.basename(only)}$`));
  });
});
