import { describe, expect, it } from 'vitest';
import { GUARD_SCENARIOS } from './guard-scenarios.js';
import { bridgeRig, decision, drive, el, makeExecutor, observe, ScriptedConfirmation } from './helpers.js';

/** The guarded categories (and their deny paths) through the helper bridge. */
describe('guardrails on the virtual phone (bridge)', () => {
  for (const [name, run] of GUARD_SCENARIOS)
    it(name, async () => {
      const rig = await bridgeRig();
      try {
        await run(rig);
      } finally {
        await rig.close();
      }
    });
});

/** An action_sequence is guarded by what its members do, not by the page it runs on. */
describe('guardrails on an action_sequence (bridge: the helper runs sequences)', () => {
  const seq = (members: { target_id: string; action: string; text?: string }[]) =>
    decision(
      {
        tool: 'action_sequence',
        args: {
          actions: members.map((m) => ({
            tool: 'control_action',
            target_id: m.target_id,
            args: { action: m.action, ...(m.text !== undefined ? { text: m.text } : {}) },
          })),
        },
      },
      { kind: 'screen_changes' },
    );

  it('typing into the reply box is not a send; a member that clicks Send is, and is denied', async () => {
    const rig = await bridgeRig();
    try {
      const chan = new ScriptedConfirmation(() => 'denied');
      const ex = makeExecutor(rig.device, rig.clock, { confirm: chan });
      const o = await drive(ex, await observe(ex), [
        { tool: 'launch_app', package: 'com.android.messaging' },
        '妈妈 11-14 17:23 还不确定，晚点告诉你。',
      ]);
      const field = el(o, 'Text message');
      const typed = await ex.run(seq([{ target_id: field.id, action: 'set_text', text: 'On my way' }]), o);
      expect(chan.asked).toEqual([]);
      expect(typed.ok).toBe(true);
      const after = typed.post ?? o;
      const send = el(after, 'Send');
      const both = seq([
        { target_id: el(after, 'Text message').id, action: 'set_text', text: 'On my way!' },
        { target_id: send.id, action: 'click' },
      ]);
      const denied = await ex.run(both, after);
      expect(denied.receipt.status).toBe('cancelled');
      expect(chan.asked.at(-1)?.categories).toEqual(['send']);
      expect(chan.asked.at(-1)?.summary).toMatch(/click "Send"/);
      expect(rig.phone.world.sent).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});
