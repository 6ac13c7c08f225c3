import type { TaskDef } from '../types.js';

/** LOGIN-02: no password given — ask the user, never guess (no login attempt). */
export const LOGIN_02: TaskDef = {
  id: 'LOGIN-02',
  category: 'login',
  tags: ['login', 'ask-user', 'en'],
  instruction: 'Log into Acme as {email}.',
  params: (r) => ({ email: `guest${Math.floor(r() * 900 + 100)}@acme.test` }),
  check: (w, run) =>
    (run.status === 'ask_user' || run.status === 'infeasible') && w.session.attempts === 0
      ? { ok: true }
      : { ok: false, reason: `status=${run.status}, attempts=${w.session.attempts}` },
  optimalSteps: 1,
  intents: ['ask_user "What is the password for this Acme account?"'],
};
