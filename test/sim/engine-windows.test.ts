import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { AppContext } from '../../src/testbed/sim/app.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, byText, centre, tapNode, testApp } from './engine-helpers.js';

/** Windows over the app: modal dialogs, the overlay fault, banners, toasts, transitions, late content. */

function counterPhone(clock = new VirtualClock()) {
  const state = { taps: 0, allowed: 0, ctx: undefined as AppContext | undefined, late: false, loading: true };
  const app = testApp(
    'com.test.counter',
    (route, ctx) => {
      state.ctx = ctx;
      if (route.activity === '.Second') {
        return {
          activity: '.Second',
          title: 'Second',
          root: { kind: 'column', children: [{ kind: 'text', text: 'Second page' }] },
        };
      }
      return {
        activity: '.Main',
        title: 'Counter',
        loading: state.loading,
        root: {
          kind: 'column',
          padding: 16,
          gap: 8,
          children: [
            { kind: 'text', id: 'count', text: `Count ${state.taps}` },
            { kind: 'button', id: 'inc', text: 'Add one', onTap: () => state.taps++ },
            { kind: 'button', id: 'next', text: 'Next', onTap: () => ctx.navigate('.Second') },
            ...(state.late ? [{ kind: 'text' as const, id: 'late', text: 'Arrived late' }] : []),
          ],
        },
      };
    },
    {
      activities: ['.Main', '.Second'],
      onLaunch: (ctx) => {
        state.loading = true;
        ctx.later(800, () => {
          state.loading = false;
        });
        ctx.later(2000, () => {
          state.late = true;
        });
      },
    },
  );
  return { phone: new VirtualPhone({ apps: [app], clock }), state, clock };
}

