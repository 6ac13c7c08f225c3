import type { TaskDef } from '../types.js';

const LABELS = ['Gym', 'Standup', 'Take meds', 'School run', 'Wake up'];
const WEEKDAYS = [1, 2, 3, 4, 5];

/** CLK-02: a labelled weekday alarm (hour/minute fields, day-of-week toggles, Save). */
export const CLK_02: TaskDef = {
  id: 'CLK-02',
  category: 'clock',
  tags: ['clock', 'alarm', 'form', 'toggle', 'en'],
  instruction: 'Set an alarm at {hh}:{mm} labeled "{label}", repeating Mon–Fri.',
  params: (r) => ({
    hh: String(5 + Math.floor(r() * 5)).padStart(2, '0'),
    mm: String(15 * Math.floor(r() * 4)).padStart(2, '0'),
    label: LABELS[Math.floor(r() * LABELS.length)] ?? 'Gym',
  }),
  check: (w, run, p) =>
    w.alarms.some(
      (a) =>
        a.hour === Number(p.hh) &&
        a.minute === Number(p.mm) &&
        a.label === p.label &&
        [...a.days].sort().join() === WEEKDAYS.join() &&
        a.enabled,
    ) && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `alarms=${JSON.stringify(w.alarms)}, status=${run.status}` },
  // The catalog says 10; this editor needs a tap per weekday plus separate hour and minute fields.
  optimalSteps: 12,
  intents: [
    'launch "Clock"',
    'tap "Add alarm"',
    'type "Hour" "{hh}"',
    'type "Minute" "{mm}"',
    'type "Label" "{label}"',
    'toggle "Mon" on',
    'toggle "Tue" on',
    'toggle "Wed" on',
    'toggle "Thu" on',
    'toggle "Fri" on',
    'tap "Save"',
    'done',
  ],
};
