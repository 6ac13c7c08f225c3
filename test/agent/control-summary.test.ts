import { describe, expect, it } from 'vitest';
import { controlSummary } from '../../src/tools/read-control.js';

/** What a read_control puts in the history: the control's state in words, never a bare "ok". */

const flags = {
  clickable: false,
  long_clickable: false,
  editable: false,
  scrollable: false,
  checkable: false,
  checked: false,
  enabled: true,
  focused: false,
  selected: false,
  password: false,
};

describe('controlSummary', () => {
  it('a switch says checked or unchecked, a slider its range as listed', () => {
    expect(
      controlSummary({
        class_name: 'android.widget.Switch',
        text: 'Wi-Fi',
        flags: { ...flags, checkable: true, checked: true },
      }),
    ).toBe('read: text="Wi-Fi" checked');
    expect(
      controlSummary({
        class_name: 'android.widget.SeekBar',
        text: '',
        flags,
        range: { min: 0, max: 255, current: 26 },
      }),
    ).toBe('read: value=26 (0–255)');
  });

  it('a view with nothing to read (a map) says so instead of nothing', () => {
    const s = controlSummary({ class_name: 'android.view.View', text: '', content_desc: 'Map', flags });
    expect(s).toBe('read: View desc="Map"; it holds no text, value or range (what it shows is not in the tree)');
  });

  it('a password field never shows its text, and a disabled control says so', () => {
    expect(
      controlSummary({
        class_name: 'android.widget.EditText',
        text: '',
        hint: 'Password',
        flags: { ...flags, editable: true, password: true },
      }),
    ).toBe('read: text hidden (password) hint="Password"');
    expect(
      controlSummary({ class_name: 'android.widget.Button', text: 'Next', flags: { ...flags, enabled: false } }),
    ).toBe('read: text="Next" disabled');
  });
});
