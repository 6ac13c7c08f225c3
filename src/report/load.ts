import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { ActionableError, errorMessage } from '../core/errors.js';
import { CheckpointSchema } from '../store/checkpoint.js';
import { type Call, CallSchema, type ReportStep, type RunModel, type Shot, StepFileSchema } from './schema.js';

/**
 * Reads a run folder (DESIGN §6) into a validated model. Only a missing folder or checkpoint is an
 * error; anything wrong inside a step file becomes a broken step the report shows, so one bad file
 * never hides the rest of a trace.
 */

const STEP_FILE = /^(\d{3,})\.json$/;

export async function loadRun(dir: string): Promise<RunModel> {
  const abs = path.resolve(dir);
  const st = await stat(abs).catch(() => undefined);
  if (!st?.isDirectory())
    throw new ActionableError(
      'NO_RUN',
      `${abs} is not a run folder (it does not exist)`,
      'pass a folder written by `phone-agent run` (runs/<id>), or a run id with --runs-dir',
    );
  const cpFile = path.join(abs, 'checkpoint.json');
  const cpText = await readFile(cpFile, 'utf8').catch(() => undefined);
  if (cpText === undefined)
    throw new ActionableError(
      'NO_CHECKPOINT',
      `${cpFile} is missing, so ${abs} is not a run folder`,
      'pass the folder `phone-agent run` printed (it holds checkpoint.json and steps/)',
    );
  const model: RunModel = { dir: abs, steps: [], planningCalls: [] };
  const cp = parseJson(cpText, CheckpointSchema, 'checkpoint');
  if (cp.ok) model.checkpoint = cp.value;
  else model.checkpointError = `checkpoint.json: ${cp.error}`;

  const stepsDir = path.join(abs, 'steps');
  const names = await readdir(stepsDir).catch(() => [] as string[]);
  const numbers = names.flatMap((n) => {
    const m = STEP_FILE.exec(n);
    return m ? [Number(m[1])] : [];
  });
  // Steps the checkpoint counts but whose files are gone are shown too: a gap is information.
  const last = Math.max(0, model.checkpoint?.step ?? 0, ...numbers);
  const present = new Set(names);
  for (let n = 1; n <= last; n++) model.steps.push(await loadStep(abs, n, present));
  if (names.includes('final.png')) model.final = await readShot(abs, 'steps/final.png');
  // Each step's picture is the screen it was decided on, so the screen after step n is step n+1's
  // picture (the agent observes once after acting and decides the next step on that observation),
  // and after the last step it is the final screen.
  model.steps.forEach((s, i) => {
    s.after = i + 1 < model.steps.length ? model.steps[i + 1]?.shot : model.final;
  });
  model.planningCalls = await readCalls(abs, 0, present);
  return model;
}

async function loadStep(runDir: string, n: number, names: ReadonlySet<string>): Promise<ReportStep> {
  const base = String(n).padStart(3, '0');
  const file = `steps/${base}.json`;
  const shot = names.has(`${base}.png`) ? await readShot(runDir, `steps/${base}.png`) : undefined;
  const calls = await readCalls(runDir, n, names);
  const broken = (error: string): ReportStep => ({ n, kind: 'broken', file, error, shot, calls });
  if (!names.has(`${base}.json`)) return broken(`${file} is missing`);
  let text: string;
  try {
    text = await readFile(path.join(runDir, file), 'utf8');
  } catch (e) {
    return broken(`${file} could not be read: ${errorMessage(e)}`);
  }
  const parsed = parseJson(text, StepFileSchema, 'step record');
  if (!parsed.ok) return broken(`${file}: ${parsed.error}`);
  if (parsed.value.step !== n) return broken(`${file} holds step ${parsed.value.step}, not step ${n}`);
  return { n, kind: 'ok', file, record: parsed.value, shot, calls };
}

/** `steps/NNN.calls.jsonl`: a line that does not parse (a kill mid-write) is skipped, not fatal. */
async function readCalls(runDir: string, n: number, names: ReadonlySet<string>): Promise<Call[]> {
  const name = `${String(n).padStart(3, '0')}.calls.jsonl`;
  if (!names.has(name)) return [];
  const text = await readFile(path.join(runDir, 'steps', name), 'utf8').catch(() => '');
  return text.split('\n').flatMap((line) => {
    if (!line.trim()) return [];
    try {
      const r = CallSchema.safeParse(JSON.parse(line));
      return r.success ? [r.data] : [];
    } catch {
      return [];
    }
  });
}

function parseJson<S extends z.ZodType>(
  text: string,
  schema: S,
  what: string,
): { ok: true; value: z.infer<S> } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not valid JSON (${errorMessage(e)}); the file may have been cut off` };
  }
  const r = schema.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  const issues = r.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
  return { ok: false, error: `does not match the ${what} format (${issues})` };
}

/** The PNG's pixel size from its IHDR chunk (bytes 16..24), without decoding the image. */
async function readShot(runDir: string, rel: string): Promise<Shot> {
  const fh = await open(path.join(runDir, rel), 'r').catch(() => undefined);
  if (!fh) return { rel };
  try {
    const buf = Buffer.alloc(24);
    const { bytesRead } = await fh.read(buf, 0, 24, 0);
    const isPng = bytesRead === 24 && buf.readUInt32BE(0) === 0x89504e47 && buf.toString('latin1', 12, 16) === 'IHDR';
    return isPng ? { rel, width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) } : { rel };
  } finally {
    await fh.close();
  }
}
