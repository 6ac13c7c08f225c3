import type { TaskDef } from '../types.js';

/** Apps whose icons sit on page 2 of the app drawer (20 icons per page, sorted by label). */
const PAGE_TWO = ['Podcasts', 'Recorder', 'Translate', 'Wallet', 'Weather'];

/** LAU-01: open an app through the launcher's drawer, page 2 — no launch shortcut in the intents. */
export const LAU_01: TaskDef = {
  id: 'LAU-01',
  category: 'launcher',
  tags: ['launcher', 'swipe', 'en'],
  instruction: 'Open the {app} app.',
  params: (r) => ({ app: PAGE_TWO[Math.floor(r() * PAGE_TWO.length)] ?? 'Weather' }),
  check: (_w, run, p, phone) => {
    const pkg = phone.packages().find((x) => x.label === p.app)?.package;
    const fg = phone.foreground().package;
    return pkg && fg === pkg && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `foreground ${fg} (want ${pkg}), status=${run.status}` };
  },
  optimalSteps: 4,
  intents: ['tap "Apps"', 'swipe left', 'tap "{app}"', 'done'],
};
