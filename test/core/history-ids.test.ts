import { describe, expect, it } from 'vitest';
import { asListedIds, idForms, resolveRef, shortestPrefixes } from '../../src/core/element-ref.js';

/**
 * Issue 21 item 10 (relay run I): a history id was printed `[a82b]` in one prompt and `[a82]` in
 * the next, each shortened against the screen of that prompt. A history line keeps the form its
 * step's screen listed (the id the model acted on), longer only where a later screen needs it.
 */
describe('history ids keep their form', () => {
  const line = 'tap [a82bc758] "Later" expect element_gone a82bc758';
  const acted = ['a82bc758', 'a82f0e11', 'bf1e87ec'];

  it('prints the id as the screen it was acted on listed it, on a screen that would list it shorter', () => {
    const forms = idForms([line], acted);
    expect(forms).toEqual({ a82bc758: 'a82b' });
    expect(shortestPrefixes(['a82bc758'], acted).get('a82bc758')).toBe('a82b');
    const next = ['400b4c43', '817612f6'];
    // Before: `[a82]` here (shortened against this screen).
    expect(asListedIds(line, next, forms)).toBe('tap [a82b] "Later" expect element_gone a82b');
    expect(asListedIds(line, next)).toBe('tap [a82] "Later" expect element_gone a82');
  });

  it('grows where a later screen has another id with that prefix, and what it prints resolves', () => {
    const forms = idForms([line], acted);
    const later = ['a82b1111', 'a82bc758', '400b4c43'];
    const shown = asListedIds(line, later, forms);
    expect(shown).toBe('tap [a82bc] "Later" expect element_gone a82bc');
    expect(resolveRef(later, 'a82bc')).toEqual({ ok: true, id: 'a82bc758' });
    // On a screen that lists the element as `a82`, the history's `a82b` names it too.
    expect(resolveRef(['a82bc758', '400b4c43'], 'a82b')).toEqual({ ok: true, id: 'a82bc758' });
  });

  it('is not lengthened by an element the listing shows no id for (relay run 5: a text node shared a82)', () => {
    const forms = idForms([line], acted);
    // The next screen holds a text node a82b9999 (no id listed) and the listed 400b4c43.
    const all = ['a82b9999', '400b4c43'];
    expect(asListedIds(line, all, forms, ['400b4c43'])).toBe('tap [a82b] "Later" expect element_gone a82b');
    // Without the listed subset, that text node lengthened it (the flip the players saw).
    expect(asListedIds(line, all, forms)).toBe('tap [a82bc] "Later" expect element_gone a82bc');
  });

  it('an element on this screen is written as the listing shows it, whatever its line first said', () => {
    const forms = idForms([line], acted);
    expect(asListedIds(line, ['a82bc758', '400b4c43'], forms)).toBe('tap [a82] "Later" expect element_gone a82');
  });

  it('keeps an ordinal id whole', () => {
    const ord = 'tap [a82bc758~1] "Row"';
    const forms = idForms([ord], ['a82bc758~1', 'a82bc758', 'a82f0e11']);
    expect(asListedIds(ord, ['11112222'], forms)).toBe('tap [a82b~1] "Row"');
  });
});
