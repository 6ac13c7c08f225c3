import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { messagingData, seedMessages } from '../../src/testbed/sim/apps/messages-data.js';
import { otpCodeIn } from '../../src/testbed/sim/apps/messages-otp.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findAllIn, findIn, settle, tapOn } from './helpers.js';

/** Messages' "Copy code" chip: only a thread whose newest message is an incoming code shows one. */

async function openThreadOf(phone: VirtualPhone, peer: string): Promise<void> {
  expect((await phone.launch('com.android.messaging')).ok).toBe(true);
  await settle(phone);
  await tapOn(phone, { id: 'peer', text: peer });
}

describe('Messages one-time codes', () => {
  it('finds codes in English and Chinese texts, not in phone numbers or plain numbers', () => {
    expect(otpCodeIn('[AcmeBank] Your verification code is 482913. It expires in 5 minutes.')).toBe('482913');
    expect(otpCodeIn('【AcmeBank】您的验证码是834614，5分钟内有效，请勿泄露。')).toBe('834614');
    expect(otpCodeIn('Forward the latest code to +1 212-555-0199 now.')).toBeUndefined();
    expect(otpCodeIn('See you at 1930 tomorrow')).toBeUndefined();
  });

  it('a forced OTP sender gets both codes; the chip shows the latest one only', async () => {
    const phone = new VirtualPhone({ seed: 4 });
    seedMessages(phone.world, seededRandom(77), { otpSender: 'MetroCard' });
    const { otp, distractor } = messagingData(phone.world);
    expect(otp.sender).toBe('MetroCard');
    expect(distractor.sender).not.toBe('MetroCard');
    expect(otp.latest).not.toBe(otp.older);
    await openThreadOf(phone, 'MetroCard');
    const snap = await phone.readTree();
    const bodies = findAllIn(snap, { id: 'message_text' }).map((n) => n.text);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toContain(otp.older);
    expect(bodies[1]).toContain(otp.latest);
    const chips = findAllIn(snap, { id: 'copy_code' });
    expect(chips.map((n) => n.text)).toEqual([`Copy code ${otp.latest}`]);
    await tapOn(phone, { id: 'copy_code' });
    expect(phone.world.sent).toEqual([]);
  });

  it('no chip after my own reply, nor on the spam thread', async () => {
    const phone = new VirtualPhone({ seed: 4 });
    const { otp } = messagingData(phone.world);
    phone.world.threads
      .find((t) => t.peer === otp.sender)
      ?.messages.push({ from: 'me', body: 'my code is 1234', at: 1 });
    await openThreadOf(phone, otp.sender);
    expect(findIn(await phone.readTree(), { id: 'copy_code' })).toBeUndefined();
    await phone.key('back');
    await settle(phone);
    await tapOn(phone, { id: 'peer', text: '10690123' });
    expect((await find(phone, { id: 'conversation_title' })).node.text).toBe('10690123');
    expect(findIn(await phone.readTree(), { id: 'copy_code' })).toBeUndefined();
  });
});
