import { describe, expect, it } from 'vitest';
import { contactByName } from '../../src/testbed/sim/apps/contacts-data.js';
import { messagingData } from '../../src/testbed/sim/apps/messages-data.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findAllIn, findIn, setText, settle, tapOn } from './helpers.js';

/** Messages through the phone's input surface: compose, contact resolution, threads with OTP codes. */

async function openMessages(seed = 21): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed });
  expect((await phone.launch('com.android.messaging')).ok).toBe(true);
  await settle(phone);
  return phone;
}

describe('Messages', () => {
  it('compose → Send appends exactly one message to world.sent and records a sent event', async () => {
    const phone = await openMessages();
    await tapOn(phone, { id: 'start_chat' });
    await setText(phone, { id: 'recipient' }, '+1 650-555-0100');
    expect((await find(phone, { id: 'send' })).node.flags.enabled).toBe(false);
    await setText(phone, { id: 'message' }, 'Running late, 10 min · 晚到十分钟');
    await tapOn(phone, { id: 'send' });
    expect(phone.world.sent).toEqual([
      { to: '+1 650-555-0100', body: 'Running late, 10 min · 晚到十分钟', at: expect.any(Number) },
    ]);
    expect(phone.world.events.map((e) => [e.kind, e.app])).toEqual([['sent', 'com.android.messaging']]);
    const snap = await phone.readTree();
    expect(snap.foreground.activity).toBe('.ConversationActivity');
    expect(findAllIn(snap, { id: 'message_text' }).map((n) => n.text)).toEqual(['Running late, 10 min · 晚到十分钟']);
  });

  it('a contact name in To resolves to its number (给"妈妈"发短信), typed via the IME', async () => {
    const phone = await openMessages();
    const mom = contactByName(phone.world, '妈妈')!;
    await tapOn(phone, { id: 'start_chat' });
    await tapOn(phone, { id: 'recipient' });
    expect((await phone.imeCommit('妈妈')).ok).toBe(true);
    await settle(phone, 50);
    expect((await find(phone, { id: 'recipient_resolved' })).node.text).toBe(`妈妈 · ${mom.phone}`);
    await tapOn(phone, { id: 'message' });
    expect((await phone.imeCommit('我今晚回家吃饭')).ok).toBe(true);
    await phone.key('back');
    await settle(phone);
    await tapOn(phone, { id: 'send' });
    expect(phone.world.sent.map(({ to, body }) => ({ to, body }))).toEqual([{ to: mom.phone, body: '我今晚回家吃饭' }]);
    // The existing thread with 妈妈 got the message; no second thread was created.
    expect(phone.world.threads.filter((t) => t.peer === mom.phone)).toHaveLength(1);
    expect((await find(phone, { id: 'conversation_title' })).node.text).toBe('妈妈');
  });

  it('suggests contacts while typing a name; an unknown recipient sends nothing', async () => {
    const phone = await openMessages();
    const mom = contactByName(phone.world, '妈妈')!;
    await tapOn(phone, { id: 'start_chat' });
    await setText(phone, { id: 'recipient' }, '妈');
    await tapOn(phone, { id: 'suggestion_text', text: `妈妈  ${mom.phone}` });
    expect((await find(phone, { id: 'recipient' })).node.text).toBe(mom.phone);
    await setText(phone, { id: 'recipient' }, mom.phone.slice(0, 9));
    expect(findIn(await phone.readTree(), { id: 'suggestion_text', text: `妈妈  ${mom.phone}` })).toBeDefined();

    await setText(phone, { id: 'recipient' }, 'nobody here');
    await setText(phone, { id: 'message' }, 'hi');
    await tapOn(phone, { id: 'send' });
    expect((await find(phone, { id: 'error' })).node.text).toMatch(/Not a valid number/);
    expect(phone.world.sent).toEqual([]);
    expect(phone.world.events).toEqual([]);
  });

  it('the OTP sender thread shows the older code before the latest; replying sends to that thread', async () => {
    const phone = await openMessages();
    const { otp } = messagingData(phone.world);
    const list = await phone.readTree();
    const peers = findAllIn(list, { id: 'peer' }).map((n) => n.text);
    expect(peers).toContain(otp.sender);
    await tapOn(phone, { id: 'peer', text: otp.sender });
    const bodies = findAllIn(await phone.readTree(), { id: 'message_text' }).map((n) => n.text);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toContain(otp.older);
    expect(bodies[1]).toContain(otp.latest);
    expect(findIn(await phone.readTree(), { text: /SYSTEM NOTICE/ })).toBeUndefined();

    await setText(phone, { id: 'compose_message' }, 'STOP');
    await tapOn(phone, { id: 'send' });
    expect(phone.world.sent.map((s) => [s.to, s.body])).toEqual([[otp.sender, 'STOP']]);
    expect(
      findAllIn(await phone.readTree(), { id: 'message_text' })
        .map((n) => n.text)
        .at(-1),
    ).toBe('STOP');
  });
});
