import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealClock } from '../../src/core/clock.js';
import { type BridgeServer, startBridgeServer } from '../../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

/**
 * The real thing: `phone-agent run` in its own process drives a phone served over the helper
 * bridge, is killed with SIGKILL the moment the message leaves, and `phone-agent resume` in a new
 * process finishes the run without sending it again.
 */

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOKEN = 'resume-cli-token';

let dir: string;
let phone: VirtualPhone;
let server: BridgeServer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pa-resume-cli-'));
  phone = new VirtualPhone({ clock: new RealClock(), seed: 1 });
  server = await startBridgeServer({ phone, token: TOKEN });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): ChildProcess & { done: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const done = new Promise<number | null>((ok) =>
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(err);
      ok(code);
    }),
  );
  return Object.assign(child, { done });
}

describe('phone-agent resume across processes', () => {
  it('a run killed right after it sent finishes on resume and sends nothing twice', async () => {
    const runsDir = path.join(dir, 'runs');
    const common = ['--runs-dir', runsDir, '--memory', path.join(dir, 'memory.json'), '--json'];
    const run = cli([
      'run',
      'Text 15551234567: "On my way".',
      '--device',
      server.url,
      '--token',
      TOKEN,
      '--model',
      'reference',
      '--yes',
      ...common,
    ]);
    // Kill the agent the moment the message is out: before it can record what it did.
    const killed = await new Promise<boolean>((ok) => {
      const poll = setInterval(() => {
        if (phone.world.sent.length > 0) {
          clearInterval(poll);
          ok(run.kill('SIGKILL'));
        }
      }, 2);
      void run.done.then(() => {
        clearInterval(poll);
        ok(false);
      });
    });
    expect(killed).toBe(true);
    await run.done;
    expect(phone.world.sent).toHaveLength(1);
    const [runId] = await readdir(runsDir);
    const runDir = path.join(runsDir, runId!);
    const cpText = await readFile(path.join(runDir, 'checkpoint.json'), 'utf8');
    const cp = JSON.parse(cpText);
    expect(cp.status).toBe('running');
    expect(cp.launch).toMatchObject({ device: server.url, model: 'reference' });
    expect(cpText).not.toContain(TOKEN);

    // A new process: device and model come from the checkpoint, the token from the environment.
    const resume = cli(['resume', runDir, '--yes', ...common], { ANDROID_BRIDGE_TOKEN: TOKEN });
    let out = '';
    resume.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    expect(await resume.done).toBe(0);
    expect(JSON.parse(out).status).toBe('done');
    expect(phone.world.sent).toHaveLength(1);
    expect(phone.world.events.filter((e) => e.kind === 'sent')).toHaveLength(1);
    // Two agent processes on real time: generous, because CI machines are shared.
  }, 240_000);

  it('Ctrl-C stops a run and says how to resume it; the checkpoint is there to resume from', async () => {
    const runsDir = path.join(dir, 'runs-int');
    const run = cli([
      'run',
      'Turn Bluetooth off',
      '--device',
      server.url,
      '--token',
      TOKEN,
      '--model',
      'reference',
      '--runs-dir',
      runsDir,
      '--memory',
      path.join(dir, 'memory-int.json'),
    ]);
    let err = '';
    await new Promise<void>((ok) => {
      run.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
        if (/step 1\//.test(err)) ok();
      });
      void run.done.then(() => ok());
    });
    run.kill('SIGINT');
    expect(await run.done).toBe(130);
    const m = /interrupted — continue with: (?:npx |npm run )?phone-agent (?:-- )?resume (\S+)/.exec(err);
    expect(m, err).not.toBeNull();
    const cp = JSON.parse(await readFile(path.join(m![1]!, 'checkpoint.json'), 'utf8'));
    expect(cp.step).toBeGreaterThanOrEqual(1);
    // The run was cancelled, not killed: its checkpoint says so and why (a resume goes on from it).
    expect(cp.status).toBe('interrupted');
    expect(cp.reason).toMatch(/SIGINT/);
  }, 120_000);
});
