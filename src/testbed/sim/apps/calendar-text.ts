import type { AppContext } from '../app.js';

/**
 * Calendar's strings (en/zh) and day arithmetic. Days are UTC days on the phone's clock (the status
 * bar shows UTC), identified by the epoch ms of their midnight.
 */

export const CALENDAR_PACKAGE = 'com.android.calendar';

export const CAL_T = {
  app: ['Calendar', '日历'],
  today: ['Today', '今天'],
  prevDay: ['Previous day', '前一天'],
  nextDay: ['Next day', '后一天'],
  newEvent: ['New event', '新建活动'],
  noEvents: ['No events', '没有活动'],
  title: ['Title', '标题'],
  date: ['Date (YYYY-MM-DD)', '日期（YYYY-MM-DD）'],
  startTime: ['Start time', '开始时间'],
  duration: ['Duration', '时长'],
  save: ['Save', '保存'],
  cancel: ['Cancel', '取消'],
  delete: ['Delete', '删除'],
  deleteAsk: ['Delete this event?', '要删除此活动吗？'],
  badTitle: ['Add a title', '请输入标题'],
  badDate: ['Enter the date as YYYY-MM-DD', '请按 YYYY-MM-DD 输入日期'],
  badTime: ['Enter the start time as HH:MM (24-hour)', '请按 HH:MM（24小时制）输入开始时间'],
  saved: ['Event saved', '活动已保存'],
} as const;

export function calT(ctx: AppContext, k: keyof typeof CAL_T): string {
  return CAL_T[k][ctx.locale === 'zh' ? 1 : 0];
}

export const DAY_MS = 86_400_000;

/** Midnight (UTC) of the day `at` falls in. */
export function dayStart(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** "2023-11-15" for the day starting at `day`. */
export function isoDate(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}

/** "2023-11-15" → that day's midnight, or undefined for anything else. */
export function parseIsoDate(s: string): number | undefined {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s.trim());
  if (!m) return undefined;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(t);
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? t : undefined;
}

/** "9:00", "09:00", "9" → minutes after midnight; undefined if not a 24-hour time. */
export function parseClockTime(s: string): number | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?$/.exec(s.trim());
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  return h <= 23 && min <= 59 ? h * 60 + min : undefined;
}

/** The day header: "Wed, Nov 15, 2023" / "2023年11月15日周三". */
export function dayHeader(ctx: AppContext, day: number): string {
  return new Date(day).toLocaleDateString(ctx.locale === 'zh' ? 'zh-CN' : 'en-US', {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

export function durationLabel(ctx: AppContext, min: number): string {
  return ctx.locale === 'zh' ? `${min} 分钟` : `${min} minutes`;
}

/** Durations offered by the form's dropdown (Google Calendar's default-duration choices). */
export const DURATIONS = [15, 30, 45, 60, 90, 120] as const;
