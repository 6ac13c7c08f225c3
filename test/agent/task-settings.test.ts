import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_FILE, loadTaskSettings } from '../../src/agent/task-settings.js';
import { ActionableError } from '../../src/core/errors.js';
import { LIMITS } from '../../src/device/protocol/limits.js';

/** The task settings file: defaults, the documented key, and errors that name the file and the key. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-settings-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const f = path.join(dir, name);
  await writeFile(f, content);
  return f;
}

describe('task settings', () => {
  it('without a file, max_burst_actions is the action_sequence limit', async () => {
    const empty = await mkdtemp(path.join(dir, 'none-'));
    expect(await loadTaskSettings(undefined, empty)).toEqual({ maxBurstActions: LIMITS.maxBurstActions });
  });

  it('reads pro.execution.max_burst_actions from --config and from the default file in the directory', async () => {
    const f = await file('a.json', JSON.stringify({ pro: { execution: { max_burst_actions: 3 } } }));
    expect(await loadTaskSettings(f)).toEqual({ maxBurstActions: 3 });
    const cwd = await mkdtemp(path.join(dir, 'cwd-'));
    await writeFile(
      path.join(cwd, DEFAULT_CONFIG_FILE),
      JSON.stringify({ pro: { execution: { max_burst_actions: 5 } } }),
    );
    expect(await loadTaskSettings(undefined, cwd)).toEqual({ maxBurstActions: 5 });
  });

  it('a value beyond the protocol limit names the file and the key', async () => {
    const f = await file('big.json', JSON.stringify({ pro: { execution: { max_burst_actions: 50 } } }));
    const err = await loadTaskSettings(f).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionableError);
    expect((err as Error).message).toContain(f);
    expect((err as Error).message).toContain('pro.execution.max_burst_actions');
  });

  it('a misspelt key is refused, not ignored', async () => {
    const f = await file('typo.json', JSON.stringify({ pro: { execution: { max_burst_action: 2 } } }));
    await expect(loadTaskSettings(f)).rejects.toThrow(/typo\.json: pro\.execution\.max_burst_action\b/);
  });

  it('a missing --config file and a file that is not JSON say so, with the path', async () => {
    const missing = path.join(dir, 'nope.json');
    await expect(loadTaskSettings(missing)).rejects.toThrow(new RegExp(`cannot read the config file ${missing}`));
    const bad = await file('bad.json', '{ pro: ');
    await expect(loadTaskSettings(bad)).rejects.toThrow(/bad\.json is not JSON/);
  });
});
