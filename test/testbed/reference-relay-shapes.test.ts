import { describe, expect, it } from 'vitest';
import { actForIntent, readValue } from '../../src/testbed/reference-model/policy.js';
import { parseScreenLine } from '../../src/testbed/reference-model/read-request.js';

/** Shapes the reference model must write and read since the relay run (DESIGN §10, issue 11). */
function screen(lines: string[], texts: string[] = []) {
  const elements = lines.map((l) => parseScreenLine(l)).filter((e) => e !== undefined);
  return { elements, texts, raw: lines.join('\n') };
}

describe('the reference model and the new shapes', () => {
  it('expects a password field to be filled after typing a secret, and a plain field to hold its text', () => {
    const s = screen([
      '[e8a9191a] fill EditText "Email" 500,281',
      '[f0ef8b83] fill EditText "Password" [password] empty 500,360',
    ]);
    expect(actForIntent('type "Password" "⟨secret1⟩"', s, []).expect).toBe('element_state f0ef8b83 filled');
    expect(actForIntent('type "Email" "a@b.c"', s, []).expect).toBe('element_state e8a9191a text=a@b.c');
  });

  it('reads a row value after the title separator', () => {
    const s = screen(['[2e3e0f75] tap "About phone — Pixel 7" 500,906']);
    expect(readValue(s, 'About phone')).toBe('Pixel 7');
  });
});
