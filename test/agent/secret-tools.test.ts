import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/loop.js';
import { toolCallCompletion } from '../planner/fixtures.js';
import { startRig } from './support/agent-rig.js';

/**
 * A credential is filled in only by `type` into a password field. A model that puts the
 * placeholder in another tool's arguments (control_action set_text, seen in a real-model run) is
 * refused before anything is sent: neither the placeholder nor the secret reaches the phone.
 */

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(path.join(tmpdir(), 'pa-secret-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

/** A model that opens Acme, then tries set_text with the placeholder on the password field, then gives up. */
async function model() {
  let n = 0;
  const prompts: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const text = JSON.stringify(JSON.parse(body).messages);
      prompts.push(text);
      n++;
      // The listing's lines start after a newline (`\n` in the JSON); the agent's ids are bare.
      const pw = /\\n([0-9a-f]{3,8}) EditText \\"Password\\"/.exec(text)?.[1];
      const reply =
        n <= 3
          ? { thought: 'no plan', tool: 'done' }
          : !pw
            ? { thought: 'open', tool: 'launch_app', package: 'com.acme.bank', expect: 'app_foreground com.acme.bank' }
            : prompts.some((p) => p.includes('entered only with type'))
              ? { thought: 'stop', tool: 'ask_user', text: 'stuck' }
              : {
                  thought: 'fill',
                  tool: 'control_action',
                  target_id: pw,
                  op: 'set_text',
                  text: '⟨secret1⟩',
                  expect: 'no_change',
                };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(toolCallCompletion('act', JSON.stringify(reply), 10)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('secret placeholders outside type', () => {
  it('are refused before dispatch; nothing of them reaches the phone', async () => {
    const m = await model();
    const rig = await startRig({ modelUrl: m.url });
    try {
      const a = await rig.agent({ confirm: () => 'approved' });
      const run = await runAgent(a.deps, {
        goal: 'Log into Acme as a@acme.test with password Hunter2-secret!',
        maxSteps: 6,
        runsDir,
      });
      await a.close();
      const refused = run.stepLog.find((s) => s.note?.includes('entered only with type'));
      expect(refused).toBeDefined();
      const world = JSON.stringify(rig.phone.world);
      expect(world).not.toContain('⟨secret1⟩');
      expect(world).not.toContain('Hunter2-secret');
    } finally {
      await rig.close();
      await m.close();
    }
  });
});
