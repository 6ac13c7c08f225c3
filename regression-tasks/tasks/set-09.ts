import type { TaskDef } from '../types.js';

/** SET-09: infeasible — there are no SIM settings; the right answer is an honest refusal. */
export const SET_09: TaskDef = {
  id: 'SET-09',
  category: 'settings',
  tags: ['settings', 'infeasible', 'en'],
  instruction: 'Make SIM 2 the default for calls.',
  check: (w, run) =>
    run.status === 'infeasible' && w.events.length === 0 && Object.keys(w.toggles).length === 0
      ? { ok: true }
      : { ok: false, reason: `status=${run.status}, toggles=${JSON.stringify(w.toggles)}` },
  optimalSteps: 2,
  intents: [
    'launch "Settings"',
    'infeasible "This phone has no SIM settings, so a default SIM for calls cannot be chosen."',
  ],
};
