import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { type ModelGateway, startModelGateway } from '../testbed/model-gateway.js';

/**
 * `npm run bench:droidtask` as the lead runs it with a relayed model, on the real fixtures in
 * ../shared: a model that stops answering stops the bench (exit 3) with every scored step kept in
 * its progress file; the same command again refuses to start over it, and with `--resume` asks the
 * model only the steps still missing and writes the whole report. The model ends every step (a
 * plain policy that needs no gold), behind a gateway that goes down after a few answers.
 */

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
let model: ReferenceModel;
let gateway: ModelGateway;

beforeAll(async () => {
  model = await startReferenceModel({
    catalog: [],
    tokenizer: 'estimate',
    answer: () => ({ thought: 'it is done', tool: 'done', text: 'The screen shows it.' }),
  });
  gateway = await startModelGateway(model.url);
});
afterAll(async () => {
  await gateway?.close();
  await model?.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function bench(out: string, extra: string[] = []): Promise<{ code: number; stderr: string }> {
  const args = ['tsx', 'bench/droidtask.ts', '--model', 'ender', '--base-url', gateway.url, '--apps', 'applauncher'];
  try {
    const r = await run('npx', [...args, '--out', out, ...extra], {
      cwd: repoRoot,
      env: { ...process.env, PHONE_AGENT_LLM_TIMEOUT_MS: '5000' },
    });
    return { code: 0, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stderr?: string };
    return { code: err.code ?? -1, stderr: err.stderr ?? '' };
  }
}

describe('bench:droidtask on a model that stops answering', () => {
  it('stops with what it scored, refuses to start over it, and resumes', { timeout: 300_000 }, async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'droidtask-resume-'));
    dirs.push(out);
    const progress = path.join(out, 'droidtask.progress.jsonl');
    // Down after five answers: the sixth step's call fails, and its retries.
    const watch = setInterval(() => {
      if (gateway.calls >= 5) gateway.down = true;
    }, 5);
    const first = await bench(out);
    clearInterval(watch);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(/stopped — .*HTTP 503.*--resume/s);
    const kept = (await readFile(progress, 'utf8')).trim().split('\n').slice(1);
    expect(kept.length).toBe(5);

    const again = await bench(out);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/holds 5 scored step\(s\) of an unfinished run/);

    gateway.down = false;
    const before = gateway.calls;
    const resumed = await bench(out, ['--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming: 5 step\(s\) already scored/);
    const report = JSON.parse(await readFile(path.join(out, 'droidtask.json'), 'utf8')) as {
      summary: { steps: number; correct: number };
      records: { task: string; step: number; requestTokens: number }[];
    };
    // applauncher: 5 tasks, 23 steps, each scored once, in the fixture's order; one call per step
    // not scored before (a done is accepted as it is asked).
    expect(report.summary.steps).toBe(23);
    expect(new Set(report.records.map((r) => `${r.task}#${r.step}`)).size).toBe(23);
    expect(report.records[0]).toMatchObject({ task: 'applauncher/task1', step: 1 });
    expect(gateway.calls - before).toBe(23 - 5);
    // Ending every step is right on exactly the five done steps.
    expect(report.summary.correct).toBe(5);
    expect(report.records.every((r) => r.requestTokens > 200)).toBe(true);
    await expect(stat(progress)).rejects.toThrow(/ENOENT/);
  });
});
