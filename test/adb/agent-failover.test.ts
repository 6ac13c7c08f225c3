import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { runAgent } from '../../src/agent/loop.js';
import { callbackConfirmation, composeAgent } from '../../src/compose/agent.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { writeReport } from '../../src/report/write.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';
import { startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';

/**
 * Failover in the product path: the agent is composed by the one factory for `--device SERIAL
 * --helper URL`; the helper dies after the first step, the task finishes over the real adb server,
 * and every receipt — and the run report — says which backend served it.
 */

let runsDir: string;
let model: ReferenceModel;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-failover-'));
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
});
afterAll(async () => {
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

describe('agent failover helper → adb', () => {
  it('finishes "Turn Wi-Fi off" over adb after the helper dies mid-task; receipts and report show the switch', async () => {
    const clock = new VirtualClock();
    const phone = new VirtualPhone({ clock, seed: 1 });
    const bridge = await startBridgeServer({ phone, logger: Logger.silent() });
    const adbd = await startAdbDevice({ phone, logger: Logger.silent() });
    const server = await PrivateAdbServer.start();
    const serial = `127.0.0.1:${adbd.port}`;
    await server.connect(serial);
    const warnings: string[] = [];
    try {
      const agent = await composeAgent({
        device: { kind: 'adb', serial, port: server.port, helper: { url: bridge.url, token: bridge.token } },
        model: { baseUrl: model.url, model: 'reference' },
        confirm: callbackConfirmation('test', () => 'approved'),
        memory: new PageMemory(),
        clock,
        logger: new Logger('agent', { level: 'warn', sink: (l) => warnings.push(l) }),
        screenshots: false,
        onEvent: (e) => {
          // The helper's process dies once the first step is done.
          if (e.kind === 'step' && e.summary.step === 1) phone.faults.helperDisconnected = true;
        },
      });
      const run = await runAgent(agent.deps, { goal: 'Turn Wi-Fi off.', maxSteps: 12, runsDir });
      await agent.close();
      expect(run.status).toBe('done');
      expect(phone.world.settings.wifi).toBe(false);
      expect(warnings.some((l) => l.includes('FAILOVER'))).toBe(true);

      const receipts = [];
      for (const s of run.stepLog) {
        const rec = JSON.parse(
          await readFile(path.join(run.runDir, 'steps', `${String(s.step).padStart(3, '0')}.json`), 'utf8'),
        );
        if (rec.receipt) receipts.push(rec.receipt);
      }
      expect(receipts[0]).toMatchObject({ backend: 'bridge' });
      expect(receipts.slice(1).some((r) => r.backend === 'adb' && r.failover === true)).toBe(true);
      const report = await writeReport(run.runDir);
      expect(await readFile(report.path, 'utf8')).toContain('failover from the helper');
    } finally {
      await server.kill();
      await adbd.close();
      await bridge.close();
    }
  });
});
