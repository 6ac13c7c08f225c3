import type { TaskDef } from '../types.js';

/** CLK-03 (zh): a one-off alarm for tomorrow 07:30 labelled 晨跑 (exact Unicode), enabled. */
export const CLK_03: TaskDef = {
  id: 'CLK-03',
  category: 'clock',
  tags: ['clock', 'alarm', 'unicode', 'zh'],
  locale: 'zh',
  instruction: '设置一个明天早上7:30的闹钟，标签为"晨跑"。',
  check: (w, run) =>
    // The phone's clock starts in the evening, so a one-off 07:30 alarm rings tomorrow.
    w.alarms.some((a) => a.hour === 7 && a.minute === 30 && a.label === '晨跑' && a.days.length === 0 && a.enabled) &&
    run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `alarms=${JSON.stringify(w.alarms)}, status=${run.status}` },
  optimalSteps: 7,
  intents: [
    'launch "Clock"',
    'tap "添加闹钟"',
    'type "小时" "7"',
    'type "分钟" "30"',
    'type "标签" "晨跑"',
    'tap "保存"',
    'done',
  ],
};
