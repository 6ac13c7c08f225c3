import type { TaskDef } from '../types.js';

/** SET-06 (zh): brightness to the minimum, on a Chinese-locale phone. */
export const SET_06: TaskDef = {
  id: 'SET-06',
  category: 'settings',
  tags: ['settings', 'slider', 'zh'],
  locale: 'zh',
  instruction: '把屏幕亮度调到最低。',
  check: (w, run) =>
    w.settings.brightness === 0 && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `brightness=${w.settings.brightness}, status=${run.status}` },
  optimalSteps: 4,
  intents: ['launch "设置"', 'tap "显示"', 'slide "亮度" 0', 'done'],
};
