import { HELPER_PACKAGE } from '../../../../../device/protocol/transport.js';
import { homeApp, launcherApps } from '../../../launcher-apps.js';
import { apkPackage } from '../../apk.js';
import { type Command, type CommandContext, type CommandResult, ok, usage } from '../command.js';
import { apkPath, findPackage, fullActivity, isSystemPackage, shortComponent } from './component.js';

/** `pm list|path|clear|grant|revoke|resolve-activity` and `cmd package|wifi|bluetooth_manager …`. */

function listPackages(ctx: CommandContext, args: string[]): CommandResult {
  let third = false;
  let system = false;
  let showPath = false;
  let showVersion = false;
  let filter: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-3') third = true;
    else if (a === '-s') system = true;
    else if (a === '-f') showPath = true;
    else if (a === '--show-versioncode') showVersion = true;
    else if (a === '--user') i++;
    else if (!a.startsWith('-')) filter = a;
  }
  const lines = ctx.phone
    .packages()
    .map((p) => p.package)
    .filter((p) => (!third || !isSystemPackage(p)) && (!system || isSystemPackage(p)))
    .filter((p) => !filter || p.includes(filter))
    .sort()
    .map((p) => {
      const name = showPath ? `${apkPath(p)}=${p}` : p;
      // dumpsys package reports versionCode = the API level for every virtual app.
      return `package:${name}${showVersion ? ` versionCode:${ctx.phone.info.apiLevel}` : ''}\n`;
    });
  return ok(lines.join(''));
}

/**
/**
 * `pm install FILE`: the file must be an APK (a zip with a binary AndroidManifest.xml). The helper app
 * (recognized by its package) installs its accessibility service and input method; any other APK
 * becomes an inert package that `pm list packages` shows and that never runs.
 */
function install(ctx: CommandContext, rest: string[]): CommandResult {
  const file = rest.filter((a) => !a.startsWith('-')).pop();
  const data = file ? ctx.phone.readFile(file) : undefined;
  if (!file || data === undefined) {
    return {
      stderr: `Error: Unable to open file: ${file ?? ''}\nConsider using a file under /data/local/tmp/\n`,
      code: 1,
    };
  }
  const pkg = apkPackage(data);
  if (!pkg) return { stdout: `Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${file}: not an APK]\n`, code: 1 };
  if (findPackage(ctx.phone, pkg) && !ctx.phone.installedPackages().includes(pkg))
    return {
      stdout: `Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: ${pkg} is a built-in app of the virtual phone]\n`,
      code: 1,
    };
  ctx.phone.installPackage(pkg, pkg === HELPER_PACKAGE ? 'phone-agent helper' : pkg);
  return ok('Success\n');
}

