import type { TaskDef } from '../types.js';

/** SET-03: set the brightness to about {pct}% (seek bar 0–255). */
export const SET_03: TaskDef = {
  id: 'SET-03',
  category: 'settings',
  tags: ['settings', 'slider', 'en'],
  instruction: 'Set screen brightness to about {pct}%.',
  params: (r) => ({ pct: String(10 + 10 * Math.floor(r() * 9)) }),
  check: (w, run, p) => {
    const pct = (w.settings.brightness / 255) * 100;
    return Math.abs(pct - Number(p.pct)) <= 5 && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `brightness ${pct.toFixed(0)}% (wanted ${p.pct}%), status=${run.status}` };
  },
  optimalSteps: 4,
  intents: ['launch "Settings"', 'tap "Display"', 'slide "Brightness" {pct}', 'done'],
};
