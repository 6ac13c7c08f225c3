import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import type { Executor } from '../../src/executor/executor.js';
import { validate } from '../../src/executor/validator.js';
import { REGISTRY } from '../../src/tools/index.js';
import { bridgeRig, decision, el, makeExecutor, observe } from './helpers.js';

/**
 * `element_gone` on the virtual phone: perception leaves out what a window above covers, so a
 * dialog over a button must not read as the button gone (the catalog's FILE-01 under a rating
 * popup ended in a false done this way), while a button whose own window closed is gone.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function settings(): Promise<{ ex: Executor; obs: Observation }> {
  rig = await bridgeRig({ seed: 1 });
  const ex = makeExecutor(rig.device, rig.clock);
  await rig.phone.launch('Settings');
  return { ex, obs: await observe(ex) };
}

const RATING = {
  kind: 'app' as const,
  title: 'Enjoying the app?',
  message: 'Tap "Rate now" to continue.',
  buttons: [
    { text: 'Not now', onTap: () => {} },
    { text: 'Rate now', onTap: () => {} },
  ],
};

describe('element_gone', () => {
  it('fails when a dialog only covers the element, naming the dialog', async () => {
    const { ex, obs: pre } = await settings();
    const display = el(pre, 'Display');
    rig!.phone.popup(RATING);
    const post = await observe(ex, pre);
    // Perception drops the covered row, which is what made "gone" hold before.
    expect(post.elements.some((e) => e.id === display.id)).toBe(false);
    const r = validate(
      REGISTRY.table,
      { kind: 'element_gone' },
      pre,
      post,
      { tool: 'tap', target_id: display.id },
      display,
    );
    expect(r.ok).toBe(false);
    expect(r.reason).toBe(
      `"Display" [${display.id}] is not gone: a dialog ("Enjoying the app?") covers it; act on what is in front`,
    );
    // page_changes still holds: a dialog did come up.
    expect(
      validate(REGISTRY.table, { kind: 'page_changes' }, pre, post, { tool: 'tap', target_id: display.id }, display).ok,
    ).toBe(true);
  });

  it('holds when the element left with its window, and when a tap navigated away', async () => {
    const { ex, obs: home } = await settings();
    rig!.phone.popup(RATING);
    const withDialog = await observe(ex, home);
    const notNow = el(withDialog, 'Not now');
    const dismissed = await ex.run(
      decision({ tool: 'tap', target_id: notNow.id }, { kind: 'element_gone' }),
      withDialog,
    );
    const back = dismissed.post ?? (await observe(ex, withDialog));
    expect(
      validate(
        REGISTRY.table,
        { kind: 'element_gone' },
        withDialog,
        back,
        { tool: 'tap', target_id: notNow.id },
        notNow,
      ).ok,
    ).toBe(true);

    const display = el(back, 'Display');
    const opened = await ex.run(decision({ tool: 'tap', target_id: display.id }, { kind: 'element_gone' }), back);
    const page = opened.post ?? (await observe(ex, back));
    expect(page.app.activity).not.toBe(back.app.activity);
    expect(
      validate(REGISTRY.table, { kind: 'element_gone' }, back, page, { tool: 'tap', target_id: display.id }, display)
        .ok,
    ).toBe(true);
  });
});
