import { afterEach, describe, expect, it } from 'vitest';
import { answerGrounded, CompletionTracker } from '../../src/agent/completion.js';
import { createDevicePorts } from '../../src/agent/device-ports.js';
import type { AgentPorts } from '../../src/agent/ports.js';
import { Logger } from '../../src/core/logger.js';
import type { Decision, Observation } from '../../src/core/types.js';
import { PolicyConfirmation } from '../../src/executor/guardrails/confirm.js';
import { mistakes, type StateChange } from '../../src/executor/side-effects.js';
import { bridgeRig, decision, el } from '../executor/helpers.js';

/**
 * The completion check over the agent's device ports on the virtual phone: a mis-tap's change
 * blocks "done" until it is seen put back, "done" right after a failed action is questioned, and an
 * answer must have been on a screen. A model that insists is believed after two questions.
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

interface Driven {
  p: AgentPorts;
  t: CompletionTracker;
  /** The completion check on a terminal decision, as the loop's preflight runs it. */
  checkFinish: (d: Decision, obs: Observation) => { ok: boolean; reason?: string; handOver?: boolean };
}

async function ports(): Promise<Driven & { obs: Observation }> {
  rig = await bridgeRig({ seed: 1 });
  const p = createDevicePorts({ device: rig.device, clock: rig.clock, logger: Logger.silent(), screenshots: false });
  await rig.phone.launch('Settings');
  // Quick settings pulled down over Settings: the Wi-Fi and Bluetooth tiles side by side.
  await rig.phone.swipe(540, 20, 540, 1400, 400);
  await rig.clock.sleep(500);
  rig.phone.world.settings.bluetooth = false;
  const t = new CompletionTracker();
  const obs = (await p.observe()).obs;
  t.observe(obs);
  return { p, t, obs, checkFinish: (d, o) => t.check(d.action, o) };
}

/** Execute through the one pipeline and record the evidence, as the loop does. */
async function step(dr: Driven, obs: Observation, d: Decision) {
  const exec = await dr.p.execute({
    decision: d,
    obs,
    dryRun: false,
    fresh: false,
    confirm: new PolicyConfirmation({ send: 'allow', payment: 'allow', delete: 'allow', account: 'allow' }),
    events: async () => {},
  });
  const post = exec.post?.obs ?? obs;
  const out = { ok: exec.ok, reason: exec.error };
  dr.t.record(out, exec.post?.obs, exec.changes);
  return { out, post };
}

const done = (answer?: string): Decision =>
  decision({ tool: 'done', ...(answer ? { answer } : {}) }, { kind: 'no_change' });

