import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';
import { byId, tapNode, testApp } from './engine-helpers.js';

/** Each text path: set_text (Unicode), IME commit (Unicode), `input text` (ASCII only), selections. */

function formPhone() {
  const state = { name: 'prefilled', pin: '', level: 5, submitted: 0 };
  const app = testApp('com.test.form', () => ({
    activity: '.Main',
    title: 'Form',
    root: {
      kind: 'column',
      padding: 16,
      gap: 8,
      children: [
        {
          kind: 'edit',
          id: 'name',
          value: state.name,
          hint: 'Name',
          onChange: (v) => {
            state.name = v;
          },
          onSubmit: () => {
            state.submitted++;
          },
        },
        {
          kind: 'edit',
          id: 'pin',
          value: state.pin,
          hint: 'PIN',
          password: true,
          onChange: (v) => {
            state.pin = v;
          },
        },
        {
          kind: 'seekbar',
          id: 'level',
          min: 0,
          max: 10,
          value: state.level,
          onChange: (v) => {
            state.level = v;
          },
        },
        { kind: 'button', id: 'off', text: 'Disabled', enabled: false, onTap: () => state.submitted++ },
      ],
    },
  }));
  return { phone: new VirtualPhone({ apps: [app] }), state };
}

describe('text input paths', () => {
  it('set_text replaces the value with Unicode text and reports it back', async () => {
    const { phone, state } = formPhone();
    await phone.launch('com.test.form');
    const snap = await phone.readTree();
    const name = byId(snap, 'name');
    expect(name.text).toBe('prefilled');
    expect(name.actions).toContain('set_text');
    const r = await phone.nodeAction(snap.seq, name.id, { action: 'set_text', text: '张三 😀' });
    expect(r.ok).toBe(true);
    expect(state.name).toBe('张三 😀');
    const back = byId(await phone.readTree(), 'name');
    expect(back.text).toBe('张三 😀');
    expect(back.selection).toEqual({ start: 5, end: 5 });
  });

  it('IME commit inserts Unicode at the cursor of the focused field', async () => {
    const { phone, state } = formPhone();
    await phone.launch('com.test.form');
    expect(await phone.imeCommit('x')).toMatchObject({ ok: false, code: 'UNAVAILABLE' });
    await tapNode(phone, byId(await phone.readTree(), 'name'));
    expect((await phone.imeCommit(' 中文 ✓')).ok).toBe(true);
    expect(state.name).toBe('prefilled 中文 ✓');
  });

  it('input text accepts ASCII and fails on anything else, like a real phone', async () => {
    const { phone, state } = formPhone();
    await phone.launch('com.test.form');
    await tapNode(phone, byId(await phone.readTree(), 'name'));
    expect((await phone.inputText('!ok 1')).ok).toBe(true);
    expect(state.name).toBe('prefilled!ok 1');
    const bad = await phone.inputText('café');
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    if (!bad.ok) {
      expect(bad.message).toContain('ASCII');
      expect(bad.message).not.toContain('café');
    }
    expect(state.name).toBe('prefilled!ok 1');
  });

  it('selections use UTF-16 indices and never split a surrogate pair', async () => {
    const { phone, state } = formPhone();
    await phone.launch('com.test.form');
    let snap = await phone.readTree();
    await phone.nodeAction(snap.seq, byId(snap, 'name').id, { action: 'set_text', text: 'A😀B中文' });
    snap = await phone.readTree();
    const id = byId(snap, 'name').id;
    const split = await phone.nodeAction(snap.seq, id, { action: 'set_selection', start: 2, end: 3 });
    expect(split).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    const far = await phone.nodeAction(snap.seq, id, { action: 'set_selection', start: 0, end: 9 });
    expect(far).toMatchObject({ ok: false, code: 'OUT_OF_RANGE' });
    expect((await phone.nodeAction(snap.seq, id, { action: 'set_selection', start: 1, end: 3 })).ok).toBe(true);
    snap = await phone.readTree();
    expect(byId(snap, 'name').selection).toEqual({ start: 1, end: 3 });
    const r = await phone.nodeAction(snap.seq, id, { action: 'replace_selection', text: '🙂🙂' });
    expect(r.ok).toBe(true);
    expect(state.name).toBe('A🙂🙂B中文');
    expect(byId(await phone.readTree(), 'name').selection).toEqual({ start: 5, end: 5 });
    await phone.nodeAction(phone.revision(), id, { action: 'focus' });
    await phone.key('delete');
    expect(state.name).toBe('A🙂B中文');
  });

  it('password fields show bullets and refuse replace_selection', async () => {
    const { phone, state } = formPhone();
    await phone.launch('com.test.form');
    let snap = await phone.readTree();
    const pin = byId(snap, 'pin');
    expect(pin.text).toBe('PIN');
    expect(pin.flags.password).toBe(true);
    await phone.nodeAction(snap.seq, pin.id, { action: 'set_text', text: '1234' });
    snap = await phone.readTree();
    expect(byId(snap, 'pin').text).toBe('••••');
    expect(await phone.dumpXml()).not.toContain('1234');
    expect(state.pin).toBe('1234');
    const r = await phone.nodeAction(snap.seq, pin.id, { action: 'replace_selection', text: '9' });
    expect(r).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
  });

  it('set_progress checks the real range; stale snapshots and disabled nodes are refused', async () => {
    const { phone, state } = formPhone();
    await phone.launch('com.test.form');
    const snap = await phone.readTree();
    const level = byId(snap, 'level');
    expect(level.range).toEqual({ min: 0, max: 10, current: 5 });
    expect(await phone.nodeAction(snap.seq, level.id, { action: 'set_progress', value: 11 })).toMatchObject({
      ok: false,
      code: 'OUT_OF_RANGE',
    });
    expect((await phone.nodeAction(snap.seq, level.id, { action: 'set_progress', value: 8 })).ok).toBe(true);
    expect(state.level).toBe(8);
    // The screen changed, so the old snapshot's node ids are stale.
    expect(await phone.nodeAction(snap.seq, level.id, { action: 'set_progress', value: 2 })).toMatchObject({
      ok: false,
      code: 'STALE',
    });
    const fresh = await phone.readTree();
    expect(byId(fresh, 'level').range?.current).toBe(8);
    const off = byId(fresh, 'off');
    expect(off.flags.enabled).toBe(false);
    expect((await phone.nodeAction(fresh.seq, off.id, { action: 'click' })).ok).toBe(false);
    await tapNode(phone, off);
    expect(state.submitted).toBe(0);
    const text = byId(fresh, 'level');
    expect(await phone.nodeAction(fresh.seq, text.id, { action: 'set_text', text: 'x' })).toMatchObject({
      ok: false,
      code: 'NOT_EDITABLE',
    });
    expect((await phone.nodeAction(fresh.seq, byId(fresh, 'name').id, { action: 'ime_enter' })).ok).toBe(true);
    expect(state.submitted).toBe(1);
  });
});
