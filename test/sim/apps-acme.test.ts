import { describe, expect, it } from 'vitest';
import { acmeAccount, setAcmeAccount } from '../../src/testbed/sim/apps/acme-data.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { centre, find, settle, tapOn } from './helpers.js';

/** Acme login through the phone's real input surface: the keyboard moves the Login button. */

const EMAIL = 'li.wei@acme.test';
const PASSWORD = 'Pa55-wörd';

async function openAcme(): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed: 4 });
  setAcmeAccount(phone.world, { email: EMAIL, password: PASSWORD, balance: '¥8,888.00' });
  expect((await phone.launch('com.acme.bank')).ok).toBe(true);
  await settle(phone);
  return phone;
}

async function type(phone: VirtualPhone, field: string, text: string): Promise<void> {
  await tapOn(phone, { id: field });
  expect((await phone.imeCommit(text)).ok).toBe(true);
  await settle(phone, 50);
}

describe('Acme', () => {
  it('logs in with the keyboard open: the Login button has moved above the keyboard', async () => {
    const phone = await openAcme();
    const before = (await find(phone, { id: 'login' })).node;
    await type(phone, 'email', EMAIL);
    await type(phone, 'password', PASSWORD);
    const { snap, node: after } = await find(phone, { id: 'login' });
    expect(snap.keyboard.shown).toBe(true);
    expect(after.bounds.top).toBeLessThan(before.bounds.top);
    expect(after.bounds.bottom).toBeLessThanOrEqual(snap.keyboard.bounds!.top);
    const pw = (await find(phone, { id: 'password' })).node;
    expect(pw.flags.password).toBe(true);
    expect(pw.text).not.toContain('Pa55');

    const c = centre(after);
    expect((await phone.tap(c.x, c.y, 80)).ok).toBe(true);
    await settle(phone);
    expect(phone.world.session).toEqual({ user: EMAIL, attempts: 1 });
    const account = await phone.readTree();
    expect(account.foreground.activity).toBe('.AccountActivity');
    expect((await find(phone, { id: 'balance' })).node.text).toBe('¥8,888.00');
  });

  it('a tap where the button was before the keyboard opened lands on the keyboard, not on Login', async () => {
    const phone = await openAcme();
    const before = centre((await find(phone, { id: 'login' })).node);
    await type(phone, 'email', EMAIL);
    await type(phone, 'password', PASSWORD);
    await phone.tap(before.x, before.y, 80);
    await settle(phone);
    expect(phone.world.session.attempts).toBe(0);
    expect(phone.world.session.user).toBeUndefined();
  });

  it('a wrong password counts an attempt and shows an error; empty fields do not reach the server', async () => {
    const phone = await openAcme();
    await tapOn(phone, { id: 'login' });
    expect(phone.world.session.attempts).toBe(0);
    expect((await find(phone, { id: 'error' })).node.text).toMatch(/Enter your email/);

    await type(phone, 'email', EMAIL.toUpperCase());
    await type(phone, 'password', 'wrong');
    await phone.key('back'); // hide the keyboard, as a user would
    await settle(phone);
    await tapOn(phone, { id: 'login' });
    expect(phone.world.session.attempts).toBe(1);
    expect(phone.world.session.user).toBeUndefined();
    expect((await find(phone, { id: 'error' })).node.text).toMatch(/Wrong email or password/);
    expect((await phone.readTree()).foreground.activity).toBe('.LoginActivity');
  });

  it('seeds credentials per seed and keeps the session across launches until sign-out', async () => {
    const a = new VirtualPhone({ seed: 1 });
    const b = new VirtualPhone({ seed: 2 });
    expect(acmeAccount(a.world)).not.toEqual(acmeAccount(b.world));
    expect(acmeAccount(new VirtualPhone({ seed: 1 }).world)).toEqual(acmeAccount(a.world));

    const phone = await openAcme();
    await type(phone, 'email', EMAIL);
    await type(phone, 'password', PASSWORD);
    await phone.key('enter'); // the password field's IME action logs in too
    await settle(phone);
    expect(phone.world.session.user).toBe(EMAIL);
    await phone.forceStop('com.acme.bank');
    await phone.launch('com.acme.bank');
    await settle(phone);
    expect((await phone.readTree()).foreground.activity).toBe('.AccountActivity');
    await tapOn(phone, { id: 'sign_out' });
    expect(phone.world.session.user).toBeUndefined();
    expect(phone.world.events.map((e) => e.kind)).toEqual(['signed_out']);
  });
});
