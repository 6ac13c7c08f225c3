import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { runAgent } from '../../src/agent/loop.js';
import { hammingDistance, SAME_FRAME_MAX_DISTANCE } from '../../src/perception/frame.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { startRig } from './support/agent-rig.js';

/**
 * A model must never see a stale frame: after a page change, the screenshot archived with the next
 * step (and handed to a vision model) shows the new page, not the one a transition still draws.
 */

let runsDir: string;
let model: ReferenceModel;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-shots-'));
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

describe('screenshots pair with their observation', () => {
  it('the frame after launching Settings is the Settings screen, not the launcher mid-transition', async () => {
    const rig = await startRig({ modelUrl: model.url });
    try {
      const a = await rig.agent({ confirm: () => 'approved' });
      const run = await runAgent(a.deps, { goal: 'Turn Wi-Fi off.', maxSteps: 8, runsDir });
      await a.close();
      expect(run.status).toBe('done');
      const step1 = JSON.parse(await readFile(path.join(run.runDir, 'steps', '001.json'), 'utf8'));
      expect(step1.action).toMatch(/launch_app/);
      const { pre, post } = step1.receipt;
      expect(post.pageHash).not.toBe(pre.pageHash);
      expect(hammingDistance(pre.frameHash, post.frameHash)).toBeGreaterThan(SAME_FRAME_MAX_DISTANCE);
      const step2 = JSON.parse(await readFile(path.join(run.runDir, 'steps', '002.json'), 'utf8'));
      expect(step2.observation).toMatch(/com\.android\.settings/);
    } finally {
      await rig.close();
    }
  });
});
