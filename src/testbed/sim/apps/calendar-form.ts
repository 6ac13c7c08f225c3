import type { AppContext, AppScreen } from '../app.js';
import type { View } from '../kit/view.js';
import { calT, DURATIONS, durationLabel, isoDate, parseClockTime, parseIsoDate } from './calendar-text.js';

/**
 * The new-event form: title, date (pre-filled with the day being viewed), start time (HH:MM,
 * 24-hour, as a time picker's keyboard mode takes it), a duration dropdown, Cancel/Save. Save
 * validates and appends to `world.calendar`; nothing is stored before that.
 */

export const EVENT_EDITOR = '.EditEventActivity';

interface Draft {
  title: string;
  date: string;
  time: string;
  durationMin: number;
  durationOpen: boolean;
  error: string;
}

export interface EventForm {
  open(ctx: AppContext, day: number): void;
  reset(): void;
  render(ctx: AppContext): AppScreen;
}

const blank = (day: number): Draft => ({
  title: '',
  date: isoDate(day),
  time: '',
  durationMin: 60,
  durationOpen: false,
  error: '',
});

export function createEventForm(): EventForm {
  let d = blank(0);

  const save = (ctx: AppContext): void => {
    const day = parseIsoDate(d.date);
    const minutes = parseClockTime(d.time);
    if (!d.title.trim()) d.error = calT(ctx, 'badTitle');
    else if (day === undefined) d.error = calT(ctx, 'badDate');
    else if (minutes === undefined) d.error = calT(ctx, 'badTime');
    if (!d.title.trim() || day === undefined || minutes === undefined) return;
    const events = ctx.world.calendar;
    events.push({
      id: events.reduce((m, e) => Math.max(m, e.id), 0) + 1,
      title: d.title.trim(),
      start: day + minutes * 60_000,
      durationMin: d.durationMin,
    });
    ctx.toast(calT(ctx, 'saved'));
    d = blank(day);
    ctx.back();
  };

  const edit = (id: string, value: string, hint: string, set: (v: string) => void): View => ({
    kind: 'edit',
    id,
    value,
    hint,
    onChange: (v) => {
      set(v);
      d.error = '';
    },
  });

  const durationViews = (ctx: AppContext): View[] => {
    const views: View[] = [
      {
        kind: 'row',
        id: 'duration',
        padding: 12,
        background: '#f1f3f4',
        desc: calT(ctx, 'duration'),
        onTap: () => {
          d.durationOpen = !d.durationOpen;
        },
        children: [
          { kind: 'text', id: 'duration_label', text: calT(ctx, 'duration'), weight: 1 },
          { kind: 'text', id: 'duration_value', text: `${durationLabel(ctx, d.durationMin)} ▾`, weight: 1 },
        ],
      },
    ];
    if (!d.durationOpen) return views;
    // The dropdown's popup: one row per choice, the current one in bold.
    views.push({
      kind: 'column',
      id: 'duration_popup',
      background: '#ffffff',
      children: DURATIONS.map((min) => ({
        kind: 'text' as const,
        id: 'duration_option',
        text: durationLabel(ctx, min),
        bold: min === d.durationMin,
        height: 44,
        onTap: () => {
          d.durationMin = min;
          d.durationOpen = false;
        },
      })),
    });
    return views;
  };

  return {
    open(ctx, day) {
      d = blank(day);
      ctx.navigate(EVENT_EDITOR);
    },
    reset() {
      d = blank(0);
    },
    render(ctx) {
      const children: View[] = [
        { kind: 'text', id: 'action_bar_title', text: calT(ctx, 'newEvent'), size: 'title', bold: true, height: 56 },
        edit('title', d.title, calT(ctx, 'title'), (v) => {
          d.title = v;
        }),
        { kind: 'text', id: 'date_header', text: calT(ctx, 'date'), size: 'small', color: '#5f6368' },
        edit('start_date', d.date, calT(ctx, 'date'), (v) => {
          d.date = v;
        }),
        edit('start_time', d.time, calT(ctx, 'startTime'), (v) => {
          d.time = v;
        }),
        ...durationViews(ctx),
      ];
      if (d.error) children.push({ kind: 'text', id: 'error', text: d.error, color: '#c62828' });
      children.push({ kind: 'column', children: [], height: 'fill' });
      children.push({
        kind: 'row',
        gap: 8,
        children: [
          {
            kind: 'button',
            id: 'cancel',
            text: calT(ctx, 'cancel'),
            style: 'secondary',
            onTap: () => {
              d = blank(0);
              ctx.back();
            },
          },
          {
            kind: 'button',
            id: 'save',
            text: calT(ctx, 'save'),
            style: 'primary',
            enabled: d.title.trim() !== '',
            onTap: () => save(ctx),
          },
        ],
      });
      return {
        activity: EVENT_EDITOR,
        title: calT(ctx, 'newEvent'),
        root: { kind: 'column', padding: 16, gap: 12, children },
      };
    },
  };
}
