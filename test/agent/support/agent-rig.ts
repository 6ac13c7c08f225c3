import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { AgentDeps } from '../../../src/agent/loop.js';
import type { AgentPorts, ConfirmVerdict, GuardCheck } from '../../../src/agent/ports.js';
import { callbackConfirmation, composeAgent } from '../../../src/compose/agent.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { Logger } from '../../../src/core/logger.js';
import { PageMemory } from '../../../src/planner/memory/page-memory.js';
import type { CatalogEntry } from '../../../src/testbed/reference-model/intents.js';
import { type ReferenceModel, startReferenceModel } from '../../../src/testbed/reference-model/server.js';
import { type BridgeServer, startBridgeServer } from '../../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../../src/testbed/sim/phone.js';

/**
 * The agent as the CLI composes it (the one factory), in process: a virtual phone behind its real
 * bridge server, and the planner over HTTP to a model URL. The phone outlives any number of
 * agents, which is what a resume needs.
 */

export interface Rig {
  phone: VirtualPhone;
  clock: VirtualClock;
  server: BridgeServer;
  /** A fresh agent on the same phone: a new process would build exactly this. */
  agent(opts: {
    confirm: (c: GuardCheck) => ConfirmVerdict;
    /** Wrap the ports, e.g. to make the process "die" at a chosen point. */
    wrap?: (ports: AgentPorts) => AgentPorts;
  }): Promise<{ deps: AgentDeps; confirmations: GuardCheck[]; close: () => Promise<void> }>;
  close(): Promise<void>;
}

/** `vision`: the model reads images (screenshots on visual-first screens, and `look`). */
export async function startRig(opts: { modelUrl: string; seed?: number; vision?: boolean }): Promise<Rig> {
  const logger = new Logger('agent', { sink: () => {} });
  const clock = new VirtualClock();
  const phone = new VirtualPhone({ clock, seed: opts.seed ?? 1 });
  const server = await startBridgeServer({ phone, logger });
  return {
    phone,
    clock,
    server,
    async agent({ confirm, wrap }) {
      const confirmations: GuardCheck[] = [];
      const agent = await composeAgent({
        device: { kind: 'bridge', url: server.url, token: server.token },
        model: { baseUrl: opts.modelUrl, model: 'reference', vision: opts.vision },
        confirm: callbackConfirmation('test', (req) => {
          confirmations.push(req);
          return confirm(req);
        }),
        memory: new PageMemory(),
        clock,
        logger,
      });
      const deps: AgentDeps = wrap ? { ...agent.deps, ports: wrap(agent.deps.ports) } : agent.deps;
      return { deps, confirmations, close: () => agent.close() };
    },
    close: () => server.close(),
  };
}

/**
 * A reference model on `catalog` for the file, a runs folder, and a fresh rig (a new phone) per
 * test: the lifecycle most agent tests share. Call at the top of a test file.
 */
export function rigPerTest(catalog: CatalogEntry[], prefix: string): { rig: () => Rig; runsDir: () => string } {
  let model: ReferenceModel | undefined;
  let runsDir = '';
  let rig: Rig | undefined;
  beforeAll(async () => {
    model = await startReferenceModel({ catalog, noise: 0, seed: 1, tokenizer: 'estimate' });
    runsDir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await model?.close();
    await rm(runsDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    rig = await startRig({ modelUrl: model?.url ?? '' });
  });
  afterEach(async () => {
    await rig?.close();
  });
  return {
    rig: () => {
      if (!rig) throw new Error('rigPerTest: no rig outside a test');
      return rig;
    },
    runsDir: () => runsDir,
  };
}
