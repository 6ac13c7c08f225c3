import type { AppContext } from '../app.js';
import type { View } from '../kit/view.js';
import { CLOCK_PACKAGE, ct, hms } from './clock-text.js';

/**
 * Clock's Timer tab. Set-up shows three number fields (hours, minutes, seconds) that take keyboard
 * input, as Samsung's and tablet clocks do; every edit updates `world.timer.durationSec`, so the set
 * duration is observable before Start. Start runs it on the phone's clock (a notification when it
 * ends); Pause/Reset return to set-up.
 */

interface TimerDraft {
  h: string;
  m: string;
  s: string;
}

function num(s: string, max: number): number {
  const n = Number(s.trim());
  return Number.isInteger(n) && n >= 0 ? Math.min(n, max) : 0;
}

export interface TimerTab {
  reset(): void;
  render(ctx: AppContext): View[];
}

export function createTimerTab(): TimerTab {
  let draft: TimerDraft = { h: '', m: '', s: '' };
  /** Bumped on every start so an old run's "time's up" never fires for a newer one. */
  let generation = 0;

  const sync = (ctx: AppContext): void => {
    ctx.world.timer.durationSec = num(draft.h, 99) * 3600 + num(draft.m, 59) * 60 + num(draft.s, 59);
  };

  const field = (ctx: AppContext, key: keyof TimerDraft, id: string, hint: 'hours' | 'minutes' | 'seconds'): View => ({
    kind: 'edit',
    id,
    value: draft[key],
    hint: ct(ctx, hint),
    onChange: (v) => {
      draft = { ...draft, [key]: v };
      sync(ctx);
    },
  });

  const start = (ctx: AppContext): void => {
    const t = ctx.world.timer;
    t.running = true;
    t.startedAt = ctx.clock.now();
    const gen = ++generation;
    ctx.later(t.durationSec * 1000, () => {
      if (gen !== generation || !ctx.world.timer.running) return;
      ctx.world.timer.running = false;
      ctx.notify({ title: ct(ctx, 'timesUp'), text: hms(t.durationSec), package: CLOCK_PACKAGE });
      ctx.invalidate();
    });
  };

  const running = (ctx: AppContext): View[] => {
    const t = ctx.world.timer;
    const left = t.durationSec - (ctx.clock.now() - (t.startedAt ?? ctx.clock.now())) / 1000;
    return [
      { kind: 'text', id: 'timer_label', text: ct(ctx, 'running'), size: 'small', align: 'center' },
      { kind: 'text', id: 'timer_time', text: hms(left), size: 'title', bold: true, align: 'center', height: 96 },
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
            onTap: () => {
              generation++;
              t.running = false;
              t.startedAt = undefined;
            },
          },
          {
            kind: 'button',
            id: 'pause',
            text: ct(ctx, 'pause'),
            style: 'primary',
            onTap: () => {
              generation++;
              t.durationSec = Math.max(0, Math.round(left));
              const [h, m, s] = hms(t.durationSec).split(':').map(Number);
              draft = { h: String(h), m: String(m), s: String(s) };
              t.running = false;
              t.startedAt = undefined;
            },
          },
        ],
      },
    ];
  };

  return {
    reset() {
      draft = { h: '', m: '', s: '' };
    },
    render(ctx) {
      if (ctx.world.timer.running) return running(ctx);
      return [
        {
          kind: 'text',
          id: 'timer_setup_time',
          text: hms(ctx.world.timer.durationSec),
          size: 'title',
          bold: true,
          align: 'center',
          height: 80,
        },
        {
          kind: 'row',
          id: 'timer_setup',
          gap: 8,
          children: [
            field(ctx, 'h', 'timer_hours', 'hours'),
            field(ctx, 'm', 'timer_minutes', 'minutes'),
            field(ctx, 's', 'timer_seconds', 'seconds'),
          ],
        },
        { kind: 'column', children: [], height: 'fill' },
        {
          kind: 'button',
          id: 'fab',
          text: ct(ctx, 'start'),
          desc: ct(ctx, 'start'),
          style: 'primary',
          enabled: ctx.world.timer.durationSec > 0,
          onTap: () => start(ctx),
        },
      ];
    },
  };
}