describe('completion check through the device ports', () => {
  it('reports a mis-tap with its undo, refuses done until the change is put back, then accepts', async () => {
    const dr = await ports();
    const { obs } = dr;
    const wifi = el(obs, 'Wi-Fi');
    const bt = el(obs, 'Bluetooth');
    const wrong = await step(
      dr,
      obs,
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
    );
    expect(wrong.out.ok).toBe(false);
    expect(wrong.out.reason).toContain(`undo: tap [${bt.id}] expect element_state ${bt.id} off`);
    const early = dr.checkFinish(done(), wrong.post);
    expect(early?.ok).toBe(false);
    expect(early?.reason).toMatch(/mistakes never put back: "Bluetooth" off→on/);

    const undo = await step(
      dr,
      wrong.post,
      decision({ tool: 'tap', target_id: bt.id }, { kind: 'element_state', target_id: bt.id, state: 'off' }),
    );
    expect(undo.out.ok).toBe(true);
    const meant = await step(
      dr,
      undo.post,
      decision({ tool: 'tap', target_id: wifi.id }, { kind: 'element_state', target_id: wifi.id, state: 'off' }),
    );
    expect(meant.out.ok).toBe(true);
    expect(dr.checkFinish(done(), meant.post)).toMatchObject({ ok: true });
    expect(rig!.phone.world.settings).toMatchObject({ wifi: false, bluetooth: false });
  });

  it('questions done right after a failed action and an answer no screen showed', async () => {
    const dr = await ports();
    const { obs } = dr;
    const wifi = el(obs, 'Wi-Fi');
    // A wait for text that never shows fails its check (and changes nothing).
    const failed = await step(
      dr,
      obs,
      decision({ tool: 'wait', ms: 200 }, { kind: 'text_appears', text: 'Airplane mode is on' }),
    );
    expect(failed.out.ok).toBe(false);
    expect(dr.checkFinish(done(), failed.post)?.reason).toMatch(/last action failed its check/);

    const fine = await step(
      dr,
      failed.post,
      decision(
        { tool: 'tap', target_id: el(failed.post, 'Wi-Fi').id },
        { kind: 'element_state', target_id: el(failed.post, 'Wi-Fi').id, state: wifi.flags.checked ? 'off' : 'on' },
      ),
    );
    expect(fine.out.ok).toBe(true);
    expect(dr.checkFinish(done('Bluetooth'), fine.post)).toMatchObject({ ok: true });
    expect(dr.checkFinish(done('Pixel 9 Pro'), fine.post)?.reason).toMatch(/not on any screen/);
  });

  it('launch_app by a localized label expecting that label in front: 时钟 is com.android.deskclock', async () => {
    rig = await bridgeRig({ seed: 1, locale: 'zh' });
    const p = createDevicePorts({ device: rig.device, clock: rig.clock, logger: Logger.silent(), screenshots: false });
    const dr: Driven = { p, t: new CompletionTracker(), checkFinish: () => ({ ok: true }) };
    const home = (await p.observe()).obs;
    const launched = await step(
      dr,
      home,
      decision({ tool: 'launch_app', package: '时钟' }, { kind: 'app_foreground', package: '时钟' }),
    );
    expect(launched.post.app.package).toBe('com.android.deskclock');
    expect(launched.out).toMatchObject({ ok: true });
    // A label that is not the app launched still fails.
    const wrong = await step(
      dr,
      home,
      decision({ tool: 'launch_app', package: '设置' }, { kind: 'app_foreground', package: '时钟' }),
    );
    expect(wrong.out.ok).toBe(false);
  });

  it('a tap on the launcher icon 时钟 expecting app_foreground 时钟 holds, by the same rule as launch_app', async () => {
    rig = await bridgeRig({ seed: 1, locale: 'zh' });
    const p = createDevicePorts({ device: rig.device, clock: rig.clock, logger: Logger.silent(), screenshots: false });
    const dr: Driven = { p, t: new CompletionTracker(), checkFinish: () => ({ ok: true }) };
    const home = (await p.observe()).obs;
    const icon = (label: string) => {
      const e = home.elements.find((x) => x.actionable && x.label === label);
      if (!e) throw new Error(`no icon "${label}" on the home screen: ${home.elements.map((x) => x.label).join(', ')}`);
      return e;
    };
    const clock = icon('时钟');
    const tapped = await step(
      dr,
      home,
      decision({ tool: 'tap', target_id: clock.id }, { kind: 'app_foreground', package: '时钟' }),
    );
    expect(tapped.post.app.package).toBe('com.android.deskclock');
    expect(tapped.out).toMatchObject({ ok: true });
    // The icon tapped is the evidence: another icon's label, or a name the tap did not use, fails.
    await rig.phone.key('home');
    await rig.clock.sleep(500);
    const again = (await p.observe()).obs;
    const settings = again.elements.find((x) => x.actionable && x.label === '设置');
    if (!settings) throw new Error('no 设置 icon on the home screen');
    const wrong = await step(
      dr,
      again,
      decision({ tool: 'tap', target_id: settings.id }, { kind: 'app_foreground', package: '时钟' }),
    );
    expect(wrong.post.app.package).toBe('com.android.settings');
    expect(wrong.out.ok).toBe(false);
  });

  it('a summary may quote a slider as the listing shows it ("26/255"); a made-up level still fails', async () => {
    rig = await bridgeRig({ seed: 1 });
    const p = createDevicePorts({ device: rig.device, clock: rig.clock, logger: Logger.silent(), screenshots: false });
    rig.phone.world.settings.brightness = 26;
    await rig.phone.launch('com.android.settings', '.DisplaySettings');
    await rig.clock.sleep(500);
    const obs = (await p.observe()).obs;
    const slider = obs.elements.find((e) => e.range);
    expect(slider?.range).toMatchObject({ current: 26, max: 255 });
    const t = new CompletionTracker();
    const goal = { goal: 'Set screen brightness to about 10%.' };
    expect(t.check(done('Brightness level slider shows 26/255 (about 10%)').action, obs, goal)).toEqual({ ok: true });
    expect(t.check(done('Brightness level 40/255').action, obs, goal).ok).toBe(false);
  });
});

