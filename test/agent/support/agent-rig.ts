import { createDevicePorts } from '../../../src/agent/device-ports.js';
import type { AgentDeps } from '../../../src/agent/loop.js';
import type { AgentPorts, ConfirmVerdict, GuardCheck } from '../../../src/agent/ports.js';
import { Deadline, VirtualClock } from '../../../src/core/clock.js';
import { Logger } from '../../../src/core/logger.js';
import { BridgeDevice } from '../../../src/device/bridge/device.js';
import { createLlmClient } from '../../../src/planner/llm/client.js';
import { resolveLlmConfig } from '../../../src/planner/llm/config.js';
import { PageMemory } from '../../../src/planner/memory/page-memory.js';
import { Planner } from '../../../src/planner/planner.js';
import { type BridgeServer, startBridgeServer } from '../../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../../src/testbed/sim/phone.js';

/**
 * The agent as the CLI composes it, in process: a virtual phone behind its real bridge server, the
 * bridge device, perception + executor ports, and the planner over HTTP to a model URL. The phone
 * outlives any number of agents, which is what a resume needs.
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

export async function startRig(opts: { modelUrl: string; seed?: number }): Promise<Rig> {
  const logger = new Logger('agent', { sink: () => {} });
  const clock = new VirtualClock();
  const phone = new VirtualPhone({ clock, seed: opts.seed ?? 1 });
  const server = await startBridgeServer({ phone, logger });
  return {
    phone,
    clock,
    server,
    async agent({ confirm, wrap }) {
      const device = new BridgeDevice({ url: server.url, token: server.token, clock, logger });
      const c = await device.connect(Deadline.after(clock, 10_000));
      if (!c.ok) throw new Error(c.message);
      const confirmations: GuardCheck[] = [];
      const ports = createDevicePorts({
        device,
        clock,
        logger,
        confirm: async (check) => {
          confirmations.push(check);
          return confirm(check);
        },
      });
      const config = resolveLlmConfig({ baseUrl: opts.modelUrl, model: 'reference' }, {});
      const planner = new Planner({ llm: createLlmClient({ config, clock, logger }), logger });
      const deps: AgentDeps = { ports: wrap ? wrap(ports) : ports, planner, memory: new PageMemory(), clock, logger };
      return { deps, confirmations, close: () => device.close() };
    },
    close: () => server.close(),
  };
}
