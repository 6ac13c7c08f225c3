import type { AppContext, AppScreen } from '../app.js';
import type { View } from '../kit/view.js';
import type { Alarm } from '../world.js';
import { ct, dayLong, dayShort, hhmm, pad2, repeatSummary, WEEK_ORDER } from './clock-text.js';

/**
 * The alarm editor: a time picker in keyboard mode (hour and minute fields, 24-hour), a label, a
 * row of day-of-week toggle buttons, an on/off switch, and Cancel/Save. Nothing reaches the world
 * until Save, so a cancelled edit leaves the alarms as they were.
 */

export const ALARM_EDITOR = '.AlarmEditActivity';

interface Draft {
  id?: number;
  hour: string;
  minute: string;
  label: string;
  days: number[];
  enabled: boolean;
  error: string;
}

const EMPTY: Draft = { hour: '', minute: '', label: '', days: [], enabled: true, error: '' };

/** "7" → 7; anything but 1–2 digits in range is invalid. */
function parseField(s: string, max: number): number | undefined {
  const t = s.trim();
  if (!/^\d{1,2}$/.test(t)) return undefined;
  const n = Number(t);
  return n <= max ? n : undefined;
}

export interface AlarmEditor {
  /** Open the editor on `alarm` (edit) or a blank new alarm. */
  open(ctx: AppContext, alarm?: Alarm): void;
  reset(): void;
  render(ctx: AppContext): AppScreen;
}

export function createAlarmEditor(): AlarmEditor {
  let d: Draft = { ...EMPTY, days: [] };

  const save = (ctx: AppContext): void => {
    const hour = parseField(d.hour, 23);
    const minute = parseField(d.minute, 59);
    if (hour === undefined || minute === undefined) {
      d.error = ct(ctx, 'badTime');
      return;
    }
    const alarms = ctx.world.alarms;
    const fields = { hour, minute, label: d.label.trim(), days: [...d.days].sort(), enabled: d.enabled };
    const existing = d.id === undefined ? undefined : alarms.find((a) => a.id === d.id);
    if (existing) Object.assign(existing, fields);
    else alarms.push({ id: alarms.reduce((m, a) => Math.max(m, a.id), 0) + 1, ...fields });
    // The clock app's "Alarm set for …" is a long toast (3.5 s), as on Android.
    if (d.enabled)
      ctx.toast(`${ct(ctx, 'alarmSet')} · ${hhmm(hour, minute)} ${repeatSummary(ctx, d.days, hour, minute)}`, 'long');
    d = { ...EMPTY, days: [] };
    ctx.back();
  };

  const dayToggle = (ctx: AppContext, day: number): View => ({
    kind: 'checkbox',
    className: 'android.widget.ToggleButton',
    id: `day_button_${day}`,
    text: dayShort(ctx, day),
    desc: dayLong(ctx, day),
    checked: d.days.includes(day),
    height: 48,
    onToggle: (on) => {
      d.days = on ? [...d.days.filter((x) => x !== day), day] : d.days.filter((x) => x !== day);
    },
  });

  return {
    open(ctx, alarm) {
      d = alarm
        ? {
            id: alarm.id,
            hour: pad2(alarm.hour),
            minute: pad2(alarm.minute),
            label: alarm.label,
            days: [...alarm.days],
            enabled: alarm.enabled,
            error: '',
          }
        : { ...EMPTY, days: [] };
      ctx.navigate(ALARM_EDITOR, alarm ? { alarmId: alarm.id } : {});
    },
    reset() {
      d = { ...EMPTY, days: [] };
    },
    render(ctx) {
      const title = ct(ctx, d.id === undefined ? 'addAlarm' : 'editAlarm');
      const children: View[] = [
        { kind: 'text', id: 'action_bar_title', text: title, size: 'title', bold: true, height: 56 },
        { kind: 'text', id: 'time_header', text: ct(ctx, 'alarmTime'), size: 'small', color: '#5f6368' },
        {
          kind: 'row',
          id: 'time_picker',
          gap: 8,
          children: [
            {
              kind: 'edit',
              id: 'input_hour',
              value: d.hour,
              hint: ct(ctx, 'hour'),
              weight: 3,
              onChange: (v) => {
                d.hour = v;
                d.error = '';
              },
            },
            { kind: 'text', id: 'input_separator', text: ':', size: 'title', align: 'center', weight: 1 },
            {
              kind: 'edit',
              id: 'input_minute',
              value: d.minute,
              hint: ct(ctx, 'minute'),
              weight: 3,
              onChange: (v) => {
                d.minute = v;
                d.error = '';
              },
            },
          ],
        },
        {
          kind: 'edit',
          id: 'edit_label',
          value: d.label,
          hint: ct(ctx, 'label'),
          onChange: (v) => {
            d.label = v;
          },
        },
        { kind: 'text', id: 'repeat_title', text: ct(ctx, 'repeat'), size: 'small', color: '#5f6368' },
        // Two rows of day toggles: seven in one row leave no room for a label beside each box.
        { kind: 'row', id: 'repeat_days', gap: 4, children: WEEK_ORDER.slice(0, 4).map((day) => dayToggle(ctx, day)) },
        {
          kind: 'row',
          id: 'repeat_days_weekend',
          gap: 4,
          children: [...WEEK_ORDER.slice(4).map((day) => dayToggle(ctx, day)), { kind: 'column', children: [] }],
        },
        {
          kind: 'switch',
          id: 'onoff',
          text: ct(ctx, 'enabled'),
          checked: d.enabled,
          onToggle: (v) => {
            d.enabled = v;
          },
        },
      ];
      if (d.error) children.push({ kind: 'text', id: 'error', text: d.error, color: '#c62828' });
      children.push({ kind: 'column', children: [], height: 'fill' });
      if (d.id !== undefined) {
        const id = d.id;
        children.push({
          kind: 'button',
          id: 'delete',
          text: ct(ctx, 'delete'),
          style: 'flat',
          onTap: () => {
            ctx.world.alarms = ctx.world.alarms.filter((a) => a.id !== id);
            d = { ...EMPTY, days: [] };
            ctx.back();
          },
        });
      }
      children.push({
        kind: 'row',
        gap: 8,
        children: [
          {
            kind: 'button',
            id: 'cancel',
            text: ct(ctx, 'cancel'),
            style: 'secondary',
            onTap: () => {
              d = { ...EMPTY, days: [] };
              ctx.back();
            },
          },
          {
            kind: 'button',
            id: 'save',
            text: ct(ctx, 'save'),
            style: 'primary',
            enabled: d.hour.trim() !== '' && d.minute.trim() !== '',
            onTap: () => save(ctx),
          },
        ],
      });
      return { activity: ALARM_EDITOR, title, root: { kind: 'column', padding: 16, gap: 12, children } };
    },
  };
}
