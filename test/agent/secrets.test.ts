import { describe, expect, it } from 'vitest';
import { maskSecrets, unmask } from '../../src/agent/secrets.js';

/**
 * The masking rule of src/agent/secrets.ts, case by case: what the model sees, and the exact value
 * typed at dispatch. `null` = nothing is a credential, the goal passes unchanged.
 */
const CASES: [goal: string, masked: string, values: string[] | null][] = [
  // Trailing punctuation: one . , ; : ends the sentence; anything else is the password's.
  ['Log in with password Hunter2-secret!', 'Log in with password ⟨secret1⟩', ['Hunter2-secret!']],
  ['Log in with password Hunter2-secret!.', 'Log in with password ⟨secret1⟩.', ['Hunter2-secret!']],
  ['Log into Acme as a@b.c with password Hunter-22.', 'Log into Acme as a@b.c with password ⟨secret1⟩.', ['Hunter-22']],
  ['Use password Pw-93x, then open Settings', 'Use password ⟨secret1⟩, then open Settings', ['Pw-93x']],
  ['Sign in (password Pw-93x)', 'Sign in (password ⟨secret1⟩)', ['Pw-93x']],
  ['password what?', 'password ⟨secret1⟩', ['what?']],
  // Quoted values keep their spaces and their punctuation; the quotes stay in the goal.
  ['Log in with password "pa ss"', 'Log in with password "⟨secret1⟩"', ['pa ss']],
  ["password 'a b. c.'", "password '⟨secret1⟩'", ['a b. c.']],
  ['password “x y”', 'password “⟨secret1⟩”', ['x y']],
  ['密码「pa ss」登录', '密码「⟨secret1⟩」登录', ['pa ss']],
  // = and : forms, "is", qualifiers.
  ['password=Secret-9', 'password=⟨secret1⟩', ['Secret-9']],
  ['password: Secret-9', 'password: ⟨secret1⟩', ['Secret-9']],
  ['pwd:abc123 then go', 'pwd:⟨secret1⟩ then go', ['abc123']],
  ['the password is hunter', 'the password is ⟨secret1⟩', ['hunter']],
  ['the password for a@b.c is Hunter2', 'the password for a@b.c is ⟨secret1⟩', ['Hunter2']],
  ['the password to my bank account: Pw-1', 'the password to my bank account: ⟨secret1⟩', ['Pw-1']],
  ['change my password to New-pass1.', 'change my password to ⟨secret1⟩.', ['New-pass1']],
  // The common words.
  ['Unlock with passphrase hunter2', 'Unlock with passphrase ⟨secret1⟩', ['hunter2']],
  ['pw Hunter2', 'pw ⟨secret1⟩', ['Hunter2']],
  ['passcode 4711', 'passcode ⟨secret1⟩', ['4711']],
  ['passwd s3cr3t', 'passwd ⟨secret1⟩', ['s3cr3t']],
  ['Enter PIN 1234.', 'Enter PIN ⟨secret1⟩.', ['1234']],
  ['PIN code: 0000', 'PIN code: ⟨secret1⟩', ['0000']],
  ['PIN码是 2580', 'PIN码是 ⟨secret1⟩', ['2580']],
  ['用PIN码2580解锁', '用PIN码⟨secret1⟩解锁', ['2580']],
  ['用a@b.c和密码Mm-12k登录Acme', '用a@b.c和密码⟨secret1⟩登录Acme', ['Mm-12k']],
  ['密码是Ab-9,然后打开设置', '密码是⟨secret1⟩,然后打开设置', ['Ab-9']],
  ['口令为Xy-9。', '口令为⟨secret1⟩。', ['Xy-9']],
  ['密码：abc!', '密码：⟨secret1⟩', ['abc!']],
  // Two secrets, and the same value twice (one placeholder).
  ['password Aa-1 and PIN 9876', 'password ⟨secret1⟩ and PIN ⟨secret2⟩', ['Aa-1', '9876']],
  ['password Aa-1, then confirm password Aa-1', 'password ⟨secret1⟩, then confirm password ⟨secret1⟩', ['Aa-1']],
  // Not credentials.
  ['Pin the note to the top', 'Pin the note to the top', null],
  ['Turn on PIN lock', 'Turn on PIN lock', null],
  ['Open password settings', 'Open password settings', null],
  ['Use the password manager', 'Use the password manager', null],
  ['Use the password to log in', 'Use the password to log in', null],
  ['Open the spinner and the pwa', 'Open the spinner and the pwa', null],
  ['Type your password', 'Type your password', null],
];

describe('maskSecrets', () => {
  it.each(CASES)('%s', (goal, masked, values) => {
    const m = maskSecrets(goal);
    expect(m.goal).toBe(masked);
    expect([...m.secrets.values()]).toEqual(values ?? []);
    for (const v of values ?? []) expect(m.goal).not.toContain(v);
    // What dispatch types is the password exactly, and unmasking the goal gives the original back.
    expect(unmask(m.goal, m.secrets)).toBe(goal);
  });
});
