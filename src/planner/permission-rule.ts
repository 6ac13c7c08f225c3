import type { Element, Observation, WindowInfo } from '../core/types.js';

/**
 * What the interrupt rule may do with a permission prompt (CHANGES, issue 21): granting access is the
 * user's decision, so the rule grants only the narrowest of a one-time or while-in-use grant (or a
 * plain "Allow" where the dialog offers nothing narrower), only to the app the run is working in,
 * and only a permission the task's own words need. Never "always", never a special access (overlay,
 * accessibility, device admin, notification access, all files, usage access, screen capture…).
 * Anything else is handed to the user, the dialog named: the run stops and asks.
 */

/** What the rule knows of the task: the user's sentence and the apps the run has worked in. */
export interface TaskContext {
  goal: string;
  /** Packages the run has acted in or brought to the front by its own actions. */
  taskApps: ReadonlySet<string>;
}

export type PermissionVerdict =
  | { kind: 'grant'; button: Element; part: string; note: string }
  | { kind: 'hand_over'; reason: string };

/** Grants the rule may give, narrowest first; "Always allow" / "Allow all the time" / "始终允许" is never one. */
const GRANTS: readonly { said: string; label: RegExp }[] = [
  {
    said: 'allowed only this time',
    label: /^(only this time|allow (only )?this time|allow once|仅此一次|仅本次允许|本次允许|仅限这一次)$/i,
  },
  {
    said: 'allowed while in use',
    label:
      /^((allow )?(only )?while using (the )?app|使用时允许|使用应用时允许|仅在使用中允许|仅使用期间允许|仅在使用该应用期间允许)$/i,
  },
  // Android's one-button grant (contacts, SMS, calendar…): nothing narrower is on offer.
  { said: 'allowed (the dialog offers no narrower grant)', label: /^(allow|允许)$/i },
];

/** Special accesses: an app gets power over the phone or everything on it. Never granted by rule. */
const SPECIAL_ACCESS: readonly { what: string; words: RegExp }[] = [
  {
    what: 'to display over other apps',
    words: /display over other apps|appear on top|draw over|悬浮窗|显示在其他应用的上层/i,
  },
  { what: 'accessibility access', words: /accessibility|无障碍|辅助功能/i },
  { what: 'device admin access', words: /device admin|administrator app|设备管理/i },
  { what: 'notification access', words: /notification access|read (all )?(your )?notifications|通知使用权|读取通知/i },
  {
    what: 'access to all files',
    words: /access (to )?all files|all files access|manage all files|所有文件的?(访问|管理)/i,
  },
  { what: 'usage access', words: /usage access|access (to )?(your )?usage data|使用情况访问|使用记录访问/i },
  { what: 'to install unknown apps', words: /install unknown apps|安装未知应用/i },
  { what: 'to modify system settings', words: /modify system settings|修改系统设置/i },
  { what: 'Do Not Disturb access', words: /do not disturb access|勿扰权限/i },
  { what: 'a VPN connection', words: /\bVPN\b|connection request/i },
  {
    what: 'to record or cast the screen',
    words: /start recording or casting|record or cast|录制或投射|屏幕录制|投屏/i,
  },
];

/** A dialog asking for a special access, whatever its kind of wording. */
export function isSpecialAccess(text: string): boolean {
  return SPECIAL_ACCESS.some((s) => s.words.test(text));
}

/**
 * Runtime permission groups: how a dialog names one, how the history says it, and the words a goal
 * uses when the task needs it ("Add contact …" needs contacts; "Show … on the map" the location).
 */
const GROUPS: readonly { asked: string; words: RegExp; needs: RegExp }[] = [
  {
    asked: 'for access to your contacts',
    words: /contacts|联系人|通讯录/i,
    needs: /contact|联系人|通讯录/i,
  },
  {
    asked: "for this device's location",
    words: /location|位置|定位/i,
    needs: /location|\bmaps?\b|nearby|near me|directions|navigat|route|where am i|位置|地图|附近|导航|路线|定位/i,
  },
  {
    asked: 'for the camera',
    words: /camera|take pictures|record video|相机|拍照|拍摄|摄像头/i,
    needs: /photo|picture|camera|scan|selfie|video|\bqr\b|拍|扫|相机|照片|视频/i,
  },
  {
    asked: 'for the microphone',
    words: /microphone|record audio|麦克风|录音|录制音频/i,
    needs: /record|voice|audio|microphone|录音|语音|麦克风/i,
  },
  {
    asked: 'for your calendar',
    words: /calendar|日历|日程/i,
    needs: /calendar|event|meeting|appointment|schedule|日历|日程|会议|活动/i,
  },
  {
    asked: 'for your text messages',
    words: /\bSMS\b|text messages|短信/i,
    needs: /\btext\b|\bsms\b|message|短信|信息|验证码/i,
  },
  {
    asked: 'for phone calls',
    words: /phone calls|make and manage|电话|通话/i,
    needs: /\bcall\b|dial|phone|电话|拨打|通话/i,
  },
  {
    asked: 'for your photos, media or files',
    words: /photos|videos|music|audio|files|media|照片|视频|音乐|音频|文件|媒体/i,
    needs: /photo|picture|video|image|music|song|audio|file|download|照片|图片|视频|音乐|文件|下载/i,
  },
  {
    asked: 'to send you notifications',
    words: /notifications|通知/i,
    needs: /notif|remind|alert|timer|alarm|通知|提醒|计时|闹钟/i,
  },
  {
    asked: 'for nearby devices',
    words: /nearby devices|bluetooth|附近的设备|蓝牙/i,
    needs: /bluetooth|nearby|pair|蓝牙|配对|附近/i,
  },
];

