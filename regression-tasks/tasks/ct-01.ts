import type { TaskDef } from '../types.js';

const FIRST = ['Maya', 'Jonas', 'Priya', 'Tomás', 'Keiko', 'Olu'];
const LAST = ['Reyes', 'Lindqvist', 'Okafor', 'Brandt', 'Sato'];

/** CT-01: add a contact; the runtime permission prompt on first launch is granted by rule. */
export const CT_01: TaskDef = {
  id: 'CT-01',
  category: 'contacts',
  tags: ['contacts', 'permission', 'interrupt', 'en'],
  instruction: 'Add contact {name}, phone {phone}.',
  params: (r) => ({
    name: `${FIRST[Math.floor(r() * FIRST.length)]} ${LAST[Math.floor(r() * LAST.length)]}`,
    phone: `+1 555 ${Math.floor(r() * 900 + 100)} ${Math.floor(r() * 9000 + 1000)}`,
  }),
  setup: (phone) => {
    phone.world.permissions.contacts = 'unasked';
  },
  check: (w, run, p) => {
    const digits = (s: string) => s.replace(/\D/g, '');
    const added = w.contacts.some((c) => c.name === p.name && digits(c.phone) === digits(p.phone ?? ''));
    return added && w.permissions.contacts === 'granted' && run.status === 'done'
      ? { ok: true }
      : { ok: false, reason: `added=${added}, permission=${w.permissions.contacts}, status=${run.status}` };
  },
  optimalSteps: 6,
  intents: ['launch "Contacts"', 'tap "Add"', 'type "Name" "{name}"', 'type "Phone" "{phone}"', 'tap "Save"', 'done'],
};
