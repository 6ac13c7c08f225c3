import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Dirs, type Phone, sc, startPhone, stdioClient, tempDirs } from './harness.js';

/**
 * The task tools end to end over stdio: `phone-agent mcp --model reference` runs the agent on the
 * virtual phone; consent for a send comes through MCP elicitation when the client declares it, and
 * through needs_confirmation + mobile_resume_task when it does not.
 */

const SEND = 'Text 15551234567: "On my way".';

let phone: Phone;
let dirs: Dirs;
let client: Client | undefined;

beforeEach(async () => {
  phone = await startPhone();
  dirs = await tempDirs();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await phone.close();
  await dirs.close();
});

describe('phone-agent mcp: task tools', () => {
  it('runs a task end to end with a progress notification per step and leaves a run folder', async () => {
    ({ client } = await stdioClient(phone, dirs));
    const progress: string[] = [];
    const r = await client.callTool(
      { name: 'mobile_run_task', arguments: { goal: 'Turn Wi-Fi off', max_steps: 10 } },
      undefined,
      {
        onprogress: (p) => void progress.push(String(p.message)),
        resetTimeoutOnProgress: true,
      },
    );
    const out = sc(r);
    expect(out).toMatchObject({ status: 'done', run_id: expect.any(String) });
    expect(phone.phone.world.settings.wifi).toBe(false);
    // One per step; a notification still in flight when the result lands may be missed by the client.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.length).toBeLessThanOrEqual(Number(out.steps));
    expect(progress[0]).toMatch(/^step 1\/10: .*launch_app/);
    expect((await stat(path.join(String(out.run_folder), 'checkpoint.json'))).isFile()).toBe(true);

    const status = sc(await client.callTool({ name: 'mobile_task_status', arguments: { run_id: out.run_id } }));
    expect(status).toMatchObject({ state: 'done', goal: 'Turn Wi-Fi off' });
    const none = await client.callTool({ name: 'mobile_task_status', arguments: { run_id: 'no-such-run' } });
    expect(none.isError).toBe(true);
    expect(sc(none).failure_code).toBe('NOT_FOUND');
  }, 60_000);

  it('takes a mode: a Flash run says so in its status; explore and unknown modes are refused', async () => {
    ({ client } = await stdioClient(phone, dirs));
    const out = sc(
      await client.callTool({
        name: 'mobile_run_task',
        arguments: { goal: 'Turn Wi-Fi off', max_steps: 10, mode: 'flash' },
      }),
    );
    expect(out).toMatchObject({ status: 'done' });
    expect(phone.phone.world.settings.wifi).toBe(false);
    const status = sc(await client.callTool({ name: 'mobile_task_status', arguments: { run_id: out.run_id } }));
    expect(status).toMatchObject({ state: 'done', mode: 'flash' });
    for (const mode of ['explore', 'turbo']) {
      const bad = await client.callTool({ name: 'mobile_run_task', arguments: { goal: 'Turn Wi-Fi on', mode } });
      expect(bad.isError, mode).toBe(true);
    }
    expect(phone.phone.world.settings.wifi).toBe(false);
  }, 60_000);

  it('asks for consent through elicitation and sends once after the user agrees', async () => {
    let c: Awaited<ReturnType<typeof stdioClient>>;
    ({ client } = c = await stdioClient(phone, dirs, { elicit: () => true }));
    const r = sc(await client.callTool({ name: 'mobile_run_task', arguments: { goal: SEND, max_steps: 17 } }));
    expect(r.status).toBe('done');
    expect(c.elicited.messages).toEqual([expect.stringMatching(/Send.*send action/)]);
    expect(phone.phone.world.sent).toEqual([expect.objectContaining({ body: 'On my way' })]);
  }, 60_000);

  it('a declined elicitation sends nothing', async () => {
    ({ client } = await stdioClient(phone, dirs, { elicit: () => false }));
    const r = sc(await client.callTool({ name: 'mobile_run_task', arguments: { goal: SEND, max_steps: 17 } }));
    expect(r.status).not.toBe('done');
    expect(phone.phone.world.sent).toHaveLength(0);
  }, 60_000);

  it('without elicitation the run pauses as needs_confirmation and mobile_resume_task continues it', async () => {
    ({ client } = await stdioClient(phone, dirs));
    const paused = sc(await client.callTool({ name: 'mobile_run_task', arguments: { goal: SEND, max_steps: 17 } }));
    expect(paused).toMatchObject({
      status: 'needs_confirmation',
      needs_confirmation: { run_id: paused.run_id, summary: expect.stringMatching(/Send/) },
    });
    expect(phone.phone.world.sent).toHaveLength(0);
    const status = sc(await client.callTool({ name: 'mobile_task_status', arguments: { run_id: paused.run_id } }));
    expect(status).toMatchObject({
      state: 'needs_confirmation',
      waiting_for: { summary: expect.stringMatching(/Send/) },
    });

    const bad = await client.callTool({
      name: 'mobile_resume_task',
      arguments: { run_id: paused.run_id, decision: 'maybe' },
    });
    expect(bad.isError).toBe(true);
    expect(phone.phone.world.sent).toHaveLength(0);

    const done = sc(
      await client.callTool({ name: 'mobile_resume_task', arguments: { run_id: paused.run_id, decision: 'approve' } }),
    );
    expect(done).toMatchObject({ status: 'done', run_id: paused.run_id });
    expect(phone.phone.world.sent).toEqual([expect.objectContaining({ body: 'On my way' })]);
  }, 90_000);
});
