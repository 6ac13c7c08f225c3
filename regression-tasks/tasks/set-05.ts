import { numberAnswer } from '../answers.js';
import type { TaskDef } from '../types.js';

/** SET-05: a question answered from the About page. */
export const SET_05: TaskDef = {
  id: 'SET-05',
  category: 'settings',
  tags: ['settings', 'question', 'en'],
  instruction: 'Which Android version is this phone running? Number only.',
  check: (w, run) =>
    run.status === 'done' && numberAnswer(run.answer, w.about.androidVersion)
      ? { ok: true }
      : { ok: false, reason: `answer=${run.answer} (want ${w.about.androidVersion}), status=${run.status}` },
  optimalSteps: 3,
  intents: ['launch "Settings"', 'tap "About phone"', 'read "Android version"'],
};
