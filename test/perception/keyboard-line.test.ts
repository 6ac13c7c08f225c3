import { describe, expect, it } from 'vitest';
import { delta } from '../../src/perception/api.js';
import { byLabel, look, newPhone, open, tapElement } from './phone.js';

/** The virtual phone's own keyboard, read over the helper channel and shown in the compact view. */
describe('the on-screen keyboard in the compact view', () => {
  it('is one line with the action key, not a line per key', async () => {
    const phone = newPhone();
    await open(phone, 'com.acme.bank');
    const before = await look(phone, { screenshot: false });
    await tapElement(phone, byLabel(before.observation, 'Email'));
    const r = await look(phone, { screenshot: false, previous: before.observation });
    expect(r.observation.keyboard.shown).toBe(true);
    const kb = new Set(r.observation.windows.filter((w) => w.type === 'input_method').map((w) => w.id));
    const keys = r.observation.elements.filter((e) => e.actionable && kb.has(e.window));
    expect(keys.length).toBeGreaterThan(25);
    const lines = r.compact.split('\n');
    const keyLines = lines.filter((l) => keys.some((k) => l.startsWith(`[${k.id}]`)));
    expect(keyLines).toHaveLength(1);
    expect(keyLines[0]).toMatch(
      /^\[[0-9a-f]{8}\] Key "↵" \(enter\) · keyboard: \d+ keys not listed \(enter text with type\) \d+,\d+$/,
    );
    expect(r.compact).not.toMatch(/"q"|"space"|"⌫"/);
    // The fields are still listed, and the keyboard header says it is shown.
    expect(r.compact).toContain('keyboard shown');
    expect(r.compact).toMatch(/\] EditText "Password"/);
  });
});

describe('a delta when a field loses focus and the keyboard goes', () => {
  it('says the field is "not focused", and the keys went in one line, not one per key', async () => {
    const phone = newPhone();
    await open(phone, 'com.acme.bank');
    const idle = await look(phone, { screenshot: false });
    await tapElement(phone, byLabel(idle.observation, 'Email'));
    const email = await look(phone, { screenshot: false, previous: idle.observation });
    await tapElement(phone, byLabel(email.observation, 'Password'));
    const pw = await look(phone, { screenshot: false, previous: email.observation });
    const moved = delta(email.observation, pw.observation);
    const field = byLabel(email.observation, 'Email');
    expect(moved).toMatch(new RegExp(`^~ \\[${field.id}\\] "Email" focused → not focused$`, 'm'));
    expect(moved).not.toContain('→ —');
    await phone.key('back');
    await phone.clock.sleep(800);
    const after = await look(phone, { screenshot: false, previous: pw.observation });
    expect(after.observation.keyboard.shown).toBe(false);
    const gone = delta(pw.observation, after.observation);
    expect(gone).toMatch(/^- keyboard: \d+ keys$/m);
    expect(gone.split('\n').filter((l) => l.startsWith('- ')).length).toBe(1);
  });
});
