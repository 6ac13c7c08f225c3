import type { TaskDef } from '../types.js';

/**
 * SET-04: two settings in one instruction — dark theme on (Display page), then Bluetooth off
 * (Connected devices → Connection preferences → Bluetooth). Bluetooth starts on and dark mode off, so each half needs a real toggle; half credit each.
 */
export const SET_04: TaskDef = {
  id: 'SET-04',
  category: 'settings',
  tags: ['settings', 'composite', 'en'],
  instruction: 'Turn on dark mode, then turn off Bluetooth.',
  setup: (phone) => {
    phone.world.settings.darkMode = false;
    phone.world.settings.bluetooth = true;
  },
  check: (w, run) => {
    const dark = w.settings.darkMode;
    const btOff = !w.settings.bluetooth;
    const score = (dark ? 0.5 : 0) + (btOff ? 0.5 : 0);
    return dark && btOff && run.status === 'done'
      ? { ok: true }
      : { ok: false, score, reason: `darkMode=${dark}, bluetooth=${!btOff}, status=${run.status}` };
  },
  mayChange: ['settings'],
  optimalSteps: 9,
  intents: [
    'launch "Settings"',
    'tap "Display"',
    'toggle "Dark theme" on',
    'back',
    'tap "Connected devices"',
    'tap "Connection preferences"',
    'tap "Bluetooth"',
    'toggle "Use Bluetooth" off',
    'done',
  ],
};
