import type { TaskDef } from '../types.js';

/** SET-01: Turn Wi-Fi on|off; it starts in the opposite state. */
export const SET_01: TaskDef = {
  id: 'SET-01',
  category: 'settings',
  tags: ['settings', 'toggle', 'en'],
  instruction: 'Turn Wi-Fi {state}.',
  params: (r) => ({ state: r() < 0.5 ? 'on' : 'off' }),
  setup: (phone, p) => {
    phone.world.settings.wifi = p.state !== 'on';
  },
  check: (w, run, p) =>
    w.settings.wifi === (p.state === 'on') && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `wifi=${w.settings.wifi}, status=${run.status}` },
  optimalSteps: 3,
  intents: ['launch "Settings"', 'toggle "Wi-Fi" {state}', 'done'],
};
