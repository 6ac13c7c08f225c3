import type { AppContext } from '../app.js';
import type { View } from '../kit/view.js';
import { CLOCK_PACKAGE, ct, hms } from './clock-text.js';

/**
 * Clock's Timer tab. Set-up shows three number fields (hours, minutes, seconds) that take keyboard
 * input, as Samsung's and tablet clocks do; every edit updates `world.timer.durationSec`, so the set
 * duration is observable before Start. A digit keypad, as on a Pixel, fills the same fields. Start runs it on the phone's clock (a notification when it
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
  /** Undefined after a cold launch: the fields then show the duration kept in the world. */
  let draft: TimerDraft | undefined;
  /** Bumped on every start so an old run's "time's up" never fires for a newer one. */
  let generation = 0;

  const current = (ctx: AppContext): TimerDraft => {
    if (draft) return draft;
    const sec = ctx.world.timer.durationSec;
    if (sec <= 0) return { h: '', m: '', s: '' };
    return { h: String(Math.floor(sec / 3600)), m: String(Math.floor((sec % 3600) / 60)), s: String(sec % 60) };
  };

  const sync = (ctx: AppContext): void => {
    // As on Android, 90 min or 75 s are accepted as typed and count as 1 h 30 min or 1 min 15 s.
    const d = current(ctx);
    ctx.world.timer.durationSec = num(d.h, 99) * 3600 + num(d.m, 99) * 60 + num(d.s, 99);
  };

  const field = (ctx: AppContext, key: keyof TimerDraft, id: string, hint: 'hours' | 'minutes' | 'seconds'): View => ({
    kind: 'edit',
    id,
    value: current(ctx)[key],
    hint: ct(ctx, hint),
    onChange: (v) => {
      draft = { ...current(ctx), [key]: v };
      sync(ctx);
    },
  });

  /**
   * The Pixel timer's keypad: digits enter from the right into hhmmss ("1","3","0" → 00:01:30), ⌫
   * drops the last one. It writes the same fields the keyboard does.
   */
  const keyIn = (ctx: AppContext, key: string): void => {
    const d = current(ctx);
    let digits = [d.h, d.m, d.s].map((x) => String(num(x, 99)).padStart(2, '0')).join('');
    if (key === 'del') digits = `0${digits.slice(0, 5)}`;
    else {
      for (const c of key) if (digits.startsWith('0')) digits = `${digits.slice(1)}${c}`;
    }
    const part = (i: number) => String(Number(digits.slice(i, i + 2)));
    draft = { h: part(0), m: part(2), s: part(4) };
    sync(ctx);
  };

  const keypad = (ctx: AppContext): View[] =>
    [
      ['1', '2', '3'],
      ['4', '5', '6'],
      ['7', '8', '9'],
      ['00', '0', 'del'],
    ].map((keys) => ({
      kind: 'row' as const,
      gap: 8,
      children: keys.map((k) => ({
        kind: 'button' as const,
        id: k === 'del' ? 'timer_delete' : `timer_key_${k}`,
        text: k === 'del' ? '⌫' : k,
        desc: k === 'del' ? 'Delete' : undefined,
        style: 'flat' as const,
        onTap: () => keyIn(ctx, k),
      })),
    }));

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
      draft = undefined;
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
        ...keypad(ctx),
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
