import path from 'node:path';
import type { Command } from 'commander';
import { openDevice } from '../../compose/device.js';
import type { ModelSpec } from '../../compose/model.js';
import { Deadline, RealClock } from '../../core/clock.js';
import { ActionableError } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { AdbCli } from '../../device/helper-app/adb-cli.js';
import { HelperApp } from '../../device/helper-app/helper-app.js';
import { DEFAULT_HELPER_STATE_DIR } from '../../device/helper-app/ime-state.js';
import { resolveLlmConfig } from '../../planner/llm/config.js';
import { deviceLockKey, lockDevice } from '../../store/device-lock.js';
import { adbServerFlags } from '../probe.js';
import { mask, summary, type VerifyReport, type VerifyStep, writeReport } from '../verify/report.js';
import { conformanceStep, doctorStep, tasksStep, treeStep } from '../verify/steps.js';
import { verifyCatalog } from '../verify/tasks.js';
import { doctor } from './doctor.js';
import { helperApk } from './helper.js';
import { exitWith, wholeNumber } from './run.js';

/**
 * `phone-agent verify-device --device SERIAL`: the first-phone kit. doctor; the helper installed
 * (or the installed one used); the conformance suite against it; a few read-only or self-reverting
 * Settings tasks with the configured model (none configured: skipped); the helper's tree against
 * `uiautomator dump` of the same screen; then one folder (verify.json + verify.html, masked) to
 * attach to a bug report, and the summary. Every guarded action is denied: nothing pays, sends,
 * deletes or touches an account.
 */

