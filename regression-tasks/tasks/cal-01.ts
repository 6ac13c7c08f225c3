import type { TaskDef } from '../types.js';

const TITLES = ['Dentist', 'Team sync', 'Lunch with Sam', 'Project review', 'Call the bank'];
const DURATIONS = ['15', '30', '45', '60', '90', '120'];
const DAY_MS = 86_400_000;

/** CAL-01: an event tomorrow (relative to the phone's clock when the task is given) at {hh}:00 for {d} min. */
export const CAL_01: TaskDef = {
  id: 'CAL-01',
  category: 'calendar',
  tags: ['calendar', 'form', 'date', 'en'],
  instruction: 'Create event "{title}" tomorrow at {hh}:00 for {d} minutes.',
  params: (r) => ({
    title: TITLES[Math.floor(r() * TITLES.length)] ?? 'Dentist',
    hh: String(9 + Math.floor(r() * 9)),
    d: DURATIONS[Math.floor(r() * DURATIONS.length)] ?? '30',
  }),
  setup: (phone, p) => {
    // "Tomorrow" is fixed when the task is given, even if the run crosses midnight.
    p.today = String(Math.floor(phone.clock.now() / DAY_MS) * DAY_MS);
  },
  check: (w, run, p) => {
    const start = Number(p.today) + DAY_MS + Number(p.hh) * 3_600_000;
    return w.calendar.some((e) => e.title === p.title && e.start === start && e.durationMin === Number(p.d)) &&
      run.status === 'done'
      ? { ok: true }
      : {
          ok: false,
          reason: `events=${JSON.stringify(w.calendar)} (wanted start ${new Date(start).toISOString()}), status=${run.status}`,
        };
  },
  optimalSteps: 9,
  intents: [
    'launch "Calendar"',
    'tap "Next day" keep',
    'tap "New event"',
    'type "Title" "{title}"',
    'type "Start time" "{hh}:00"',
    'tap "Duration" keep',
    'tap "{d} minutes"',
    'tap "Save"',
    'done',
  ],
};
