import type { App, AppContext, AppScreen, Route } from '../app.js';
import type { View } from '../kit/view.js';
import { type CalendarEvent, recordEvent } from '../world.js';
import { createEventForm, EVENT_EDITOR } from './calendar-form.js';
import { CALENDAR_PACKAGE, calT, DAY_MS, dayHeader, dayStart, durationLabel } from './calendar-text.js';

/**
 * Calendar (com.android.calendar): a day view that opens on today, with previous/next-day arrows,
 * a Today button, the day's events and a "New event" button that opens the form (calendar-form.ts)
 * pre-filled with the day being viewed — so "tomorrow" is one tap on Next day, as on a phone.
 * Tapping an event shows its details; Delete asks first and records a 'deleted' event.
 */

export { CALENDAR_PACKAGE };

const EVENT_INFO = '.EventInfoActivity';

function timeOf(at: number): string {
  return new Date(at).toISOString().slice(11, 16);
}

export function createCalendarApp(): App {
  /** Offset in days from today of the day shown. */
  let offset = 0;
  const form = createEventForm();

  const eventRow = (ctx: AppContext, e: CalendarEvent): View => ({
    kind: 'column',
    id: 'event_item',
    padding: 12,
    background: '#e8f0fe',
    onTap: () => ctx.navigate(EVENT_INFO, { eventId: e.id }),
    children: [
      { kind: 'text', id: 'event_title', text: e.title, bold: true },
      {
        kind: 'text',
        id: 'event_time',
        text: `${timeOf(e.start)} – ${timeOf(e.start + e.durationMin * 60_000)} · ${durationLabel(ctx, e.durationMin)}`,
        size: 'small',
        color: '#5f6368',
      },
    ],
  });

  const dayView = (ctx: AppContext): AppScreen => {
    const day = dayStart(ctx.clock.now()) + offset * DAY_MS;
    const events = ctx.world.calendar
      .filter((e) => e.start >= day && e.start < day + DAY_MS)
      .sort((a, b) => a.start - b.start);
    const rows = events.map((e) => eventRow(ctx, e));
    if (!rows.length) rows.push({ kind: 'text', id: 'empty', text: calT(ctx, 'noEvents'), align: 'center' });
    const arrow = (id: string, glyph: string, label: 'prevDay' | 'nextDay', delta: number): View => ({
      kind: 'image',
      className: 'android.widget.ImageButton',
      id,
      glyph,
      color: '#ffffff',
      desc: calT(ctx, label),
      height: 48,
      weight: 1,
      onTap: () => {
        offset += delta;
      },
    });
    return {
      activity: '.AllInOneActivity',
      title: calT(ctx, 'app'),
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          {
            kind: 'row',
            id: 'toolbar',
            height: 56,
            children: [
              { kind: 'text', id: 'action_bar_title', text: calT(ctx, 'app'), size: 'title', bold: true, weight: 3 },
              {
                kind: 'button',
                id: 'action_today',
                text: calT(ctx, 'today'),
                style: 'secondary',
                weight: 2,
                onTap: () => {
                  offset = 0;
                },
              },
            ],
          },
          {
            kind: 'row',
            id: 'date_bar',
            gap: 4,
            children: [
              arrow('prev_day', '‹', 'prevDay', -1),
              { kind: 'text', id: 'date_title', text: dayHeader(ctx, day), align: 'center', bold: true, weight: 4 },
              arrow('next_day', '›', 'nextDay', 1),
            ],
          },
          { kind: 'list', id: 'events_list', height: 'fill', gap: 8, children: rows },
          {
            kind: 'button',
            id: 'floating_action_button',
            text: calT(ctx, 'newEvent'),
            desc: calT(ctx, 'newEvent'),
            style: 'primary',
            onTap: () => form.open(ctx, day),
          },
        ],
      },
    };
  };

  const infoScreen = (ctx: AppContext, route: Route): AppScreen => {
    const e = ctx.world.calendar.find((x) => x.id === Number(route.params.eventId));
    if (!e) return dayView(ctx);
    const remove = (): void => {
      ctx.world.calendar = ctx.world.calendar.filter((x) => x.id !== e.id);
      recordEvent(ctx.world, {
        kind: 'deleted',
        app: CALENDAR_PACKAGE,
        at: ctx.clock.now(),
        detail: { event: e.id, title: e.title },
      });
      ctx.closeDialog();
      ctx.back();
    };
    return {
      activity: EVENT_INFO,
      title: e.title,
      root: {
        kind: 'column',
        padding: 16,
        gap: 12,
        children: [
          { kind: 'text', id: 'title', text: e.title, size: 'title', bold: true },
          { kind: 'text', id: 'when_date', text: dayHeader(ctx, dayStart(e.start)) },
          { ...eventRow(ctx, e), onTap: undefined },
          { kind: 'column', children: [], height: 'fill' },
          {
            kind: 'button',
            id: 'delete',
            text: calT(ctx, 'delete'),
            style: 'danger',
            onTap: () =>
              ctx.showDialog({
                kind: 'app',
                title: calT(ctx, 'deleteAsk'),
                buttons: [
                  { text: calT(ctx, 'cancel'), id: 'button2', onTap: () => ctx.closeDialog() },
                  { text: calT(ctx, 'delete'), id: 'button1', onTap: remove },
                ],
              }),
          },
        ],
      },
    };
  };

  return {
    package: CALENDAR_PACKAGE,
    label: 'Calendar',
    labelZh: '日历',
    iconColor: '#4285f4',
    glyph: '31',
    activities: ['.AllInOneActivity', EVENT_EDITOR, EVENT_INFO],
    onLaunch() {
      offset = 0;
      form.reset();
    },
    render(route, ctx) {
      if (route.activity === EVENT_EDITOR) return form.render(ctx);
      if (route.activity === EVENT_INFO) return infoScreen(ctx, route);
      return dayView(ctx);
    },
  };
}
