import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { bridgeRig, makeExecutor, observe } from './helpers.js';

/**
 * Verification mode `none` (interaction-latency RFC §6.1): the executor dispatches and reads
 * nothing after; per-call budgets bound the dispatch. `full` on the same action reads before and
 * after. Counted on the phone's snapshot calls, not on what the executor reports of itself.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>>;
let snapshots = 0;
beforeEach(async () => {
  rig = await bridgeRig();
  const orig = rig.phone.readTree.bind(rig.phone);
  snapshots = 0;
  rig.phone.readTree = ((...a: Parameters<typeof orig>) => {
    snapshots++;
    return orig(...a);
  }) as typeof orig;
});
afterEach(async () => {
  await rig.close();
});

const wifi = (o: Observation) => o.elements.find((e) => e.label === 'Wi-Fi' && e.actionable);

describe('executor verification none', () => {
  it('makes no read after the dispatch; full reads before and after the same tap', async () => {
    const ex = makeExecutor(rig.device, rig.clock);
    // Android 14's Settings: the Wi-Fi switch is on Network & internet → Internet.
    await rig.phone.launch('com.android.settings', '.InternetSettings');
    const obs = await observe(ex);
    const target = wifi(obs);
    expect(target).toBeDefined();
    snapshots = 0;
    const none = await ex.run(
      { thought: 't', action: { tool: 'tap', target_id: target?.id }, expect: { kind: 'screen_changes' } },
      obs,
      { verification: 'none', dispatchTimeoutMs: 5_000, fresh: true },
    );
    expect(none.ok).toBe(true);
    expect(none.post).toBeUndefined();
    expect(none.outcome).toBeUndefined();
    expect(none.receipt.delivery).toBe('delivered');
    expect(snapshots).toBe(0); // its own fresh read stood in for the re-check
    expect(rig.phone.world.settings.wifi).toBe(false);

    // Not marked fresh (a decision came in between): the helper has guarded_touch, so the re-check
    // travels with the touch and the phone makes it — no read on the host, before or after.
    const seen = await observe(ex);
    snapshots = 0;
    const rechecked = await ex.run(
      { thought: 't', action: { tool: 'tap', target_id: wifi(seen)?.id }, expect: { kind: 'screen_changes' } },
      seen,
      { verification: 'none', dispatchTimeoutMs: 5_000 },
    );
    expect(rechecked.ok).toBe(true);
    expect(rechecked.post).toBeUndefined();
    expect(rechecked.reads).toBe(0);
    expect(snapshots).toBe(0);
    expect(rig.phone.world.settings.wifi).toBe(true);

    const again = await observe(ex);
    snapshots = 0;
    const full = await ex.run(
      {
        thought: 't',
        action: { tool: 'tap', target_id: wifi(again)?.id },
        expect: { kind: 'element_state', target_id: wifi(again)?.id, state: 'off' },
      },
      again,
      { verification: 'full' },
    );
    expect(full.ok).toBe(true);
    expect(snapshots).toBeGreaterThanOrEqual(3);
    expect(rig.phone.world.settings.wifi).toBe(false);
  });

  it('on a helper without guarded_touch the re-check stays a read: one before the touch, none after', async () => {
    await rig.close();
    rig = await bridgeRig({ omitCapabilities: ['guarded_touch'] });
    const orig = rig.phone.readTree.bind(rig.phone);
    rig.phone.readTree = ((...a: Parameters<typeof orig>) => {
      snapshots++;
      return orig(...a);
    }) as typeof orig;
    const ex = makeExecutor(rig.device, rig.clock);
    await rig.phone.launch('com.android.settings', '.InternetSettings');
    const seen = await observe(ex);
    snapshots = 0;
    const r = await ex.run(
      { thought: 't', action: { tool: 'tap', target_id: wifi(seen)?.id }, expect: { kind: 'screen_changes' } },
      seen,
      { verification: 'none', dispatchTimeoutMs: 5_000 },
    );
    expect(r.ok).toBe(true);
    expect(r.reads).toBe(1);
    expect(snapshots).toBe(1);
    expect(rig.phone.world.settings.wifi).toBe(false);
  });
});
