import { describe, expect, it } from 'vitest';
import { BOUNDS_PX, compareTrees } from '../../src/cli/verify/tree-compare.js';
import type { WireSnapshot } from '../../src/device/protocol/wire.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';

/**
 * verify-device's tree check on a real tree of the virtual phone's Settings, against a "dump" that
 * differs the ways a phone's uiautomator can: a label missing, a node moved, a label only it has.
 */

async function settingsTree(): Promise<WireSnapshot> {
  const phone = new VirtualPhone({ seed: 3 });
  expect((await phone.launch('com.android.settings')).ok).toBe(true);
  await phone.clock.sleep(500);
  return phone.readTree();
}

const clone = (s: WireSnapshot): WireSnapshot => JSON.parse(JSON.stringify(s)) as WireSnapshot;

describe('verify-device: the helper tree against uiautomator dump', () => {
  it('the same tree matches every label at the same bounds', async () => {
    const t = await settingsTree();
    const c = compareTrees(t, clone(t));
    expect(c.foreground).toBe('com.android.settings');
    expect(c.helperLabels).toBeGreaterThan(5);
    expect(c).toMatchObject({ matched: c.helperLabels, dumpLabels: c.helperLabels, boundsOff: 0, agreement: 1 });
  });

  it('counts a missing label, a moved node and a label only the dump has; masks what it lists', async () => {
    const t = await settingsTree();
    const dump = clone(t);
    const labelled = dump.nodes.filter((n) => n.flags.visible && n.text && n.package === t.foreground.package);
    const [gone, moved, renamed] = labelled;
    if (!gone || !moved || !renamed) throw new Error('the Settings page has fewer than three labels');
    const goneLabel = gone.text;
    gone.text = '';
    gone.desc = '';
    moved.bounds = {
      ...moved.bounds,
      top: moved.bounds.top + BOUNDS_PX + 4,
      bottom: moved.bounds.bottom + BOUNDS_PX + 4,
    };
    const was = renamed.text;
    renamed.text = 'Call 13812345678';
    const c = compareTrees(t, dump);
    expect(c.matched).toBe(c.helperLabels - 2);
    expect(c.boundsOff).toBe(1);
    expect(c.maxBoundsPx).toBe(BOUNDS_PX + 4);
    expect([...c.onlyHelper].sort()).toEqual([goneLabel, was].sort());
    expect(c.onlyDump).toHaveLength(1);
    expect(c.onlyDump[0]).not.toContain('13812345678');
    expect(c.agreement).toBeLessThan(1);
  });
});
