import type { TaskDef } from '../types.js';

/** CT-03 (zh): a new contact with a Chinese name, stored with exact Unicode. */
export const CT_03: TaskDef = {
  id: 'CT-03',
  category: 'contacts',
  tags: ['contacts', 'unicode', 'zh'],
  locale: 'zh',
  instruction: '新建联系人"张伟"，电话13800138000。',
  setup: (phone) => {
    phone.world.permissions.contacts = 'granted';
  },
  check: (w, run) =>
    w.contacts.some((c) => c.name === '张伟' && c.phone.replace(/\D/g, '') === '13800138000') && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `contacts=${JSON.stringify(w.contacts.slice(-2))}, status=${run.status}` },
  optimalSteps: 5,
  intents: ['launch "Contacts"', 'tap "新建"', 'type "姓名" "张伟"', 'type "电话" "13800138000"', 'tap "保存"', 'done'],
};
