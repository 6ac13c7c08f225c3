import type { PhoneSurface } from '../../../surface.js';
import { type Command, ok } from '../command.js';
import {
  apkPath,
  findPackage,
  fullActivity,
  identityHash,
  isSystemPackage,
  longComponent,
  shortComponent,
  taskId,
} from './component.js';

/**
 * The `dumpsys` sections phone tools parse, in the shape Android 10+ prints them: focus lines of
 * `window`, resumed activity of `activity activities`, launcher filters and versions of `package`,
 * keyboard state of `input_method`, wakefulness of `power`.
 */

function record(phone: PhoneSurface): { activityRecord: string; window: string } | undefined {
  const fg = phone.foreground();
  if (!fg.package) return undefined;
  const id = identityHash(`${fg.package}/${fg.activity}`);
  return {
    activityRecord: `ActivityRecord{${id} u0 ${shortComponent(fg.package, fg.activity)} t${taskId(fg.package)}}`,
    window: `Window{${identityHash(`w:${fg.package}/${fg.activity}`)} u0 ${longComponent(fg.package, fg.activity)}}`,
  };
}

function windowDump(phone: PhoneSurface, section: string | undefined): string {
  const s = phone.screen();
  const r = record(phone);
  const lines: string[] = [];
  if (!section || section === 'displays') {
    lines.push(
      'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
      '  Display: mDisplayId=0 rootTasks=1',
      `    init=${s.width}x${s.height} ${s.density}dpi base=${s.width}x${s.height} ${s.density}dpi cur=${s.width}x${s.height} app=${s.width}x${s.height}`,
      '    deferred=false mLayoutNeeded=false',
      '',
      `  mCurrentFocus=${r ? r.window : 'null'}`,
      `  mFocusedApp=${r ? r.activityRecord : 'null'}`,
    );
  }
  if (!section || section === 'windows') {
    lines.push('WINDOW MANAGER WINDOWS (dumpsys window windows)');
    if (r)
      lines.push(
        `  Window #0 ${r.window}:`,
        '    mDisplayId=0 rootTaskId=1 mSession=Session{} mClient=android.os.BinderProxy',
      );
    lines.push(`  mCurrentFocus=${r ? r.window : 'null'}`, `  mFocusedApp=${r ? r.activityRecord : 'null'}`);
  }
  if (!section || section === 'policy') {
    lines.push(
      'WINDOW MANAGER POLICY STATE (dumpsys window policy)',
      '    mScreenOnEarly=true mScreenOnFully=true',
      '    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true',
      '    mShowingDream=false isKeyguardShowing=false',
      '    KeyguardServiceDelegate',
      '      showing=false',
      '      inputRestricted=false',
      '      KeyguardStateMonitor',
      '        mIsShowing=false',
      '        mSimSecure=false',
      '        mInputRestricted=false',
      '        mCurrentUserId=0',
      `    screenState=SCREEN_STATE_ON`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function activityDump(phone: PhoneSurface): string {
  const r = record(phone);
  const fg = phone.foreground();
  const lines = [
    'ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)',
    'Display #0 (activities from top to bottom):',
  ];
  if (r) {
    lines.push(
      `  * Task{${identityHash(`task:${fg.package}`)} #${taskId(fg.package)} type=standard A=10123:${fg.package} U=0 visible=true visibleRequested=true mode=fullscreen translucent=false sz=1}`,
      `    topResumedActivity=${r.activityRecord}`,
      `    * Hist  #0: ${r.activityRecord}`,
      `      packageName=${fg.package} processName=${fg.package}`,
      `      realActivity=${shortComponent(fg.package, fg.activity)}`,
      '',
    );
  }
  // Android 10+ prints "ResumedActivity:"; older releases printed "mResumedActivity:".
  const label = phone.info.apiLevel >= 29 ? 'ResumedActivity' : 'mResumedActivity';
  lines.push(`  ${label}: ${r ? r.activityRecord : 'null'}`);
  if (phone.info.apiLevel >= 29) lines.push('', `  mFocusedApp=${r ? r.activityRecord : 'null'}`);
  return `${lines.join('\n')}\n`;
}

function packageDump(phone: PhoneSurface, pkg: string): string {
  const p = findPackage(phone, pkg);
  if (!p) return '';
  const launcher = p.activities[0];
  const h = identityHash(pkg);
  const lines = ['Activity Resolver Table:', '  Non-Data Actions:'];
  if (launcher) {
    lines.push(
      '      android.intent.action.MAIN:',
      `        ${identityHash(`${pkg}:main`)} ${shortComponent(pkg, launcher)} filter ${identityHash(`${pkg}:f`)}`,
      '          Action: "android.intent.action.MAIN"',
      '          Category: "android.intent.category.LAUNCHER"',
    );
  }
  const api = phone.info.apiLevel;
  lines.push(
    '',
    'Packages:',
    `  Package [${pkg}] (${h}):`,
    `    userId=${isSystemPackage(pkg) ? 1000 : 10123}`,
    `    pkg=Package{${identityHash(`${pkg}:pkg`)} ${pkg}}`,
    `    codePath=${apkPath(pkg).replace(/\/[^/]+\.apk$/, '')}`,
    `    versionCode=${api} minSdk=24 targetSdk=${api}`,
    `    versionName=1.0`,
    `    flags=[ ${isSystemPackage(pkg) ? 'SYSTEM ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ]`,
    '    timeStamp=2024-01-01 00:00:00',
    '    firstInstallTime=2024-01-01 00:00:00',
    '    lastUpdateTime=2024-01-01 00:00:00',
    '    User 0: ceDataInode=0 installed=true hidden=false suspended=false distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false virtual=false',
    '    Activities:',
    ...p.activities.map((a) => `      ${fullActivity(pkg, a)}`),
  );
  return `${lines.join('\n')}\n`;
}

async function inputMethodDump(phone: PhoneSurface): Promise<string> {
  const cur = phone.imes().find((i) => i.current);
  const tree = await phone.readTree();
  const shown = tree.keyboard.shown;
  return [
    'Current Input Method Manager state:',
    `  mCurMethodId=${cur?.id ?? 'null'}`,
    `  mCurFocusedWindowClient=${shown ? 'ClientState{}' : 'null'}`,
    `  mInputShown=${shown}`,
    `  mIsInputViewShown=${shown}`,
    '',
  ].join('\n');
}

export const dumpsys: Command = async (ctx) => {
  const [service, ...rest] = ctx.argv.slice(1);
  const phone = ctx.phone;
  switch (service) {
    case 'window':
      return ok(windowDump(phone, rest[0]));
    case 'activity': {
      const what = rest[0];
      if (what === undefined || what === 'activities' || what === 'a' || what === 'top') return ok(activityDump(phone));
      return ok(`ACTIVITY MANAGER ${what.toUpperCase()} (dumpsys activity ${what})\n`);
    }
    case 'package':
      return ok(rest[0] ? packageDump(phone, rest[0]) : '');
    case 'input_method':
      return ok(await inputMethodDump(phone));
    case 'power':
      return ok(
        'POWER MANAGER (dumpsys power)\nPower Manager State:\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mHoldingDisplaySuspendBlocker=true\n',
      );
    case 'display':
      return ok(
        `DISPLAY MANAGER (dumpsys display)\n  mScreenState=ON\n  mDefaultDisplayDensity=${phone.screen().density}\n`,
      );
    case undefined:
      return ok([windowDump(phone, undefined), activityDump(phone)].join('\n'));
    default:
      // Unknown services print nothing useful but do not fail, as on a phone.
      return { stdout: '', stderr: `Can't find service: ${service}\n`, code: 0 };
  }
};