describe('windows', () => {
  it('shows a loading state, then content, then content that arrives late', async () => {
    const { phone } = counterPhone();
    await phone.launch('com.test.counter');
    const loading = await phone.readTree();
    expect(loading.nodes.some((n) => n.className === 'android.widget.ProgressBar')).toBe(true);
    expect(loading.nodes.some((n) => n.resourceId.endsWith(':id/inc'))).toBe(false);
    await phone.clock.sleep(800);
    const ready = await phone.readTree();
    expect(byId(ready, 'inc').text).toBe('Add one');
    expect(ready.nodes.some((n) => n.resourceId.endsWith(':id/late'))).toBe(false);
    await phone.clock.sleep(1200);
    expect(byId(await phone.readTree(), 'late').text).toBe('Arrived late');
  });

  it('a modal dialog swallows taps outside it; its button closes it', async () => {
    const { phone, state } = counterPhone();
    await phone.launch('com.test.counter');
    await phone.clock.sleep(800);
    const inc = byId(await phone.readTree(), 'inc');
    phone.popup({
      kind: 'system',
      title: 'Allow Counter to access your contacts?',
      buttons: [
        { text: 'Allow', id: 'permission_allow_button', onTap: () => state.allowed++ },
        { text: "Don't allow", id: 'permission_deny_button', onTap: () => {} },
      ],
    });
    const snap = await phone.readTree();
    const dialog = snap.windows.find((w) => w.type === 'system');
    expect(dialog?.package).toBe('com.android.permissioncontroller');
    expect(dialog?.focused).toBe(true);
    expect(snap.windows.find((w) => w.type === 'application')?.focused).toBe(false);
    // The button behind the dialog is not under it, yet the tap is swallowed.
    const c = centre(inc);
    expect(c.y < (dialog?.bounds.top ?? 0) || c.y > (dialog?.bounds.bottom ?? 0)).toBe(true);
    await phone.tap(c.x, c.y, 50);
    expect(state.taps).toBe(0);
    await tapNode(phone, byText(snap, 'Allow'));
    expect(state.allowed).toBe(1);
    expect((await phone.readTree()).windows.some((w) => w.type === 'system')).toBe(false);
    await tapNode(phone, inc);
    expect(state.taps).toBe(1);
  });

  it('a popup at a chosen moment appears then, and back closes it', async () => {
    const { phone, clock } = counterPhone();
    await phone.launch('com.test.counter');
    phone.popup({ kind: 'app', title: 'Rate us', buttons: [{ text: 'Later', onTap: () => {} }] }, clock.now() + 1000);
    expect((await phone.readTree()).windows.some((w) => w.type === 'dialog')).toBe(false);
    await clock.sleep(1000);
    expect((await phone.readTree()).windows.some((w) => w.type === 'dialog')).toBe(true);
    await phone.key('back');
    const snap = await phone.readTree();
    expect(snap.windows.some((w) => w.type === 'dialog')).toBe(false);
    expect(snap.foreground.package).toBe('com.test.counter');
  });

  it('the transparent overlay fault swallows every tap but draws nothing', async () => {
    const { phone, state } = counterPhone();
    await phone.launch('com.test.counter');
    await phone.clock.sleep(800);
    const inc = byId(await phone.readTree(), 'inc');
    const plain = await phone.screenshot();
    phone.faults.overlay = true;
    const snap = await phone.readTree();
    const overlay = snap.windows.find((w) => w.type === 'overlay');
    expect(overlay?.touchable).toBe(true);
    expect(overlay?.bounds).toEqual({ left: 0, top: 0, right: 1080, bottom: 2400 });
    expect((await phone.screenshot()).png.equals(plain.png)).toBe(true);
    expect((await phone.tap(centre(inc).x, centre(inc).y, 50)).ok).toBe(true);
    expect(state.taps).toBe(0);
    phone.faults.overlay = false;
    await tapNode(phone, inc);
    expect(state.taps).toBe(1);
  });

  it('a toast is not touchable and goes after ~2 s; a banner is tappable and opens its app', async () => {
    const { phone, state } = counterPhone();
    await phone.launch('com.test.counter');
    await phone.clock.sleep(800);
    await phone.readTree();
    state.ctx?.toast('Saved');
    let snap = await phone.readTree();
    const toast = snap.windows.find((w) => w.type === 'toast');
    expect(toast?.touchable).toBe(false);
    expect(byText(snap, 'Saved')).toBeDefined();
    // As on a real phone, uiautomator's dump does not contain the toast.
    expect(await phone.dumpXml()).not.toContain('Saved');
    await phone.clock.sleep(2000);
    expect((await phone.readTree()).windows.some((w) => w.type === 'toast')).toBe(false);

    await phone.key('home');
    state.ctx?.notify({ title: 'Counter', text: 'You have a new count', package: 'com.test.counter' });
    snap = await phone.readTree();
    const banner = snap.windows.find((w) => w.type === 'notification');
    expect(banner).toBeDefined();
    await tapNode(phone, byText(snap, 'You have a new count'));
    expect(phone.foreground().package).toBe('com.test.counter');
    state.ctx?.notify({ title: 'Counter', text: 'Again', package: 'com.test.counter' });
    await phone.clock.sleep(4000);
    expect((await phone.readTree()).windows.some((w) => w.type === 'notification')).toBe(false);
  });

  it('toasts last 2 s (short) or 3.5 s (long) on the phone clock and stay on the screen they were shown on', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const { phone, state } = counterPhone(clock);
    await phone.launch('com.test.counter');
    clock.advance(800);
    const toasts = async () =>
      (await phone.readTree()).nodes.filter((n) => n.text === 'Short' || n.text === 'Long').map((n) => n.text);
    await phone.readTree();
    if (!state.ctx) throw new Error('the counter app has not rendered');
    state.ctx.toast('Short');
    state.ctx.toast('Long', 'long');
    expect(await toasts()).toEqual(['Short', 'Long']);
    clock.advance(1999);
    expect(await toasts()).toEqual(['Short', 'Long']);
    clock.advance(1);
    expect(await toasts()).toEqual(['Long']);
    clock.advance(1499);
    expect(await toasts()).toEqual(['Long']);
    clock.advance(1);
    expect(await toasts()).toEqual([]);

    // Shown on Main, then the user goes on to Second: the toast stays behind.
    state.ctx.toast('Short');
    const main = await phone.readTree();
    expect(main.nodes.some((n) => n.text === 'Short')).toBe(true);
    expect((await phone.nodeAction(main.seq, byId(main, 'next').id, { action: 'click' })).ok).toBe(true);
    clock.advance(100);
    expect(await toasts()).toEqual([]);
    // A handler that toasts and then navigates (save, then back) shows it on the screen it lands on.
    state.ctx.toast('Long', 'long');
    state.ctx.back();
    const landed = await phone.readTree();
    expect(landed.foreground.activity).toBe('.Main');
    expect(landed.nodes.some((n) => n.text === 'Long')).toBe(true);
  });

  it('during a ~300 ms transition the tree shows the new screen and the screenshot the old one', async () => {
    const clock = new VirtualClock({ autoAdvance: false });
    const { phone } = counterPhone(clock);
    await phone.launch('com.test.counter');
    clock.advance(800);
    const main = await phone.readTree();
    const mainShot = await phone.screenshot();
    expect(mainShot.seq).toBe(main.seq);
    // A node click: no stroke duration to wait for on this manual clock.
    expect((await phone.nodeAction(main.seq, byId(main, 'next').id, { action: 'click' })).ok).toBe(true);
    const tree = await phone.readTree();
    expect(tree.foreground.activity).toBe('.Second');
    const during = await phone.screenshot();
    expect(during.seq).toBeLessThan(tree.seq);
    expect(during.png.equals(mainShot.png)).toBe(true);
    clock.advance(150);
    expect((await phone.screenshot()).seq).toBeLessThan(tree.seq);
    clock.advance(150);
    const settled = await phone.screenshot();
    expect(settled.seq).toBe(tree.seq);
    expect(settled.png.equals(mainShot.png)).toBe(false);
  });

  it('killing the foreground app goes home and the next launch is cold', async () => {
    const { phone, state } = counterPhone();
    await phone.launch('com.test.counter');
    await phone.clock.sleep(800);
    // Timers fire when the phone is next used (any surface call).
    phone.revision();
    expect(state.loading).toBe(false);
    phone.killForeground();
    expect(phone.foreground().package).toBe('com.android.launcher3');
    await phone.launch('com.test.counter');
    expect(state.loading).toBe(true);
    expect(phone.world.launched['com.test.counter']).toBe(true);
  });

  it('a checker reading the world sees timers that came due, even if nobody looked at the screen', async () => {
    const app = testApp(
      'com.test.timer',
      () => ({ activity: '.Main', title: 'T', root: { kind: 'column', children: [] } }),
      {
        onLaunch: (ctx) => {
          ctx.later(5000, () => {
            ctx.world.toggles.arrived = 1;
          });
        },
      },
    );
    const phone = new VirtualPhone({ apps: [app] });
    await phone.launch('com.test.timer');
    expect(phone.world.toggles.arrived).toBeUndefined();
    await phone.clock.sleep(5000);
    expect(phone.world.toggles.arrived).toBe(1);
  });
});
