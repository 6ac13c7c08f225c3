import { afterEach, describe, expect, it } from 'vitest';
import { compactView } from '../../src/perception/compact.js';
import { setAcmeAccount } from '../../src/testbed/sim/apps/acme-data.js';
import { bridgeRig, decision, el, makeExecutor, observe } from './helpers.js';

/** LOGIN-01 as a model drives it: type the email, then tap the password field by its listed id. */
let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('the password field after the email is typed', () => {
  it('is tapped by its id (an empty field reports its hint as text: still the same field)', async () => {
    rig = await bridgeRig({ seed: 7 });
    setAcmeAccount(rig.phone.world, { email: 'a@acme.test', password: 'Pw-1234x' });
    const ex = makeExecutor(rig.device, rig.clock);
    let obs = await observe(ex);
    await ex.run(decision({ tool: 'launch_app', package: 'com.acme.bank' }), obs);
    await rig.clock.sleep(1500);
    obs = await observe(ex, obs);
    const typed = await ex.run(
      decision({ tool: 'type', target_id: el(obs, 'Email').id, text: 'a@acme.test' }, { kind: 'no_change' }),
      obs,
    );
    expect(typed.receipt.delivery).toBe('delivered');
    obs = await observe(ex, obs);
    const pw = obs.elements.find((e) => e.flags.password);
    expect(pw && compactView(obs)).toContain(`[${pw?.id}] EditText "Password" [password] empty`);
    const tap = await ex.run(decision({ tool: 'tap', target_id: pw?.id }, { kind: 'keyboard_shown' }), obs);
    expect(tap.receipt.error?.message).toBeUndefined();
    expect(tap.receipt.delivery).toBe('delivered');
    obs = await observe(ex, obs);
    const field = obs.elements.find((e) => e.flags.password);
    expect(field?.flags.focused).toBe(true);
    // Filled: the length shows, never the text.
    await ex.run(decision({ tool: 'type', target_id: field?.id, text: 'Pw-1234x' }, { kind: 'no_change' }), obs);
    obs = await observe(ex, obs);
    const view = compactView(obs);
    expect(view).toMatch(/"Password" \[password\] filled \(8 chars\)/);
    expect(view).not.toContain('Pw-1234x');
    expect(view).not.toContain('••');
  });
});
