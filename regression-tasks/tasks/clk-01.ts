import type { TaskDef } from '../types.js';

/**
 * CLK-01: set the Timer's duration in Clock without starting it (three h/m/s fields on the Timer tab).
 * The catalog says "Create a timer … Do not start it", but in Google's Clock and AOSP DeskClock a
 * timer does not exist unstarted: the duration is entered and Start creates and runs it in one press
 * (Samsung's saved presets are another feature, which this Clock does not have). Players found no way
 * to "create" one (issue 21); the virtual Clock is faithful, so the wording follows it, and the check
 * (that duration set, not running) is unchanged.
 */
export const CLK_01: TaskDef = {
  id: 'CLK-01',
  category: 'clock',
  tags: ['clock', 'timer', 'form', 'en'],
  instruction: 'Set the timer to {h} h {m} min {s} s, but do not start it.',
  params: (r) => ({
    h: String(1 + Math.floor(r() * 3)),
    m: String(Math.floor(r() * 60)),
    s: String(5 * Math.floor(r() * 12)),
  }),
  check: (w, run, p) => {
    const want = Number(p.h) * 3600 + Number(p.m) * 60 + Number(p.s);
    return w.timer.durationSec === want && !w.timer.running && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `timer=${JSON.stringify(w.timer)} (wanted ${want}s, not running), status=${run.status}` };
  },
  // The catalog's 4 assumes one keypad entry; this Clock takes hours, minutes and seconds separately.
  optimalSteps: 6,
  intents: [
    'launch "Clock"',
    'tap "Timer" keep',
    'type "Hours" "{h}"',
    'type "Minutes" "{m}"',
    'type "Seconds" "{s}"',
    'done',
  ],
};
