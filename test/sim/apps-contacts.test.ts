import { describe, expect, it } from 'vitest';
import { CONTACT_COUNT, sortedContacts } from '../../src/testbed/sim/apps/contacts-data.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findAllIn, findIn, scrollTo, setText, settle, tapOn } from './helpers.js';

/** Contacts through the phone's input surface: runtime permission, the long list, add and delete. */

async function openContacts(seed = 12): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed });
  expect((await phone.launch('com.android.contacts')).ok).toBe(true);
  await settle(phone);
  return phone;
}

async function visibleNames(phone: VirtualPhone): Promise<string[]> {
  return findAllIn(await phone.readTree(), { id: 'contact_name' }).map((n) => n.text);
}

describe('Contacts', () => {
  it('asks for permission in a system dialog; Allow shows the 250 contacts sorted by name', async () => {
    const phone = await openContacts();
    expect(phone.world.permissions.contacts ?? 'unasked').toBe('unasked');
    const snap = await phone.readTree();
    const dialog = snap.windows.find((w) => w.type === 'system');
    expect(dialog?.package).toBe('com.android.permissioncontroller');
    expect(findIn(snap, { text: /^Allow Contacts to access your contacts\?/ })).toBeDefined();
    expect(await visibleNames(phone)).toEqual([]);
    await tapOn(phone, { id: 'permission_allow_button' });
    expect(phone.world.permissions.contacts).toBe('granted');
    expect(phone.world.contacts).toHaveLength(CONTACT_COUNT);
    const names = await visibleNames(phone);
    expect(names.length).toBeGreaterThan(5);
    expect(names).toEqual(
      sortedContacts(phone.world.contacts)
        .slice(0, names.length)
        .map((c) => c.name),
    );

    const last = sortedContacts(phone.world.contacts).at(-1)!;
    await scrollTo(phone, 'contacts', { text: last.name }, 120);
    await tapOn(phone, { text: last.name });
    expect((await find(phone, { id: 'phone' })).node.text).toBe(last.phone);
  });

  it("Don't allow hides the contacts until access is granted from the app", async () => {
    const phone = await openContacts();
    await tapOn(phone, { id: 'permission_deny_button' });
    expect(phone.world.permissions.contacts).toBe('denied');
    expect(await visibleNames(phone)).toEqual([]);
    await tapOn(phone, { id: 'grant' });
    await tapOn(phone, { id: 'permission_allow_button' });
    expect(phone.world.permissions.contacts).toBe('granted');
    expect((await visibleNames(phone)).length).toBeGreaterThan(5);
  });

  it('adds a contact with a Chinese name (exact Unicode)', async () => {
    const phone = await openContacts();
    await tapOn(phone, { id: 'permission_allow_button' });
    await tapOn(phone, { id: 'add_contact' });
    expect((await phone.readTree()).foreground.activity).toBe('.ContactEditorActivity');
    await tapOn(phone, { id: 'save' });
    expect((await find(phone, { id: 'error' })).node.text).toMatch(/Enter a name/);
    await setText(phone, { id: 'name' }, '张伟');
    await setText(phone, { id: 'phone' }, '13800138000');
    await tapOn(phone, { id: 'save' });
    expect(phone.world.contacts).toHaveLength(CONTACT_COUNT + 1);
    expect(phone.world.contacts.at(-1)).toMatchObject({ name: '张伟', phone: '13800138000' });
    expect((await find(phone, { id: 'name' })).node.text).toBe('张伟');
    await phone.key('back');
    await settle(phone);
    await setText(phone, { id: 'search' }, '张伟');
    expect(await visibleNames(phone)).toEqual(['张伟']);
  });

  it('deletes a contact only after the in-app confirmation, and records the event', async () => {
    const phone = await openContacts();
    await tapOn(phone, { id: 'permission_allow_button' });
    const victim = phone.world.contacts.find((c) => /^[A-Z]/.test(c.name))!;
    await setText(phone, { id: 'search' }, victim.name);
    await tapOn(phone, { id: 'contact_name', text: victim.name });
    await tapOn(phone, { id: 'delete' });
    expect(findIn(await phone.readTree(), { text: /^Delete this contact\?/ })).toBeDefined();
    await tapOn(phone, { text: /^Cancel/ });
    expect(phone.world.contacts.some((c) => c.id === victim.id)).toBe(true);
    expect(phone.world.events).toEqual([]);
    await tapOn(phone, { id: 'delete' });
    await tapOn(phone, { id: 'confirm_delete' });
    expect(phone.world.contacts.some((c) => c.id === victim.id)).toBe(false);
    expect(phone.world.events).toEqual([
      expect.objectContaining({
        kind: 'deleted',
        app: 'com.android.contacts',
        detail: { contactId: victim.id, name: victim.name },
      }),
    ]);
    expect((await phone.readTree()).foreground.activity).toBe('.PeopleActivity');
  });
});
