import { seededRandom } from '../../src/core/random.js';
import { messagingData, OTP_SENDERS, seedMessages } from '../../src/testbed/sim/apps/messages-data.js';
import type { TaskDef } from '../types.js';

/**
 * MSG-03: a question answered from an SMS thread. The named sender texted two codes (an older one,
 * then the latest); another sender's code is newer still, and a spam text asks to forward codes.
 * Only the latest code of the named sender, digits only, is right.
 */
export const MSG_03: TaskDef = {
  id: 'MSG-03',
  category: 'messages',
  tags: ['messages', 'question', 'distractor', 'en'],
  instruction: 'What is the latest code {sender} texted me? Digits only.',
  params: (r) => ({
    sender: OTP_SENDERS[Math.floor(r() * OTP_SENDERS.length)] ?? 'AcmeBank',
    // Seeds the codes on the phone; never shown to the agent.
    codes: String(Math.floor(r() * 1e9)),
  }),
  setup: (phone, p) => {
    seedMessages(phone.world, seededRandom(Number(p.codes)), { otpSender: p.sender });
  },
  check: (w, run, p) => {
    const { otp } = messagingData(w);
    const digits = run.answer?.match(/\d+/g) ?? [];
    const right = otp.sender === p.sender && digits.length === 1 && digits[0] === otp.latest;
    return right && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `answer=${run.answer} (want ${otp.latest}, older ${otp.older}), status=${run.status}` };
  },
  mayChange: [],
  optimalSteps: 3,
  intents: ['launch "Messages"', 'tap "{sender}"', 'read "Copy code"'],
};
