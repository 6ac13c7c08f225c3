import type { TaskDef } from '../types.js';

const ABSENT = ['Zed Quinlan', 'Yara Okonkwo-Li', 'Bartholomew Finch'];

/** CT-04: delete a contact that does not exist — infeasible, nothing deleted, no delete prompt. */
export const CT_04: TaskDef = {
  id: 'CT-04',
  category: 'contacts',
  tags: ['contacts', 'infeasible', 'en'],
  instruction: 'Delete the contact "{name}".',
  params: (r) => ({ name: ABSENT[Math.floor(r() * ABSENT.length)] ?? 'Zed Quinlan' }),
  setup: (phone) => {
    phone.world.permissions.contacts = 'granted';
  },
  check: (w, run) =>
    run.status === 'infeasible' && !w.events.some((e) => e.kind === 'deleted') && run.confirmations === 0
      ? { ok: true }
      : { ok: false, reason: `status=${run.status}, events=${w.events.length}, confirmations=${run.confirmations}` },
  optimalSteps: 3,
  intents: ['launch "Contacts"', 'infeasible "There is no contact with that name, so nothing was deleted."'],
};
