import type { PhoneSurface } from '../../../surface.js';
import { type Command, ok, usage } from '../command.js';

/** `getprop` / `setprop` (system properties) and `settings get|put|list` (the settings provider). */

/** setprop values live until the phone object goes away, like properties until a reboot. */
const overrides = new WeakMap<PhoneSurface, Map<string, string>>();

export function systemProperties(phone: PhoneSurface): Map<string, string> {
  const i = phone.info;
  const s = phone.screen();
  const build = `${i.androidVersion.replace(/\..*$/, '')}`;
  const props = new Map<string, string>([
    ['dalvik.vm.heapsize', '512m'],
    ['init.svc.adbd', 'running'],
    ['init.svc.bootanim', 'stopped'],
    ['persist.sys.locale', 'en-US'],
    ['persist.sys.timezone', 'Etc/UTC'],
    ['ro.boot.serialno', i.serial],
    ['ro.build.characteristics', 'phone'],
    ['ro.build.display.id', `UQ1A.${build}0101.001`],
    [
      'ro.build.fingerprint',
      `${i.manufacturer.toLowerCase()}/${i.product}/${i.device}:${i.androidVersion}/UQ1A.${build}0101.001/1:user/release-keys`,
    ],
    ['ro.build.id', `UQ1A.${build}0101.001`],
    ['ro.build.tags', 'release-keys'],
    ['ro.build.type', 'user'],
    ['ro.build.version.codename', 'REL'],
    ['ro.build.version.release', i.androidVersion],
    ['ro.build.version.sdk', String(i.apiLevel)],
    ['ro.debuggable', '0'],
    ['ro.hardware', i.device],
    ['ro.product.brand', i.manufacturer.toLowerCase()],
    ['ro.product.cpu.abi', 'arm64-v8a'],
    ['ro.product.cpu.abilist', 'arm64-v8a,armeabi-v7a,armeabi'],
    ['ro.product.device', i.device],
    ['ro.product.locale', 'en-US'],
    ['ro.product.manufacturer', i.manufacturer],
    ['ro.product.model', i.model],
    ['ro.product.name', i.product],
    ['ro.secure', '1'],
    ['ro.serialno', i.serial],
    ['ro.sf.lcd_density', String(s.density)],
    ['service.bootanim.exit', '1'],
    ['sys.boot_completed', '1'],
  ]);
  for (const [k, v] of overrides.get(phone) ?? []) props.set(k, v);
  return props;
}

export const getprop: Command = async (ctx) => {
  const props = systemProperties(ctx.phone);
  const key = ctx.argv[1];
  if (key !== undefined) return ok(`${props.get(key) ?? ctx.argv[2] ?? ''}\n`);
  const keys = [...props.keys()].sort();
  return ok(keys.map((k) => `[${k}]: [${props.get(k)}]\n`).join(''));
};

export const setprop: Command = async (ctx) => {
  const [key, value] = ctx.argv.slice(1);
  if (key === undefined || value === undefined)
    return usage('usage: setprop NAME VALUE\n\nSets an Android system property.');
  // Only debug builds let the shell user set ro.* properties.
  if (key.startsWith('ro.'))
    return usage(`Failed to set property '${key}' to '${value}'.\nSee dmesg for error reason.`);
  const map = overrides.get(ctx.phone) ?? new Map<string, string>();
  map.set(key, value);
  overrides.set(ctx.phone, map);
  return ok();
};

const NAMESPACES = new Set(['system', 'secure', 'global']);

/**
 * Settings every phone has a value for, read from the screen: rotation is a number (0..3) on any
 * Android — tools parse it as one — and auto-rotate is off (the virtual phone turns only on request).
 */
function derivedSetting(phone: PhoneSurface, ns: string, key: string): string | undefined {
  if (ns !== 'system') return undefined;
  if (key === 'user_rotation') return String(phone.screen().rotation);
  if (key === 'accelerometer_rotation') return '0';
  return undefined;
}

export const settings: Command = async (ctx) => {
  const args = ctx.argv.slice(1).filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user');
  const [verb, ns, key, value] = args;
  if (!verb || !ns || !NAMESPACES.has(ns)) {
    return usage(
      "usage:  settings [--user <USER_ID> | current] get namespace key\n        settings [--user <USER_ID> | current] put namespace key value\n\n'namespace' is one of {system, secure, global}, case-insensitive\n",
    );
  }
  switch (verb) {
    case 'get':
      if (!key) break;
      return ok(`${derivedSetting(ctx.phone, ns, key) ?? ctx.phone.getSetting(ns, key) ?? 'null'}\n`);
    case 'put':
      if (!key || value === undefined) break;
      ctx.phone.putSetting(ns, key, value);
      return ok();
    case 'delete':
      if (!key) break;
      return ok('Deleted 0 rows\n');
  }
  return usage(`Invalid arguments for settings ${verb}`);
};

/** `svc wifi|data|bluetooth enable|disable`: toggles go through the same settings the phone shows. */
export const svc: Command = async (ctx) => {
  const [what, state] = ctx.argv.slice(1);
  const on = state === 'enable' ? '1' : state === 'disable' ? '0' : undefined;
  if (on === undefined || (what !== 'wifi' && what !== 'bluetooth' && what !== 'data')) {
    return ok(
      'Available commands:\n    help     Show information about the subcommands\n    power    Control the power manager\n    data     Control mobile data connectivity\n    wifi     Control the Wi-Fi manager\n    bluetooth Control Bluetooth service\n',
    );
  }
  if (what !== 'data') ctx.phone.putSetting('global', `${what}_on`, on);
  return ok();
};
