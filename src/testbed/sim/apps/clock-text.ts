import type { AppContext } from '../app.js';

/**
 * Clock's strings (en/zh) and the time formatting its screens share. Times are the phone's clock in
 * UTC, as the status bar shows them; weekdays are 0=Sun..6=Sat as `Date.getUTCDay()` returns them.
 */

export const CLOCK_PACKAGE = 'com.android.deskclock';

export const CLOCK_T = {
  app: ['Clock', '时钟'],
  alarm: ['Alarm', '闹钟'],
  clock: ['Clock', '时钟'],
  timer: ['Timer', '计时器'],
  stopwatch: ['Stopwatch', '秒表'],
  addAlarm: ['Add alarm', '添加闹钟'],
  editAlarm: ['Edit alarm', '编辑闹钟'],
  noAlarms: ['No alarms', '没有闹钟'],
  alarmTime: ['Alarm time (24-hour)', '闹钟时间（24小时制）'],
  hour: ['Hour', '小时'],
  minute: ['Minute', '分钟'],
  label: ['Label', '标签'],
  repeat: ['Repeat', '重复'],
  enabled: ['Alarm on', '开启闹钟'],
  save: ['Save', '保存'],
  cancel: ['Cancel', '取消'],
  delete: ['Delete', '删除'],
  badTime: ['Enter an hour 0–23 and a minute 0–59', '请输入 0–23 时和 0–59 分'],
  once: ['Not scheduled', '只响一次'],
  today: ['Today', '今天'],
  tomorrow: ['Tomorrow', '明天'],
  everyDay: ['Every day', '每天'],
  weekdays: ['Mon–Fri', '周一至周五'],
  alarmSet: ['Alarm set', '闹钟已设置'],
  hours: ['Hours', '小时'],
  minutes: ['Minutes', '分钟'],
  seconds: ['Seconds', '秒'],
  start: ['Start', '开始'],
  pause: ['Pause', '暂停'],
  reset: ['Reset', '重置'],
  running: ['Timer running', '计时中'],
  timesUp: ["Time's up", '时间到'],
  utc: ['Coordinated Universal Time', '协调世界时'],
  lap: ['Lap', '计次'],
} as const;

export type ClockKey = keyof typeof CLOCK_T;

export function ct(ctx: AppContext, k: ClockKey): string {
  return CLOCK_T[k][ctx.locale === 'zh' ? 1 : 0];
}

/** Short weekday names, index 0=Sun. */
const DAY_SHORT = [
  ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  ['周日', '周一', '周二', '周三', '周四', '周五', '周六'],
] as const;
const DAY_LONG = [
  ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'],
] as const;

/** The editor's toggle order: Monday first, as the week starts in most of the world. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

export function dayShort(ctx: AppContext, d: number): string {
  return DAY_SHORT[ctx.locale === 'zh' ? 1 : 0][d] ?? '';
}

export function dayLong(ctx: AppContext, d: number): string {
  return DAY_LONG[ctx.locale === 'zh' ? 1 : 0][d] ?? '';
}

export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

export function hhmm(hour: number, minute: number): string {
  return `${pad2(hour)}:${pad2(minute)}`;
}

/** "Mon–Fri", "Every day", "Sat, Sun" or, for a one-off alarm, when it rings next. */
export function repeatSummary(ctx: AppContext, days: number[], hour: number, minute: number): string {
  const set = [...new Set(days)].sort();
  if (set.length === 7) return ct(ctx, 'everyDay');
  if (set.join() === '1,2,3,4,5') return ct(ctx, 'weekdays');
  if (set.length)
    return WEEK_ORDER.filter((d) => set.includes(d))
      .map((d) => dayShort(ctx, d))
      .join(', ');
  const now = new Date(ctx.clock.now());
  const later = hour * 60 + minute > now.getUTCHours() * 60 + now.getUTCMinutes();
  return ct(ctx, later ? 'today' : 'tomorrow');
}

/** 3725 → "01:02:05". */
export function hms(totalSec: number): string {
  const s = Math.max(0, Math.round(totalSec));
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}:${pad2(s % 60)}`;
}
