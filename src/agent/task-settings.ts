import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ActionableError } from '../core/errors.js';
import { LIMITS } from '../device/protocol/limits.js';

/**
 * The task settings (issue 25), from a documented JSON file (README "Modes"): `--config FILE`, else
 * `phone-agent.config.json` in the working directory when there is one. Every key is optional and
 * has the default below; an unknown key or a bad value is an error naming the file and the key, so
 * a typo never runs silently on the default.
 *
 *     { "pro": { "execution": { "max_burst_actions": 4 } } }
 *
 * `pro.execution.max_burst_actions` bounds one `action_sequence` burst (the seed's name; it applies
 * in every mode), at most the helper protocol's limit.
 */

export const DEFAULT_CONFIG_FILE = 'phone-agent.config.json';

export interface TaskSettings {
  /** Members of one action_sequence at most. */
  maxBurstActions: number;
}

export const DEFAULT_TASK_SETTINGS: TaskSettings = { maxBurstActions: LIMITS.maxBurstActions };

const FileSchema = z.strictObject({
  pro: z
    .strictObject({
      execution: z
        .strictObject({
          max_burst_actions: z.number().int().min(1).max(LIMITS.maxBurstActions).optional(),
        })
        .optional(),
    })
    .optional(),
});

/** Settings from a parsed file's content; `file` names it in the error. */
export function taskSettingsFrom(raw: unknown, file: string): TaskSettings {
  const r = FileSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const keys = issue && 'keys' in issue && Array.isArray(issue.keys) ? issue.keys : [];
    const at = [...(issue?.path ?? []), ...keys.slice(0, 1)].join('.') || '(top level)';
    throw new ActionableError(
      'CONFIG',
      `${file}: ${at}: ${issue?.message ?? 'invalid'}`,
      `fix that key (known: pro.execution.max_burst_actions, a whole number 1..${LIMITS.maxBurstActions}) or pass another --config`,
    );
  }
  return { maxBurstActions: r.data.pro?.execution?.max_burst_actions ?? DEFAULT_TASK_SETTINGS.maxBurstActions };
}

/**
 * The settings of `file` (must exist), or of `phone-agent.config.json` in `cwd` when there is one,
 * else the defaults.
 */
export async function loadTaskSettings(file: string | undefined, cwd = process.cwd()): Promise<TaskSettings> {
  const target = path.resolve(cwd, file ?? DEFAULT_CONFIG_FILE);
  let text: string;
  try {
    text = await readFile(target, 'utf8');
  } catch (e) {
    if (file === undefined && (e as NodeJS.ErrnoException).code === 'ENOENT') return { ...DEFAULT_TASK_SETTINGS };
    throw new ActionableError(
      'CONFIG',
      `cannot read the config file ${target} (${(e as Error).message})`,
      'pass an existing JSON file with --config, or leave --config out for the defaults',
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ActionableError('CONFIG', `${target} is not JSON (${(e as Error).message})`, 'fix the file');
  }
  return taskSettingsFrom(raw, target);
}
