import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask } from '../../regression-tasks/harness.js';
import { referenceCatalog } from '../../regression-tasks/index.js';
import { REC_01 } from '../../regression-tasks/tasks/rec-01.js';
import { REC_02 } from '../../regression-tasks/tasks/rec-02.js';
import { REC_03 } from '../../regression-tasks/tasks/rec-03.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import { type ReferenceModel, startReferenceModel } from '../../src/testbed/reference-model/server.js';

/**
 * The timeline tasks end to end, the suite's way (virtual phone → bridge → agent → reference model
 * over HTTP), on more seeds than the all-tasks test, behind a loopback proxy that records which
 * tools each request offered: seek_timeline is offered on the Recordings screen and nowhere else.
 */

interface Seen {
  tools: string[];
  screen: string;
}

let model: ReferenceModel;
let proxy: Server;
let proxyUrl: string;
let runsDir: string;
const seen: Seen[] = [];

beforeAll(async () => {
  model = await startReferenceModel({ catalog: referenceCatalog(), noise: 0, seed: 1, tokenizer: 'estimate' });
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const j = JSON.parse(body) as {
        messages?: { role: string; content: unknown }[];
        tools?: { function?: { name?: string; parameters?: { properties?: { tool?: { enum?: string[] } } } } }[];
      };
      const fn = j.tools?.[0]?.function;
      const user = j.messages?.find((m) => m.role === 'user')?.content;
      if (fn?.name === 'act')
        seen.push({ tools: fn.parameters?.properties?.tool?.enum ?? [], screen: JSON.stringify(user ?? '') });
    } catch {
      // Not JSON: forwarded as it is; the model answers it.
    }
    const r = await fetch(`${model.url}${req.url?.replace(/^\/v1/, '') ?? ''}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body,
    });
    res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${new URL(model.url).pathname}`;
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-rec-'));
});
afterAll(async () => {
  await new Promise<void>((ok) => proxy.close(() => ok()));
  await model.close();
  await rm(runsDir, { recursive: true, force: true });
});

describe('timeline tasks with the reference model over the bridge', () => {
  it.each([
    ['REC-01', 1, REC_01],
    ['REC-01', 3, REC_01],
    ['REC-02', 1, REC_02],
    ['REC-02', 3, REC_02],
    ['REC-03', 1, REC_03],
    ['REC-03', 3, REC_03],
  ] as const)('%s seed %i', async (_id, seed, task) => {
    const r = await runTask(task, { seed, modelUrl: proxyUrl, memory: new PageMemory(), runsDir });
    const trace = r.run.stepLog.map((s) => `${s.step} ${s.action} ${s.ok ? 'ok' : 'FAIL'} ${s.note ?? ''}`).join('\n');
    expect(r.check, `${r.goal}\n${trace}`).toEqual({ ok: true });
    expect(r.run.steps).toBeLessThanOrEqual(2 * task.optimalSteps + 5);
  });

  it('offered seek_timeline only on the screen with the timeline', () => {
    const onRecordings = seen.filter((s) => s.screen.includes('com.example.recordings/'));
    const elsewhere = seen.filter((s) => !s.screen.includes('com.example.recordings/'));
    expect(onRecordings.length).toBeGreaterThan(0);
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(onRecordings.every((s) => s.tools.includes('seek_timeline'))).toBe(true);
    expect(elsewhere.some((s) => s.tools.includes('seek_timeline'))).toBe(false);
  });
});
