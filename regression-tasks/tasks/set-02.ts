import type { TaskDef } from '../types.js';

/** SET-02: Bluetooth is already off — finish without touching the switch. */
export const SET_02: TaskDef = {
  id: 'SET-02',
  category: 'settings',
  tags: ['settings', 'no-op', 'en'],
  instruction: 'Turn Bluetooth off.',
  setup: (phone) => {
    phone.world.settings.bluetooth = false;
  },
  check: (w, run) =>
    !w.settings.bluetooth && (w.toggles.bluetooth ?? 0) === 0 && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `bt=${w.settings.bluetooth}, toggled ${w.toggles.bluetooth ?? 0}×, status=${run.status}` },
  // Android 14: Connected devices → Connection preferences → Bluetooth → "Use Bluetooth".
  optimalSteps: 5,
  intents: [
    'launch "Settings"',
    'tap "Connected devices"',
    'tap "Connection preferences"',
    'tap "Bluetooth"',
    'toggle "Use Bluetooth" off',
    'done',
  ],
};
