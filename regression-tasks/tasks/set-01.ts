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
  // Android 14: Settings → Network & internet → Internet holds the Wi-Fi switch.
  optimalSteps: 5,
  intents: ['launch "Settings"', 'tap "Network & internet"', 'tap "Internet"', 'toggle "Wi-Fi" {state}', 'done'],
};
