import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { LOGIN_01 } from '../../regression-tasks/tasks/login-01.js';
import type { TaskDef } from '../../regression-tasks/types.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { escapeHtml, loadRun, renderReport, writeReport } from '../../src/report/index.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { setAcmeAccount } from '../../src/testbed/sim/apps/acme-data.js';
import { articleOf, copyRun, lineIn, readSteps } from './helpers.js';

/** Login runs on the virtual phone (virtual clock): the password never reaches the page. */

let model: ReferenceModel;
let dir: string;
let login: Awaited<ReturnType<typeof runTask>>;
beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  dir = await mkdtemp(path.join(tmpdir(), 'pa-report-login-'));
  login = await run(LOGIN_01);
}, 60_000);
afterAll(async () => {
  await model.close();
  await rm(dir, { recursive: true, force: true });
});

const run = (task: TaskDef, screenshots = true) =>
  runTask(task, { seed: 3, modelUrl: model.url, memory: new PageMemory(), runsDir: dir, screenshots });

type Step = Awaited<ReturnType<typeof readSteps>>[number];

/** A copy of the login run whose password step is archived as `leak` makes it, and its page. */
async function leakedRun(name: string, leak: (pw: Step) => Step): Promise<{ page: string; step: number }> {
  const copy = await copyRun(login.run.runDir, path.join(dir, name));
  const pw = (await readSteps(copy)).find(
    (s) =>
      s.decision?.action.tool === 'type' &&
      /\[password\]/.test(lineIn(s.observation, s.decision!.action.target_id ?? '') ?? ''),
  );
  expect(pw).toBeDefined();
  const file = path.join(copy, 'steps', `${String(pw!.step).padStart(3, '0')}.json`);
  await writeFile(file, JSON.stringify(leak(pw!)));
  return { page: renderReport(await loadRun(copy)), step: pw!.step };
}

describe('report of login runs', () => {
  it('a successful login shows every step and never the password', async () => {
    const r = login;
    expect(r.check).toEqual({ ok: true });
    const pw = r.params.pw!;
    expect(pw.length).toBeGreaterThan(5);
    const { path: out } = await writeReport(r.run.runDir);
    const page = await readFile(out, 'utf8');
    expect(page).not.toContain(pw);
    const steps = await readSteps(r.run.runDir);
    // The history shows the placeholder the model typed (⟨secret1⟩); the report hides even that.
    for (const s of steps)
      expect(articleOf(page, s.step)).toContain(escapeHtml(s.action.replace(/⟨secret\d+⟩/g, '•••')));
    const typed = steps.filter((s) => s.decision?.action.tool === 'type');
    expect(typed.length).toBeGreaterThanOrEqual(2);
    // The e-mail is ordinary text and is shown; the password step says it is hidden.
    expect(page).toContain(escapeHtml(r.params.email!));
    const pwStep = typed.find(
      (s) => lineIn(s.observation, s.decision!.action.target_id ?? '') !== undefined && /password/i.test(s.action),
    );
    expect(articleOf(page, pwStep!.step)).toContain('into a password field (not shown)');
    expect(page).toContain('<span class="badge st-done">done</span>');
  });

  it('a password typed without a placeholder is redacted everywhere on the page', async () => {
    // As an older agent or a model that spelled the password out would have archived it.
    const { page, step } = await leakedRun('leaky', (pw) => ({
      ...pw,
      decision: {
        ...pw.decision!,
        thought: 'type Hunter-2468 into it',
        action: { ...pw.decision!.action, text: 'Hunter-2468' },
      },
    }));
    expect(page).not.toContain('Hunter-2468');
    expect(articleOf(page, step)).toContain('type ••• into it');
  });

  it('a password set with control_action set_text (no placeholder) is redacted too', async () => {
    // The same field, written through the native control tool: its text is typed as well.
    const { page, step } = await leakedRun('leaky-set-text', (pw) => ({
      ...pw,
      decision: {
        ...pw.decision!,
        action: {
          tool: 'control_action',
          target_id: pw.decision!.action.target_id,
          args: { action: 'set_text', text: 'Hunter-9753' },
        },
      },
    }));
    expect(page).not.toContain('Hunter-9753');
    expect(articleOf(page, step)).toContain('into a password field (not shown)');
  });

  it('a login with the wrong password marks its failed steps', async () => {
    const wrong: TaskDef = {
      ...LOGIN_01,
      setup: (phone, p) => setAcmeAccount(phone.world, { email: p.email ?? '', password: 'not-the-one' }),
    };
    // Without screenshots: this test is about the timeline's marks, and rendering them costs time.
    const r = await run(wrong, false);
    expect(r.run.status).not.toBe('done');
    const page = renderReport(await loadRun(r.run.runDir));
    const steps = await readSteps(r.run.runDir);
    const failed = steps.filter((s) => !s.ok);
    expect(failed.length).toBeGreaterThan(0);
    for (const s of steps) {
      const art = articleOf(page, s.step);
      expect(art.startsWith(`<article id="step-${s.step}" class="step ${s.ok ? 'ok' : 'failed'}`)).toBe(true);
      expect(art).toContain(s.ok ? '<span class="badge ok">ok</span>' : '<span class="badge failed">failed</span>');
      if (!s.ok && s.note) expect(art).toContain(escapeHtml(s.note));
    }
    expect(page).toContain(`<dt>failed steps</dt><dd>${failed.length}</dd>`);
    if (r.run.status === 'budget') expect(page).toContain('--more-steps N');
    const cp = JSON.parse(await readFile(path.join(r.run.runDir, 'checkpoint.json'), 'utf8'));
    const banned = Object.values(cp.blacklist as Record<string, string[]>).flat();
    expect(banned.length, 'the failing Log in tap is banned on its page').toBeGreaterThan(0);
    expect(page).toContain('actions banned by page');
    for (const sig of banned) expect(page).toContain(`<code>${escapeHtml(sig)}</code>`);
    expect(page).not.toContain(r.params.pw!);
  });
});