describe('CompletionTracker', () => {
  it("a summary read off a drawn screen (a map's zoom) is not refused for its number; an answer still is", () => {
    const drawn = {
      app: { package: 'com.maps', activity: '.Map', title: '' },
      elements: [],
      texts: ['Maps'],
      visualFirst: true,
    } as unknown as Observation;
    const task = { goal: 'Show the Eiffel Tower on the map at zoom ≥ 15.' };
    expect(new CompletionTracker().check({ tool: 'done', answer: 'Shown at zoom z 15.1' }, drawn, task)).toEqual({
      ok: true,
    });
    const tree = { ...drawn, visualFirst: false } as unknown as Observation;
    expect(new CompletionTracker().check({ tool: 'done', answer: 'Shown at zoom z 15.1' }, tree, task).ok).toBe(false);
    const question = { goal: 'What zoom level is the map at? Number only.' };
    expect(new CompletionTracker().check({ tool: 'done', answer: '15.1' }, drawn, question).ok).toBe(false);
  });

  it('after a failed check, done is accepted once the screen confirms it: a read or look, or the check holding now', () => {
    const screen = (texts: string[]) =>
      ({
        app: { package: 'p', activity: '.A', title: '' },
        elements: [],
        texts,
        windows: [],
        keyboard: { shown: false },
      }) as unknown as Observation;
    const done = { tool: 'done' as const };
    const t = new CompletionTracker();
    t.record(
      { ok: false, reason: '"Cart (1)" is not on the page', expect: { kind: 'text_appears', text: 'Cart (1)' } },
      undefined,
      [],
    );
    const refused = t.check(done, screen(['Cart (0)']));
    expect(refused).toEqual({
      ok: false,
      reason:
        'the last action failed its check ("Cart (1)" is not on the page); done is accepted after an action whose expect is met, or after a read or look at what shows the goal reached',
    });
    // The counter updated late: the failed expectation holds on the screen the done is claimed on.
    expect(t.check(done, screen(['Cart (1)']))).toEqual({ ok: true });
    // A check that needs a before (page_changes) cannot be re-checked: the model's read or look counts.
    const u = new CompletionTracker();
    u.record({ ok: false, reason: 'the page hash is the same', expect: { kind: 'page_changes' } }, undefined, []);
    expect(u.check(done, screen(['Saved'])).ok).toBe(false);
    u.confirmedOnScreen();
    expect(u.check(done, screen(['Saved']))).toEqual({ ok: true });
    // And it survives a checkpoint.
    const v = new CompletionTracker();
    v.record({ ok: false, reason: 'x', expect: { kind: 'text_appears', text: 'Cart (1)' } }, undefined, []);
    const back = CompletionTracker.fromJSON(JSON.parse(JSON.stringify(v.toJSON())));
    expect(back.check(done, screen(['Cart (1)']))).toEqual({ ok: true });
  });

  it('believes a model that insists after two questions', () => {
    const t = new CompletionTracker({ maxRejections: 2 });
    t.record({ ok: false, reason: 'element x is not "on"' }, undefined, []);
    const obs = { app: { package: 'p', activity: '.A', title: '' }, elements: [], texts: [] } as unknown as Observation;
    const a = { tool: 'done' as const };
    expect(t.check(a, obs).ok).toBe(false);
    expect(t.check(a, obs).ok).toBe(false);
    expect(t.check(a, obs).ok).toBe(true);
    // A mistake seen on the phone and never put back is not given up on: a person takes over.
    const m = new CompletionTracker({ maxRejections: 1 });
    const post = {
      app: { package: 'p', activity: '.A', title: '' },
      elements: [],
      texts: [],
    } as unknown as Observation;
    m.record({ ok: false }, post, [{ kind: 'checked', id: 'x', label: 'Extra shot', from: 'off', to: 'on' }]);
    expect(m.check(a, obs)).toMatchObject({ ok: false });
    expect(m.check(a, obs)).toMatchObject({ ok: false, handOver: true });
    // infeasible is never held back.
    expect(new CompletionTracker().check({ tool: 'infeasible', reason: 'x' }, obs).ok).toBe(true);
  });

  it('keeps only the option that came on by mistake in an exclusive group', () => {
    const swap: StateChange[] = [
      { kind: 'checked', id: 'm', label: 'Medium', from: 'on', to: 'off' },
      { kind: 'checked', id: 'l', label: 'Large', from: 'off', to: 'on' },
    ];
    expect(mistakes(swap).map((c) => c.id)).toEqual(['l']);
    const flips: StateChange[] = [{ kind: 'checked', id: 'x', label: 'Extra shot', from: 'on', to: 'off' }];
    expect(mistakes(flips)).toEqual(flips);
  });

  it('grounds answers by their numbers and words', () => {
    const seen = ['Model 型号', 'Pixel 7', 'Android version', '14', 'Battery 85%'];
    expect(answerGrounded('Pixel 7', seen)).toBe(true);
    expect(answerGrounded('pixel 7.', seen)).toBe(true);
    expect(answerGrounded('The battery is at 85%', seen)).toBe(true);
    expect(answerGrounded('Pixel 8', seen)).toBe(false);
    // A summary quoting an element id from the listing claims no number (a relay model did this).
    expect(answerGrounded('The switch [e5e22768] shows off', seen, { question: false })).toBe(true);
    expect(answerGrounded('The switch [e5e22768] shows 93%', seen, { question: false })).toBe(false);
    expect(answerGrounded('Galaxy S23', seen)).toBe(false);
    // Leading zeros do not matter; a summary is judged by its numbers; "Done" claims nothing.
    expect(answerGrounded('Alarm set for 8:45', ['08:45', 'Gym'])).toBe(true);
    expect(answerGrounded('Alarm set for 9:45', ['08:45', 'Gym'])).toBe(false);
    expect(answerGrounded('Turned Wi-Fi off as you asked', seen)).toBe(true);
    expect(answerGrounded('Done', seen)).toBe(true);
  });

  it('judges answers by value for questions only: summaries of a task pass, a wrong number still fails', () => {
    const seen = ['Wi-Fi', 'Bluetooth', 'Mobile +1 650-555-9734', '可用余额 ¥44,321.94', 'Battery 85%'];
    // A task's done text is a summary: not read off a screen, judged by its numbers only.
    const task = { question: false };
    expect(answerGrounded('Wi-Fi is off', seen, task)).toBe(true);
    expect(answerGrounded('已关闭WLAN并打开蓝牙。', seen, task)).toBe(true);
    expect(answerGrounded('Set brightness to 40%', seen, task)).toBe(false);
    // A question's answer is judged by value: phone digits, thousands separators, currency.
    const q = { question: true };
    expect(answerGrounded('16505559734', seen, q)).toBe(true);
    expect(answerGrounded('+1 (650) 555-9734', seen, q)).toBe(true);
    expect(answerGrounded('16505559735', seen, q)).toBe(false);
    expect(answerGrounded('44321.94', seen, q)).toBe(true);
    expect(answerGrounded('您的可用余额为 ¥44,321.94。', seen, q)).toBe(true);
    expect(answerGrounded('44,321.95', seen, q)).toBe(false);
    expect(answerGrounded('Galaxy S23', seen, q)).toBe(false);
  });

  it('takes the goal into account: a summary ends a task, a made-up answer to a question does not', () => {
    const obs = {
      app: { package: 'p', activity: '.A', title: '' },
      elements: [],
      texts: ['Wi-Fi', 'Bluetooth'],
    } as unknown as Observation;
    const t = new CompletionTracker();
    expect(t.check({ tool: 'done', answer: 'Wi-Fi is off' }, obs, { goal: 'Turn Wi-Fi off.' }).ok).toBe(true);
    const q = new CompletionTracker();
    const v = q.check({ tool: 'done', answer: 'Galaxy S23' }, obs, { goal: 'Which phone model is this?' });
    expect(v).toMatchObject({ ok: false, reason: expect.stringMatching(/not on any screen/) });
  });
});

