import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { ActionableError } from '../../core/errors.js';
import { AdbCli } from '../../device/helper-app/adb-cli.js';
import { HelperApp } from '../../device/helper-app/helper-app.js';
import { DEFAULT_HELPER_STATE_DIR, readImeRecord } from '../../device/helper-app/ime-state.js';
import { HELPER_IME } from '../../device/protocol/transport.js';
import { adbServerFlags } from '../probe.js';
import { exitWith } from './run.js';

/**
 * `phone-agent helper install|status|uninstall --device SERIAL`: put the on-device helper
 * (helper/android) on a phone over adb, see whether it is usable, and take it off again with the
 * user's keyboard given back. The token is read into memory only and never printed.
 */

interface HelperFlags {
  device?: string;
  apk?: string;
  adbHost: string;
  adbPort: string;
  stateDir: string;
}

/** The APK `npm run helper:build` makes, relative to this package (src/ and dist/ alike). */
export const DEFAULT_APK = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'helper',
  'android',
  'build',
  'phone-agent-helper.apk',
);

function app(f: HelperFlags): HelperApp {
  if (!f.device)
    throw new ActionableError(
      'USAGE',
      'phone-agent helper needs --device SERIAL',
      'pass the serial `adb devices` shows',
    );
  return new HelperApp(new AdbCli({ serial: f.device, host: f.adbHost, port: Number(f.adbPort) }), f.stateDir);
}

const say = (line: string) => process.stdout.write(`${line}\n`);

async function install(f: HelperFlags): Promise<number> {
  const a = app(f);
  const apk = await helperApk(f.apk);
  const r = await a.setUp(apk, say);
  if (!r.ok) throw new ActionableError('DEVICE', r.message, 'fix that and run `phone-agent helper install` again');
  const hello = r.endpoint.hello;
  say(
    `healthy: protocol ${hello.protocol}, helper ${hello.helperVersion}, API ${hello.apiLevel}, ${hello.device.manufacturer} ${hello.device.model}, ${hello.capabilities.length} capabilities`,
  );
  say(
    `use it: phone-agent run "…" --device ${a.serial}   (the helper keyboard is switched in per run and your keyboard given back)`,
  );
  return 0;
}

/** The APK to install (default: the one `npm run helper:build` made), or an error saying how to get one. */
export async function helperApk(given?: string): Promise<string> {
  const apk = path.resolve(given ?? DEFAULT_APK);
  await access(apk).catch(() => {
    throw new ActionableError(
      'USAGE',
      `no helper APK at ${apk}`,
      'build it with `npm run helper:build` (or pass --apk FILE)',
    );
  });
  return apk;
}

async function status(f: HelperFlags): Promise<number> {
  const a = app(f);
  const recovered = await a.recoverIme();
  if (recovered?.ok) say(`${recovered.detail} (left over from an agent that did not finish)`);
  const installed = await a.installed();
  say(`installed: ${installed ? 'yes' : 'no'}`);
  if (!installed) return 1;
  say(`accessibility service: ${(await a.serviceEnabled()) ? 'enabled' : 'off'}`);
  const ime = await a.currentIme();
  say(`keyboard: ${ime}${ime === HELPER_IME ? ' (the helper keyboard)' : ''}`);
  const rec = await readImeRecord(f.stateDir, a.serial);
  if (rec) say(`keyboard to give back: ${rec.previous} (recorded by pid ${rec.pid})`);
  const d = await a.discover();
  if (!d.ok) {
    say(`helper: not usable — ${d.reason}`);
    return 1;
  }
  const h = d.endpoint.hello;
  say(
    `helper: healthy at ${d.endpoint.url}, protocol ${h.protocol}, API ${h.apiLevel}, capabilities ${h.capabilities.join(' ')}`,
  );
  return 0;
}

async function uninstall(f: HelperFlags): Promise<number> {
  const a = app(f);
  const restored = await a.restoreIme();
  say(restored.ok ? restored.detail : `warning: ${restored.message}`);
  if ((await a.currentIme()) === HELPER_IME) {
    // No record (installed elsewhere): fall back to the first other enabled keyboard.
    const other = (await a.adb.shell(['ime', 'list', '-s'])).stdout
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && l !== HELPER_IME);
    if (other) {
      await a.adb.shell(['ime', 'set', other]);
      say(`keyboard set to ${other}`);
    }
  }
  await a.disableService();
  await a.disableIme();
  await a.removeForward();
  const r = await a.uninstallPackage();
  say(r.ok ? 'helper uninstalled' : `warning: ${r.message}`);
  return r.ok ? 0 : 1;
}

export function register(program: Command): void {
  const helper = program.command('helper').description('Install, check or remove the on-device helper app over adb');
  const common = (c: Command) =>
    adbServerFlags(c)
      .option('--device <serial>', 'the phone, as `adb devices` lists it')
      .option(
        '--state-dir <dir>',
        'where the keyboard to give back is recorded (env PHONE_AGENT_HELPER_STATE)',
        process.env.PHONE_AGENT_HELPER_STATE ?? DEFAULT_HELPER_STATE_DIR,
      );
  common(
    helper.command('install').description('install the APK, enable its service and keyboard, forward and check it'),
  )
    .option('--apk <file>', 'the helper APK (default: the one `npm run helper:build` made)')
    .action((f: HelperFlags) => exitWith('helper install', {}, () => install(f)));
  common(helper.command('status').description('is the helper installed, enabled and answering?')).action(
    (f: HelperFlags) => exitWith('helper status', {}, () => status(f)),
  );
  common(helper.command('uninstall').description('give the keyboard back, disable and remove the helper')).action(
    (f: HelperFlags) => exitWith('helper uninstall', {}, () => uninstall(f)),
  );
}
