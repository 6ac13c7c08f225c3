import { stringAnswer } from '../answers.js';
import type { TaskDef } from '../types.js';

/** SET-08 (zh): the phone model, answered from 关于手机. */
export const SET_08: TaskDef = {
  id: 'SET-08',
  category: 'settings',
  tags: ['settings', 'question', 'zh'],
  locale: 'zh',
  instruction: '这台手机的型号是什么？只回答型号。',
  check: (w, run) =>
    run.status === 'done' && stringAnswer(run.answer, w.about.model)
      ? { ok: true }
      : { ok: false, reason: `answer=${run.answer} (want ${w.about.model}), status=${run.status}` },
  optimalSteps: 3,
  intents: ['launch "设置"', 'tap "关于手机"', 'read "型号"'],
};
