import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { RunModeSchema, SettingsRecordSchema } from './checkpoint.js';

/**
 * `start.json`: what `phone-agent run` was asked, written the moment the run folder is locked —
 * before the device, the model or the plan. The checkpoint only exists once the plan is made, so a
 * run killed before that (during start-up or the first model call) would leave a folder nothing can
 * resume; with this record `resume` starts it again, which is safe because no step has run yet.
 * The goal is stored masked (no credential), like the checkpoint's.
 */

const FILE = 'start.json';

export const RunStartSchema = z.object({
  version: z.literal(1),
  runId: z.string(),
  goal: z.string(),
  maxSteps: z.number().int().positive(),
  dryRun: z.boolean().optional(),
  launch: z.record(z.string(), z.string()).optional(),
  mode: RunModeSchema.optional(),
  settings: SettingsRecordSchema.optional(),
});
export type RunStart = z.infer<typeof RunStartSchema>;

export async function writeRunStart(runDir: string, start: RunStart): Promise<void> {
  const file = path.join(runDir, FILE);
  // Written whole then renamed: a kill mid-write leaves the old file or none, never half of one.
  await writeFile(`${file}.tmp`, `${JSON.stringify(start, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

/** The start record of a run folder, or undefined when there is none (or it does not parse). */
export async function readRunStart(runDir: string): Promise<RunStart | undefined> {
  try {
    const parsed = RunStartSchema.safeParse(JSON.parse(await readFile(path.join(runDir, FILE), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
