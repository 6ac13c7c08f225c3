import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, tapNode, testApp } from './engine-helpers.js';

/** Faults switchable at run time: dropped input, slow reads, latencies on the phone's clock. */

function buttonPhone(latency = {}) {
  const state = { taps: 0, text: '' };
  const app = testApp('com.test.faults', () => ({
    activity: '.Main',
    title: 'Faults',
    root: {
      kind: 'column',
      children: [
        { kind: 'button', id: 'go', text: 'Go', onTap: () => state.taps++ },
        {
          kind: 'edit',
          id: 'field',
          value: state.text,
          onChange: (v) => {
            state.text = v;
          },
        },
      ],
    },
  }));
  return { phone: new VirtualPhone({ apps: [app], latency }), state };
}

describe('faults', () => {
  it('dropInput accepts every input and changes nothing', async () => {
    const { phone, state } = buttonPhone();
    await phone.launch('com.test.faults');
    const snap = await phone.readTree();
    await tapNode(phone, byId(snap, 'field'));
    phone.faults.dropInput = true;
    expect((await phone.tap(540, (byId(snap, 'go').bounds.top + byId(snap, 'go').bounds.bottom) / 2, 50)).ok).toBe(
      true,
    );
    expect((await phone.imeCommit('abc')).ok).toBe(true);
    expect((await phone.inputText('abc')).ok).toBe(true);
    expect((await phone.key('back')).ok).toBe(true);
    const now = await phone.readTree();
    expect((await phone.nodeAction(now.seq, byId(now, 'go').id, { action: 'click' })).ok).toBe(true);
    expect(state).toEqual({ taps: 0, text: '' });
    expect(now.keyboard.shown).toBe(true);
    phone.faults.dropInput = false;
    await tapNode(phone, byId(now, 'go'));
    expect(state.taps).toBe(1);
  });

  it('tree reads take the configured latency plus the slow-tree fault, on the phone clock', async () => {
    const { phone } = buttonPhone({ treeRead: 40, uiautomatorDump: 900, screenshot: 120 });
    const t0 = phone.clock.now();
    await phone.readTree();
    expect(phone.clock.now() - t0).toBe(40);
    phone.faults.slowTreeMs = 2000;
    const t1 = phone.clock.now();
    await phone.readTree();
    expect(phone.clock.now() - t1).toBe(2040);
    const t2 = phone.clock.now();
    await phone.dumpXml();
    expect(phone.clock.now() - t2).toBe(2900);
    const t3 = phone.clock.now();
    await phone.screenshot();
    expect(phone.clock.now() - t3).toBe(120);
  });
});