describe('answers computed from shown numbers (issue 21 round 3)', () => {
  const screen = (texts: string[]) =>
    ({ app: { package: 'p', activity: '.A', title: '' }, elements: [], texts }) as unknown as Observation;
  it('accepts the time between two shown times and a total of two shown prices; not an invented number', () => {
    const goal = 'How long is the team offsite?';
    const t = new CompletionTracker({ maxRejections: 5 });
    const o = screen(['Team offsite', '09:30', '11:15', 'Coffee ¥18', 'Bagel ¥12']);
    expect(t.check({ tool: 'done', answer: 'It lasts 1 hour 45 minutes' }, o, { goal }).ok).toBe(true);
    expect(t.check({ tool: 'done', answer: '105 minutes' }, o, { goal }).ok).toBe(true);
    expect(t.check({ tool: 'done', answer: 'Both cost ¥30 together' }, o, { goal }).ok).toBe(true);
    expect(t.check({ tool: 'done', answer: 'It lasts 2 hours 10 minutes' }, o, { goal }).ok).toBe(false);
    expect(t.check({ tool: 'done', answer: '95 minutes' }, o, { goal }).ok).toBe(false);
  });

  it('accepts the gap between two times shown to the second; the refusal names the number it did not see', () => {
    // A recording's readout and its watermark (a relay player, REC-01: "26 s apart" was refused unnamed).
    const goal = 'Go to 16:49:41 in the backyard recording and pause there.';
    const o = screen(['Current time', '16:49:41', 'CAM-2 2026-11-30 16:50:07']);
    const t = new CompletionTracker({ maxRejections: 5 });
    expect(t.check({ tool: 'done', answer: 'Paused at 16:49:41; the watermark is 26 s ahead' }, o, { goal }).ok).toBe(
      true,
    );
    const wrong = t.check({ tool: 'done', answer: 'Paused at 16:49:41; the watermark is 31 s ahead' }, o, { goal });
    expect(wrong.ok).toBe(false);
    expect(wrong.ok === false && wrong.reason).toMatch(/names a number \(31\) neither the task nor any screen/);
  });
});