interface VerifyFlags {
  device?: string;
  apk?: string;
  install: boolean;
  out?: string;
  model?: string;
  baseUrl?: string;
  preset?: string;
  adbHost: string;
  adbPort: string;
  stateDir: string;
  runsDir: string;
  maxSteps: string;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** The model to run the tasks with, or why there is none (nothing is called that nobody configured). */
function modelFor(f: VerifyFlags): { spec: ModelSpec } | { none: string } {
  const spec: ModelSpec = { model: f.model, baseUrl: f.baseUrl, preset: f.preset, catalog: verifyCatalog() };
  if (f.model === 'reference') return { spec };
  try {
    resolveLlmConfig({ baseUrl: f.baseUrl, model: f.model, preset: f.preset }, process.env);
    return { spec };
  } catch {
    return { none: 'no model configured (OPENAI_BASE_URL and PHONE_AGENT_MODEL, or --model): the tasks were not run' };
  }
}

export async function verifyDevice(f: VerifyFlags): Promise<number> {
  const serial = f.device;
  if (!serial)
    throw new ActionableError('USAGE', 'verify-device needs --device SERIAL', 'pass the serial `adb devices` shows');
  const maxSteps = wholeNumber('--max-steps', f.maxSteps, 1, 20);
  const started = new Date();
  const out = path.resolve(
    f.out ?? `verify-${serial.replace(/[^\w.-]+/g, '_')}-${started.toISOString().replace(/[:.]/g, '-')}`,
  );
  const clock = new RealClock();
  const logger = new Logger('cli', { level: 'error' });
  const host = f.adbHost;
  const port = Number(f.adbPort);
  const report: VerifyReport = { version: 1, serial, startedAt: started.toISOString(), ms: 0, steps: [] };
  const add = (s: VerifyStep) => {
    report.steps.push(s);
    say(
      `${s.status === 'pass' ? 'ok  ' : s.status === 'skip' ? '--  ' : s.status.toUpperCase()}  ${s.name}: ${s.detail}`,
    );
  };
  const lock = await lockDevice(deviceLockKey(serial), { command: `phone-agent verify-device --device ${serial}` });
  const app = new HelperApp(new AdbCli({ serial, host, port }), f.stateDir);
  try {
    const t0 = performance.now();
    add(
      doctorStep(
        await doctor({ model: f.model, baseUrl: f.baseUrl, preset: f.preset, adbHost: host, adbPort: f.adbPort }),
        Math.round(performance.now() - t0),
      ),
    );

    const t1 = performance.now();
    await app.recoverIme();
    let found = await app.discover();
    let how = 'the installed helper';
    if (!found.ok && f.install) {
      const set = await app.setUp(await helperApk(f.apk), (l) => say(`  ${l}`));
      found = set.ok ? { ok: true, endpoint: set.endpoint } : { ok: false, reason: set.message };
      how = 'installed now';
    }
    const ms = Math.round(performance.now() - t1);
    if (!found.ok) {
      add({ name: 'helper', status: 'fail', detail: mask(found.reason), ms });
      return 1;
    }
    const { endpoint } = found;
    const h = endpoint.hello;
    report.device = { ...h.device, apiLevel: h.apiLevel };
    report.helper = { protocol: h.protocol, version: h.helperVersion, capabilities: h.capabilities };
    add({
      name: 'helper',
      status: 'pass',
      detail: `${how}: protocol ${h.protocol}, API ${h.apiLevel}, ${h.capabilities.length} capabilities`,
      ms,
    });
    const ime = await app.useIme();
    if (!ime.ok) say(`  warning: ${ime.message}`);
    try {
      add(await conformanceStep(endpoint, say));
      const helper = await openDevice({ kind: 'bridge', url: endpoint.url, token: endpoint.token }, { clock, logger });
      const dump = await openDevice({ kind: 'adb', serial, host, port, discoverHelper: false }, { clock, logger });
      try {
        const model = modelFor(f);
        if ('none' in model) add({ name: 'tasks', status: 'skip', detail: model.none, ms: 0 });
        else {
          const version = (await app.adb.shell(['getprop', 'ro.build.version.release'])).stdout.trim();
          add(
            await tasksStep({
              device: { kind: 'adb', serial, host, port, helper: { url: endpoint.url, token: endpoint.token } },
              model: model.spec,
              facts: {
                androidVersion: version,
                snapshot: async () => {
                  const r = await helper.device.snapshot({}, Deadline.after(clock, 10_000));
                  return r.ok ? r.snapshot : undefined;
                },
              },
              runsDir: path.resolve(f.runsDir),
              maxSteps,
              logger,
              say,
            }),
          );
        }
        const tree = await treeStep({ helper: helper.device, dump: dump.device, clock });
        report.tree = tree.tree;
        add(tree.step);
      } finally {
        await helper.close();
        await dump.close();
      }
    } finally {
      const r = await app.restoreIme();
      if (!r.ok) say(`  warning: ${r.message}`);
    }
    return report.steps.some((s) => s.status === 'fail') ? 1 : 0;
  } finally {
    report.ms = Date.now() - started.getTime();
    const files = await writeReport(out, report);
    say(`\n${summary(report)}\n\nwrote ${files.json} and ${files.html} — attach the folder to a bug report`);
    await lock.release();
  }
}

export function register(program: Command): void {
  adbServerFlags(program.command('verify-device'))
    .description('Check a real phone end to end: doctor, helper, conformance, Settings tasks, tree vs uiautomator')
    .option('--device <serial>', 'the phone, as `adb devices` lists it')
    .option('--apk <file>', 'the helper APK to install when none is (default: the one `npm run helper:build` made)')
    .option('--no-install', 'use the installed helper only; never install')
    .option('--out <dir>', 'the report folder (default verify-SERIAL-TIME)')
    .option('--model <name>', 'model for the tasks, or "reference" (env PHONE_AGENT_MODEL); none: tasks skipped')
    .option('--base-url <url>', 'OpenAI-compatible endpoint (env OPENAI_BASE_URL)')
    .option('--preset <name>', 'openai | deepseek | qwen | ollama | vllm')
    .option('--max-steps <n>', 'steps per task', '20')
    .option('--runs-dir <dir>', "where the tasks' run folders go (not into the report)", 'runs')
    .option(
      '--state-dir <dir>',
      'where the keyboard to give back is recorded (env PHONE_AGENT_HELPER_STATE)',
      process.env.PHONE_AGENT_HELPER_STATE ?? DEFAULT_HELPER_STATE_DIR,
    )
    .action((f: VerifyFlags) => exitWith('verify-device', {}, () => verifyDevice(f)));
}
