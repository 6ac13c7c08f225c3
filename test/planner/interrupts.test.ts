import { describe, expect, it } from 'vitest';
import type { WindowInfo } from '../../src/core/types.js';
import { matchInterrupt } from '../../src/planner/interrupts.js';
import { element, observation } from './fixtures.js';

const win = (id: number, title: string, pkg: string, type: WindowInfo['type'] = 'dialog', layer = 5): WindowInfo => ({
  id,
  type,
  layer,
  bounds: { left: 0, top: 0, right: 1000, bottom: 1000 },
  package: pkg,
  title,
  focused: true,
  touchable: true,
});

/** A permission controller dialog with these buttons, in this order (ids p0, p1, …). */
function permissionDialog(...buttons: string[]) {
  return observation({
    windows: [win(3, 'Permission', 'com.android.permissioncontroller')],
    elements: [
      element('pppp0000', 'Allow Maps to access this device’s location?', 3, { actionable: false }),
      ...buttons.map((b, i) => element(`pppp000${i + 1}`, b, 3)),
    ],
  });
}

describe('permission dialogs: the narrowest grant, never "always"', () => {
  it.each([
    [['While using the app', 'Only this time', "Don't allow"], 'pppp0002', 'Only this time'],
    [['使用时允许', '仅此一次', '不允许'], 'pppp0002', '仅此一次'],
    [
      ['While using the app · 使用应用时允许', 'Only this time · 仅此一次', "Don't allow · 不允许"],
      'pppp0002',
      'Only this time',
    ],
    [['Allow all the time', 'Allow only while using the app', 'Deny'], 'pppp0002', 'Allow only while using the app'],
    [['始终允许', '仅在使用中允许', '拒绝'], 'pppp0002', '仅在使用中允许'],
  ])('%j → taps %s', (buttons, id, part) => {
    const m = matchInterrupt(permissionDialog(...buttons));
    expect(m?.kind).toBe('permission');
    expect(m?.decision.action).toEqual({ tool: 'tap', target_id: id });
    expect(m?.reason).toBe(`permission dialog: granted "${part}" (narrowest)`);
    // The reason is what the step record and the report show for the rule's decision.
    expect(m?.decision.thought).toBe(m?.reason);
  });

  it('a dialog with one plain Allow grants it, and says it was the only grant offered', () => {
    const m = matchInterrupt(permissionDialog('Allow · 允许', "Don't allow · 不允许"));
    expect(m?.decision.action.target_id).toBe('pppp0001');
    expect(m?.reason).toBe('permission dialog: granted "Allow" (the only grant offered)');
  });

  it.each([
    [['Allow all the time', 'Deny']],
    [['Always allow', "Don't allow"]],
    [['始终允许', '拒绝']],
    [['Allow all the time · 始终允许', 'Deny · 拒绝']],
  ])('%j → no rule: the model or the person decides', (buttons) => {
    expect(matchInterrupt(permissionDialog(...buttons))).toBeUndefined();
  });

  it('an "always" prompt over a dismissable dialog is not bypassed by dismissing the one beneath', () => {
    const obs = observation({
      windows: [
        win(2, 'Enjoying the app?', 'com.foodshop', 'dialog', 4),
        win(3, 'Permission', 'com.android.permissioncontroller', 'system', 6),
      ],
      elements: [
        element('rrrr0001', 'Not now', 2),
        element('pppp0001', 'Allow all the time', 3),
        element('pppp0002', 'Deny', 3),
      ],
    });
    expect(matchInterrupt(obs)).toBeUndefined();
  });

  it('an app dialog asking for a permission follows the same order', () => {
    const obs = observation({
      windows: [win(2, 'Allow notifications?', 'com.foodshop')],
      elements: [element('aaaa0001', 'Always allow', 2), element('aaaa0002', 'Only this time', 2)],
    });
    expect(matchInterrupt(obs)?.decision.action.target_id).toBe('aaaa0002');
  });
});

describe('task dialogs are judged by the guard lexicon', () => {
  it.each([
    ['Top up ¥50 and get a coupon', 'Top up'],
    ['充值送红包', '充值'],
    ['Special offer: share your cart', 'Share'],
    ['Confirm order — discount applied', 'Confirm'],
  ])('"%s" with "%s" / "Close" is the task’s: no rule dismisses it', (title, button) => {
    const obs = observation({
      windows: [win(2, title, 'com.foodshop')],
      elements: [element('tttt0001', button, 2), element('tttt0002', 'Close', 2)],
    });
    expect(matchInterrupt(obs)).toBeUndefined();
  });

  it('a promo without risk words is still dismissed by rule', () => {
    const obs = observation({
      windows: [win(2, 'Special offer today', 'com.foodshop')],
      elements: [element('tttt0001', 'See deals', 2), element('tttt0002', 'Close', 2)],
    });
    expect(matchInterrupt(obs)?.decision.action.target_id).toBe('tttt0002');
  });
});
