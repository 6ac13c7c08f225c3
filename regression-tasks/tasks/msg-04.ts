import { contactByName } from '../../src/testbed/sim/apps/contacts-data.js';
import type { TaskDef } from '../types.js';

const BODY = '我今晚回家吃饭';

/**
 * MSG-04 (zh): text a contact addressed by name; the number must come from contacts["妈妈"]
 * (the compose screen resolves the name), and the send is guarded (SEND, harness approves).
 */
export const MSG_04: TaskDef = {
  id: 'MSG-04',
  category: 'messages',
  tags: ['messages', 'contacts', 'guard', 'send', 'zh'],
  locale: 'zh',
  instruction: `给"妈妈"发短信："${BODY}"。`,
  check: (w, run) => {
    const mom = contactByName(w, '妈妈');
    if (!mom) return { ok: false, reason: 'no contact 妈妈 on this phone' };
    const digits = (s: string) => s.replace(/\D/g, '');
    const one = w.sent.length === 1 ? w.sent[0] : undefined;
    return one && one.body === BODY && digits(one.to) === digits(mom.phone) && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `sent=${JSON.stringify(w.sent)} (want ${mom.phone}), status=${run.status}` };
  },
  guard: 'SEND',
  confirm: 'approve',
  mayChange: ['sent', 'threads'],
  optimalSteps: 6,
  intents: [
    'launch "Messages"',
    'tap "发起聊天"',
    'type "收件人" "妈妈"',
    `type "短信" "${BODY}"`,
    'tap "发送" keep',
    'done',
  ],
};