function label(e: Element): string {
  return (e.text || e.desc).trim();
}

/** Bilingual buttons ("Only this time · 仅此一次") match when any part does. */
function parts(e: Element): string[] {
  return label(e).split(/\s*[·/|]\s*/);
}

/** "Allow Contacts to access…" / "允许“通讯录”访问…": the app the dialog names. */
function namedApp(text: string): string | undefined {
  return (
    /\ballow\s+(.+?)\s+to\s/i.exec(text)?.[1] ??
    /允许[“"「](.+?)[”"」]/.exec(text)?.[1] ??
    /\b(?:let|should)\s+(.+?)\s+(?:access|send|use)\b/i.exec(text)?.[1]
  );
}

/** The app under the dialog: Android shows a runtime prompt only over the activity that asked. */
function askingPackage(w: WindowInfo, obs: Observation, permissionUi: boolean): string | undefined {
  if (!permissionUi) return w.package;
  const apps = obs.windows.filter((x) => x.type === 'application').sort((a, b) => b.layer - a.layer);
  return apps[0]?.package;
}

function dialogName(asking: string | undefined, text: string): string {
  return namedApp(text) ?? asking ?? 'an app';
}

export interface PermissionInput {
  window: WindowInfo;
  /** The window's elements. */
  elements: Element[];
  obs: Observation;
  /** The window belongs to the permission controller (else an app's own dialog asking). */
  permissionUi: boolean;
  task: TaskContext;
}

/**
 * The verdict on one permission prompt, or undefined when an app's own dialog names no permission
 * this rule knows (an "Allow …?" of the app's: the model reads it like any dialog).
 */
export function judgePermission(input: PermissionInput): PermissionVerdict | undefined {
  const { window: w, elements, obs, permissionUi, task } = input;
  const text = [w.title, ...elements.filter((e) => !e.actionable).map(label)].filter(Boolean).join(' · ');
  const asking = askingPackage(w, obs, permissionUi);
  const app = dialogName(asking, text);
  const buttons = elements.filter((e) => e.actionable && e.flags.enabled);
  const offered = buttons.map((b) => `"${label(b)}"`).join(' / ');
  const handOver = (what: string, why: string): PermissionVerdict => ({
    kind: 'hand_over',
    reason: `${app} asks ${what} (${offered}): ${why}. Granting access is your decision — answer the dialog on the phone, then resume the run`,
  });
  // Judged without the app's own name: "Allow Camera to access this device's location?" asks for the location.
  const about = text.replace(app, '');
  const special = SPECIAL_ACCESS.find((s) => s.words.test(about));
  if (special) return handOver(special.what, 'a special access is never granted by rule');
  const group = GROUPS.find((g) => g.words.test(about));
  if (!group) return permissionUi ? handOver('for a permission', 'the rule cannot tell which one') : undefined;
  const grant = narrowest(buttons);
  if (!grant) return handOver(group.asked, 'only a standing grant is offered');
  if (!asking || !task.taskApps.has(asking)) return handOver(group.asked, 'it is not the app this task is working in');
  if (!group.needs.test(task.goal)) return handOver(group.asked, 'the task does not need it');
  return { kind: 'grant', button: grant.button, part: grant.part, note: `${app} asked ${group.asked}: ${grant.said}` };
}

function narrowest(buttons: Element[]): { button: Element; part: string; said: string } | undefined {
  for (const g of GRANTS)
    for (const button of buttons) {
      const part = parts(button).find((p) => g.label.test(p));
      if (part !== undefined) return { button, part, said: g.said };
    }
  return undefined;
}
