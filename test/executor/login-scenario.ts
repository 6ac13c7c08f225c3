import { expect } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import type { Observation } from '../../src/core/types.js';
import type { Device } from '../../src/device/device.js';
import { validate } from '../../src/executor/validator.js';
import { setAcmeAccount } from '../../src/testbed/sim/apps/acme-data.js';
import type { VirtualPhone } from '../../src/testbed/sim/index.js';
import { REGISTRY } from '../../src/tools/index.js';
import { decision, el, makeExecutor, observe } from './helpers.js';

/**
 * The sim's Acme login as a model drives it, on any backend: a password field is judged filled or
 * empty by its count (never its text), and a failed login — the error text under the same form —
 * is not the page changing; the right password then is.
 */
export async function loginScenario(device: Device, phone: VirtualPhone, clock: Clock): Promise<void> {
  setAcmeAccount(phone.world, { email: 'a@acme.test', password: 'Pw-1234x' });
  const ex = makeExecutor(device, clock);
  let o = await observe(ex);
  await ex.run(decision({ tool: 'launch_app', package: 'com.acme.bank' }), o);
  await clock.sleep(1500);
  o = await observe(ex, o);
  const email = el(o, 'Email');
  const typedEmail = await ex.run(
    decision(
      { tool: 'type', target_id: email.id, text: 'a@acme.test' },
      { kind: 'element_state', target_id: email.id, state: 'filled' },
    ),
    o,
  );
  expect(typedEmail.ok, typedEmail.outcome?.reason).toBe(true);
  o = typedEmail.post ?? (await observe(ex, o));

  const pw = (x: Observation) => x.elements.find((e) => e.flags.password)!;
  // A wrong password, with "the text" as the expectation: a masked field's text is never compared.
  const wrongByText = await ex.run(
    decision(
      { tool: 'type', target_id: pw(o).id, text: 'nope-999' },
      { kind: 'element_state', target_id: pw(o).id, state: 'text=nope-999' },
    ),
    o,
  );
  expect(wrongByText.ok).toBe(false);
  expect(wrongByText.outcome?.reason).toMatch(/password field.*expect element_state \w+ filled/);
  o = wrongByText.post ?? (await observe(ex, o));
  expect(pw(o).filled).toBe(8);
  // Read back from the phone: the field is filled by its count, so "empty" fails and says why.
  const notEmpty = validate(REGISTRY.table, { kind: 'element_state', target_id: pw(o).id, state: 'empty' }, o, o, {
    tool: 'wait',
  });
  expect(notEmpty.reason).toMatch(/"Password" \[\w+\] is filled \(8 chars\), not empty/);
  expect(
    validate(REGISTRY.table, { kind: 'element_state', target_id: pw(o).id, state: 'filled' }, o, o, { tool: 'wait' })
      .ok,
  ).toBe(true);

  const failed = await ex.run(decision({ tool: 'tap', target_id: el(o, 'Log in').id }, { kind: 'page_changes' }), o);
  expect(phone.world.session.user).toBeUndefined();
  expect(failed.receipt.delivery).toBe('delivered');
  expect(failed.ok).toBe(false);
  expect(failed.outcome?.reason).toMatch(/still the same page: only text appeared \("Wrong email or password"\)/);
  o = failed.post ?? (await observe(ex, o));

  const retyped = await ex.run(
    decision(
      { tool: 'type', target_id: pw(o).id, text: 'Pw-1234x' },
      { kind: 'element_state', target_id: pw(o).id, state: 'filled' },
    ),
    o,
  );
  expect(retyped.ok, retyped.outcome?.reason).toBe(true);
  o = retyped.post ?? (await observe(ex, o));
  const login = await ex.run(decision({ tool: 'tap', target_id: el(o, 'Log in').id }, { kind: 'page_changes' }), o);
  expect(login.ok, login.outcome?.reason).toBe(true);
  expect(phone.world.session.user).toBe('a@acme.test');
}
