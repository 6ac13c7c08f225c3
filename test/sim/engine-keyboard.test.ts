import { describe, expect, it } from 'vitest';
import type { View } from '../../src/testbed/sim/kit/view.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, tapNode, testApp } from './engine-helpers.js';

/** The keyboard opens on focus, the app window resizes, and what was low on the screen moves. */

function loginPhone() {
  const state = { email: '', taps: 0, submitted: 0 };
  const app = testApp('com.test.login', () => ({
    activity: '.Main',
    title: 'Login',
    root: {
      kind: 'column',
      padding: 24,
      gap: 16,
      children: [
        { kind: 'text', text: 'Sign in' },
        {
          kind: 'edit',
          id: 'email',
          value: state.email,
          hint: 'Email',
          onChange: (v) => {
            state.email = v;
          },
          onSubmit: () => {
            state.submitted++;
          },
        },
        { kind: 'column', children: [], height: 'fill' },
        { kind: 'button', id: 'login', text: 'Log in', onTap: () => state.taps++ },
      ],
    },
  }));
  const phone = new VirtualPhone({ apps: [app] });
  return { phone, state };
}

describe('keyboard and adjustResize', () => {
  it('moves a low button when the keyboard opens, and back closes the keyboard first', async () => {
    const { phone, state } = loginPhone();
    expect((await phone.launch('com.test.login')).ok).toBe(true);
    await phone.clock.sleep(400);
    const before = await phone.readTree();
    expect(before.keyboard.shown).toBe(false);
    const loginBefore = byId(before, 'login');
    await tapNode(phone, byId(before, 'email'));
    const after = await phone.readTree();
    expect(after.keyboard.shown).toBe(true);
    const ime = after.windows.find((w) => w.type === 'input_method');
    expect(ime).toBeDefined();
    expect(ime?.bounds.top).toBe(after.keyboard.bounds?.top);
    // The IME covers roughly the bottom 40% of the screen.
    const share = (after.screen.height - (ime?.bounds.top ?? 0)) / after.screen.height;
    expect(share).toBeGreaterThan(0.35);
    expect(share).toBeLessThan(0.45);
    const app = after.windows.find((w) => w.type === 'application');
    expect(app?.bounds.bottom).toBe(ime?.bounds.top);
    const loginAfter = byId(after, 'login');
    expect(loginAfter.bounds.top).toBeLessThan(loginBefore.bounds.top);
    expect(loginAfter.bounds.bottom).toBeLessThanOrEqual(ime?.bounds.top ?? 0);
    expect(byId(after, 'email').flags.focused).toBe(true);

    // Tapping where the button used to be now hits the keyboard, not the button.
    const r = await phone.tap(
      Math.round((loginBefore.bounds.left + loginBefore.bounds.right) / 2),
      Math.round((loginBefore.bounds.top + loginBefore.bounds.bottom) / 2),
      50,
    );
    expect(r.ok).toBe(true);
    expect(state.taps).toBe(0);

    expect((await phone.key('back')).ok).toBe(true);
    const closed = await phone.readTree();
    expect(closed.keyboard.shown).toBe(false);
    expect(closed.foreground.package).toBe('com.test.login');
    expect(byId(closed, 'login').bounds).toEqual(loginBefore.bounds);
    await phone.key('back');
    expect(phone.foreground().package).toBe('com.android.launcher3');
  });

  it('typing on the keyboard keys inserts letters and enter submits', async () => {
    const { phone, state } = loginPhone();
    await phone.launch('com.test.login');
    await tapNode(phone, byId(await phone.readTree(), 'email'));
    for (const letter of ['h', 'i']) {
      const snap = await phone.readTree();
      const key = snap.nodes.find((n) => n.desc === letter && n.package === 'com.android.inputmethod.latin');
      expect(key).toBeDefined();
      if (key) await tapNode(phone, key);
    }
    expect(state.email).toBe('hi');
    // Shift is one-shot; ?123 shows digits and symbols.
    const press = async (desc: string) => {
      const snap = await phone.readTree();
      const key = snap.nodes.find((n) => n.desc === desc && n.package === 'com.android.inputmethod.latin');
      if (!key) throw new Error(`no key ${desc}: ${snap.nodes.map((n) => n.desc).join(' ')}`);
      await tapNode(phone, key);
    };
    for (const k of ['Shift', 'A', 'b', 'Symbols', '@', '1', 'Letters', 'c']) await press(k);
    expect(state.email).toBe('hiAb@1c');
    await phone.key('enter');
    expect(state.submitted).toBe(1);
    await phone.key('delete');
    expect(state.email).toBe('hiAb@1');
  });

  it('shifts tall content up so the focused field stays visible', async () => {
    let value = '';
    const filler: View[] = Array.from({ length: 9 }, (_, i) => ({ kind: 'text', text: `Paragraph ${i}`, height: 72 }));
    const app = testApp('com.test.tall', () => ({
      activity: '.Main',
      title: 'Tall',
      root: {
        kind: 'column',
        children: [
          { kind: 'text', id: 'top_label', text: 'Top' },
          ...filler,
          {
            kind: 'edit',
            id: 'note',
            value,
            hint: 'Note',
            onChange: (v) => {
              value = v;
            },
          },
        ],
      },
    }));
    const phone = new VirtualPhone({ apps: [app] });
    await phone.launch('com.test.tall');
    const before = await phone.readTree();
    const note = byId(before, 'note');
    expect(note.flags.visible).toBe(true);
    await tapNode(phone, note);
    const after = await phone.readTree();
    const ime = after.keyboard.bounds;
    const moved = byId(after, 'note');
    expect(moved.flags.visible).toBe(true);
    expect(moved.bounds.bottom).toBeLessThanOrEqual(ime?.top ?? 0);
    expect(moved.bounds.top).toBeLessThan(note.bounds.top);
    // The top of the content left the window: still in the tree, not visible to the user, not in the dump.
    expect(byId(after, 'top_label').flags.visible).toBe(false);
    expect(await phone.dumpXml()).not.toContain('com.test.tall:id/top_label');
  });

  it('with the agent IME current, a slim bar replaces the keys and the window shrinks less', async () => {
    const { phone } = loginPhone();
    expect(phone.setIme('com.phoneagent.ime/.AgentIme')).toBe(false);
    expect(phone.enableIme('com.phoneagent.ime/.AgentIme', true)).toBe(true);
    expect(phone.setIme('com.phoneagent.ime/.AgentIme')).toBe(true);
    expect(phone.getSetting('secure', 'default_input_method')).toBe('com.phoneagent.ime/.AgentIme');
    await phone.launch('com.test.login');
    await tapNode(phone, byId(await phone.readTree(), 'email'));
    const snap = await phone.readTree();
    const ime = snap.windows.find((w) => w.type === 'input_method');
    expect(ime?.package).toBe('com.phoneagent.ime');
    expect((ime?.bounds.bottom ?? 0) - (ime?.bounds.top ?? 0)).toBeLessThan(snap.screen.height * 0.1);
    expect(snap.keyboard.bounds?.top).toBe(ime?.bounds.top);
  });

  it('the picture lags the tree while the keyboard slides in', async () => {
    const { phone } = loginPhone();
    await phone.launch('com.test.login');
    await phone.clock.sleep(400);
    const snap = await phone.readTree();
    const r = await phone.nodeAction(snap.seq, byId(snap, 'email').id, { action: 'click' });
    expect(r.ok).toBe(true);
    const tree = await phone.readTree();
    expect(tree.keyboard.shown).toBe(true);
    expect((await phone.screenshot()).seq).toBeLessThan(tree.seq);
    await phone.clock.sleep(300);
    expect((await phone.screenshot()).seq).toBe(tree.seq);
  });
});
