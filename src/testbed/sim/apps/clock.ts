import type { App, AppContext, AppScreen } from '../app.js';
import type { View } from '../kit/view.js';
import type { Alarm, World } from '../world.js';
import { ALARM_EDITOR, createAlarmEditor } from './clock-alarm-editor.js';
import { CLOCK_PACKAGE, type ClockKey, ct, hhmm, hms, repeatSummary } from './clock-text.js';
import { createTimerTab } from './clock-timer.js';

/**
 * Clock (com.android.deskclock): one activity with bottom tabs (Alarm, Clock, Timer, Stopwatch) as
 * the Pixel clock has, an alarm list with on/off switches and an "Add alarm" button that opens the
 * alarm editor, and the timer (clock-timer.ts). Alarms and the timer live in the world.
 */

export { CLOCK_PACKAGE };

type Tab = 'alarm' | 'clock' | 'timer' | 'stopwatch';
const TABS: [Tab, ClockKey][] = [
  ['alarm', 'alarm'],
  ['clock', 'clock'],
  ['timer', 'timer'],
  ['stopwatch', 'stopwatch'],
];

/** Two alarms a phone owner might already have: a weekday alarm that is off and a weekend one. */
function seedAlarms(world: World, random: () => number): void {
  const early = 5 + Math.floor(random() * 3);
  world.alarms.push(
    { id: 1, hour: early, minute: 30, label: '', days: [1, 2, 3, 4, 5], enabled: false },
    { id: 2, hour: 9, minute: 0, label: 'Weekend', days: [0, 6], enabled: true },
  );
}

export function createClockApp(): App {
  let tab: Tab = 'alarm';
  /** Stopwatch: accumulated ms and the clock time it was last started at (undefined = stopped). */
  let swElapsed = 0;
  let swStarted: number | undefined;
  const editor = createAlarmEditor();
  const timer = createTimerTab();

  const alarmRow = (ctx: AppContext, a: Alarm): View => ({
    kind: 'row',
    id: 'alarm_item',
    padding: 12,
    gap: 8,
    background: '#f1f3f4',
    onTap: () => editor.open(ctx, a),
    children: [
      {
        kind: 'column',
        weight: 3,
        children: [
          { kind: 'text', id: 'digital_clock', text: hhmm(a.hour, a.minute), size: 'title', bold: a.enabled },
          {
            kind: 'text',
            id: 'label',
            text: [a.label, repeatSummary(ctx, a.days, a.hour, a.minute)].filter(Boolean).join(' · '),
            size: 'small',
            color: '#5f6368',
          },
        ],
      },
      {
        kind: 'switch',
        id: 'onoff',
        text: '',
        desc: `${hhmm(a.hour, a.minute)} ${a.label}`.trim(),
        checked: a.enabled,
        weight: 1,
        onToggle: (v) => {
          a.enabled = v;
        },
      },
    ],
  });

  const alarmTab = (ctx: AppContext): View[] => {
    const alarms = [...ctx.world.alarms].sort((a, b) => a.hour * 60 + a.minute - (b.hour * 60 + b.minute));
    const rows = alarms.map((a) => alarmRow(ctx, a));
    if (!rows.length) rows.push({ kind: 'text', id: 'alarms_empty_view', text: ct(ctx, 'noAlarms'), align: 'center' });
    return [
      { kind: 'list', id: 'alarm_recycler_view', height: 'fill', gap: 8, children: rows },
      {
        kind: 'button',
        id: 'fab',
        text: ct(ctx, 'addAlarm'),
        desc: ct(ctx, 'addAlarm'),
        style: 'primary',
        onTap: () => editor.open(ctx),
      },
    ];
  };

  const clockTab = (ctx: AppContext): View[] => {
    const now = new Date(ctx.clock.now());
    const date = now.toLocaleDateString(ctx.locale === 'zh' ? 'zh-CN' : 'en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    return [
      {
        kind: 'text',
        id: 'digital_clock',
        text: hhmm(now.getUTCHours(), now.getUTCMinutes()),
        size: 'title',
        bold: true,
        align: 'center',
        height: 96,
      },
      { kind: 'text', id: 'date', text: date, align: 'center' },
      { kind: 'text', id: 'timezone', text: ct(ctx, 'utc'), size: 'small', color: '#5f6368', align: 'center' },
      { kind: 'column', children: [], height: 'fill' },
    ];
  };

  const stopwatchTab = (ctx: AppContext): View[] => {
    const now = ctx.clock.now();
    const elapsed = swElapsed + (swStarted === undefined ? 0 : now - swStarted);
    return [
      {
        kind: 'text',
        id: 'stopwatch_time_text',
        text: `${hms(elapsed / 1000)}.${String(Math.floor((elapsed % 1000) / 10)).padStart(2, '0')}`,
        size: 'title',
        bold: true,
        align: 'center',
        height: 96,
      },
      { kind: 'column', children: [], height: 'fill' },
      {
        kind: 'row',
        gap: 8,
        children: [
          {
            kind: 'button',
            id: 'reset',
            text: ct(ctx, 'reset'),
            style: 'secondary',
            enabled: swStarted === undefined && swElapsed > 0,
            onTap: () => {
              swElapsed = 0;
            },
          },
          {
            kind: 'button',
            id: 'fab',
            text: ct(ctx, swStarted === undefined ? 'start' : 'pause'),
            style: 'primary',
            onTap: () => {
              if (swStarted === undefined) swStarted = ctx.clock.now();
              else {
                swElapsed += ctx.clock.now() - swStarted;
                swStarted = undefined;
              }
            },
          },
        ],
      },
    ];
  };

  const main = (ctx: AppContext): AppScreen => {
    const body =
      tab === 'timer'
        ? timer.render(ctx)
        : tab === 'clock'
          ? clockTab(ctx)
          : tab === 'stopwatch'
            ? stopwatchTab(ctx)
            : alarmTab(ctx);
    const tabs: View = {
      kind: 'row',
      id: 'tabs',
      height: 64,
      background: '#e8f0fe',
      children: TABS.map(([t, key]) => ({
        kind: 'button' as const,
        id: `tab_menu_${t}`,
        text: ct(ctx, key),
        desc: ct(ctx, key),
        style: t === tab ? ('primary' as const) : ('flat' as const),
        onTap: () => {
          tab = t;
        },
      })),
    };
    const title = ct(ctx, TABS.find(([t]) => t === tab)?.[1] ?? 'alarm');
    return {
      activity: '.DeskClock',
      title,
      root: {
        kind: 'column',
        children: [
          {
            kind: 'column',
            padding: 16,
            children: [{ kind: 'text', id: 'action_bar_title', text: title, size: 'title', bold: true, height: 48 }],
          },
          { kind: 'column', padding: 12, gap: 12, height: 'fill', children: body },
          tabs,
        ],
      },
    };
  };

  return {
    package: CLOCK_PACKAGE,
    label: 'Clock',
    labelZh: '时钟',
    iconColor: '#1a73e8',
    glyph: 'C',
    activities: ['.DeskClock', ALARM_EDITOR],
    seedWorld: seedAlarms,
    onLaunch() {
      tab = 'alarm';
      editor.reset();
      timer.reset();
    },
    render(route, ctx) {
      return route.activity === ALARM_EDITOR ? editor.render(ctx) : main(ctx);
    },
  };
}
