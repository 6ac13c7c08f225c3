import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { heldTaps } from '../../src/agent/held-taps.js';
import { perceive } from '../../src/perception/perceive.js';

/**
 * The held marks on real phones' dumps (third-party data, read from ../shared): the guard judges what
 * a control does — a keyboard's backspace or Done key and a field's hint hold nothing; the chat's
 * Send button still does (CHANGES, issue 21).
 */
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/android-dumps');

async function marks(file: string): Promise<string[]> {
  const r = await perceive({ xml: readFileSync(path.join(dir, file), 'utf8') });
  if (!r.ok) throw new Error(r.message);
  const o = r.observation;
  return Object.entries(heldTaps(o)).map(([id, cats]) => {
    const e = o.elements.find((x) => x.id === id);
    return `${e?.role} ${e?.text || e?.desc} ${cats.join('/')}`;
  });
}

describe('held marks on real dumps', () => {
  it("Gboard's Delete and Done keys are keys, not a delete", async () => {
    expect(await marks('38-keyboard-overlay-gboard.xml')).toEqual([]);
    expect(await marks('20-avito-search-with-keyboard-ru.xml')).toEqual([]);
  });

  it('a chat: the Send button is held, the field whose hint says "enter sends" is not', async () => {
    expect(await marks('34-tablet-landscape-3200x2000-cjk.xml')).toEqual(['Button 发送 send']);
  });
});