function packageCommand(ctx: CommandContext, sub: string | undefined, rest: string[]): CommandResult {
  const pkg = rest.filter((a) => !a.startsWith('-')).pop();
  switch (sub) {
    case 'list':
      if (rest[0] === 'packages') return listPackages(ctx, rest.slice(1));
      break;
    case 'path':
      if (!pkg || !findPackage(ctx.phone, pkg)) return { code: 1 };
      return ok(`package:${apkPath(pkg)}\n`);
    case 'clear':
      return ok(pkg && findPackage(ctx.phone, pkg) ? 'Success\n' : 'Failed\n');
    case 'grant':
    case 'revoke':
      return ok();
    case 'install':
      return install(ctx, rest);
    case 'uninstall': {
      // Only packages installed over adb can be removed; built-in apps stay, as system apps do.
      if (!pkg) return usage('usage: pm uninstall [-k] [--user USER_ID] PACKAGE', 1);
      return ctx.phone.uninstallPackage(pkg)
        ? ok('Success\n')
        : { stdout: 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n', code: 1 };
    }
    case 'query-activities':
      return queryActivities(ctx, rest);
    case 'resolve-activity': {
      const p = pkg ? findPackage(ctx.phone, pkg) : undefined;
      const act = p?.activities[0];
      if (!p || !act) return ok('No activity found\n');
      if (rest.includes('--brief')) {
        return ok(
          `priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n${shortComponent(p.package, act)}\n`,
        );
      }
      return ok(`Activity:\n  name=${shortComponent(p.package, act)}\n  packageName=${p.package}\n`);
    }
  }
  return usage(
    'Package manager (package) commands:\n  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [FILTER]\n  path [--user USER_ID] PACKAGE\n  resolve-activity [--brief] PACKAGE\n  query-activities [--brief] [--components] [-a ACTION] [-c CATEGORY] [PACKAGE]\n',
    255,
  );
}

/**
 * `query-activities` as PackageManagerShellCommand prints it, for the intents tools ask about: a
 * launcher query (MAIN + LAUNCHER) lists every app's first activity (not the home screen itself,
 * which is HOME); a HOME query lists the launcher. `-p PKG` or a trailing package narrows it.
 */
function queryActivities(ctx: CommandContext, rest: string[]): CommandResult {
  const opt = (flag: string): string | undefined => {
    const i = rest.indexOf(flag);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const category = opt('-c');
  const action = opt('-a') ?? 'android.intent.action.MAIN';
  const valued = new Set(['-a', '-c', '-p', '--user', '-d', '-t', '-n', '-f']);
  const bare = rest.filter((a, i) => !a.startsWith('-') && !valued.has(rest[i - 1] ?? ''));
  const only = opt('-p') ?? bare[bare.length - 1];
  const home = category === 'android.intent.category.HOME';
  const found =
    action !== 'android.intent.action.MAIN'
      ? []
      : (home ? homeApp(ctx.phone) : launcherApps(ctx.phone))
          .filter((p) => !only || p.package === only)
          .map((p) => ({ pkg: p.package, activity: p.activity }));
  if (found.length === 0) return ok('No activities found\n');
  if (rest.includes('--components')) return ok(found.map((f) => `${shortComponent(f.pkg, f.activity)}\n`).join(''));
  const brief = rest.includes('--brief');
  const lines = [`${found.length} activities found:`];
  found.forEach((f, i) => {
    lines.push(`  Activity #${i}:`);
    lines.push('    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false');
    if (brief) {
      lines.push(`    ${shortComponent(f.pkg, f.activity)}`);
      return;
    }
    lines.push('    ActivityInfo:');
    lines.push(`      name=${fullActivity(f.pkg, f.activity)}`);
    lines.push(`      packageName=${f.pkg}`);
    lines.push('      enabled=true exported=true directBootAware=false');
    lines.push(`      taskAffinity=${f.pkg} targetActivity=null persistableMode=PERSIST_ROOT_ONLY`);
    lines.push('      launchMode=0 flags=0x3 privateFlags=0x0 theme=0x0');
    lines.push('      screenOrientation=-1 configChanges=0x0 softInputMode=0x0');
    lines.push('      ApplicationInfo:');
    lines.push(`        packageName=${f.pkg}`);
    lines.push(`        processName=${f.pkg}`);
    lines.push(`        sourceDir=${apkPath(f.pkg)}`);
    lines.push(`        enabled=true minSdkVersion=26 targetSdkVersion=${ctx.phone.info.apiLevel}`);
  });
  return ok(`${lines.join('\n')}\n`);
}

export const pm: Command = async (ctx) => {
  const [sub, ...rest] = ctx.argv.slice(1);
  return packageCommand(ctx, sub, rest);
};

/** Android's `cmd SERVICE …` front door, for the services phone tools call through it. */
export const cmd: Command = async (ctx) => {
  const args = ctx.argv.slice(1).filter((a) => a !== '-w');
  const [service, sub, ...rest] = args;
  switch (service) {
    case 'package':
      return packageCommand(ctx, sub, rest);
    case 'wifi':
      if (sub === 'set-wifi-enabled' && (rest[0] === 'enabled' || rest[0] === 'disabled')) {
        ctx.phone.putSetting('global', 'wifi_on', rest[0] === 'enabled' ? '1' : '0');
        return ok();
      }
      if (sub === 'status') {
        return ok(ctx.phone.getSetting('global', 'wifi_on') === '1' ? 'Wifi is enabled\n' : 'Wifi is disabled\n');
      }
      break;
    case 'bluetooth_manager':
      if (sub === 'enable' || sub === 'disable') {
        ctx.phone.putSetting('global', 'bluetooth_on', sub === 'enable' ? '1' : '0');
        return ok();
      }
      break;
    case 'input_method':
      return ctx.run(['ime', sub, ...rest].filter((x) => x !== undefined).join(' '));
    case undefined:
      return usage(
        'cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.',
        255,
      );
    default:
      return { stderr: `cmd: Can't find service: ${service}\n`, code: 20 };
  }
  return usage(`cmd ${service}: unsupported arguments: ${[sub, ...rest].join(' ')}`, 255);
};
