import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { referenceCatalog } from '../../../regression-tasks/index.js';
import type { ActArgsOut } from '../../../src/testbed/reference-model/policy.js';
import type { ParsedPrompt } from '../../../src/testbed/reference-model/read-request.js';
import { type ReferenceModel, startReferenceModel } from '../../../src/testbed/reference-model/server.js';
import { type Rig, startRig } from './agent-rig.js';

/** A test's own answer, asked before the catalog; undefined = the reference model decides. */
export type Script = (p: ParsedPrompt, fn: string) => ActArgsOut | undefined;

export interface ScriptedSuite {
  /** The reference model over HTTP, for the whole file. */
  model: ReferenceModel;
  /** A fresh virtual phone for each test (a test may replace it). */
  rig: Rig;
  runsDir: string;
  /** Each model call of the test: its function and the prompt as the model read it. */
  asked: { fn: string; p: ParsedPrompt }[];
  script?: Script;
}

/**
 * The file's reference model (noise 0, seed 1) that hears every call and lets a test answer some
 * itself, and a fresh phone per test: the hooks are registered here, the state read off the result.
 */
export function scriptedSuite(prefix: string): ScriptedSuite {
  const t = { asked: [], runsDir: '' } as unknown as ScriptedSuite;
  beforeAll(async () => {
    t.model = await startReferenceModel({
      catalog: referenceCatalog(),
      noise: 0,
      seed: 1,
      tokenizer: 'estimate',
      answer: (p, fn) => {
        t.asked.push({ fn, p });
        return t.script?.(p, fn);
      },
    });
    t.runsDir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await t.model.close();
    await rm(t.runsDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    t.asked.length = 0;
    t.script = undefined;
    t.rig = await startRig({ modelUrl: t.model.url });
  });
  afterEach(async () => {
    await t.rig.close();
  });
  return t;
}
