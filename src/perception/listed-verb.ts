import type { Element } from '../core/types.js';
import { type Verb, verbOf } from './roles.js';

/**
 * The verb a listing line writes (issue 22). `long` ("long-press only") is written only where a
 * long press is what the line offers: a dump's missing `clickable` does not say a tap does nothing
 * (a list's rows take taps through the list — DroidTask's gold taps a clock's long-clickable alarm
 * row), and on 52 lines of DroidTask's states the word added nothing. It becomes a tap (written
 * only where the class implies another verb) for a disabled control (nothing acts on it now; `disabled`
 * says so), a class that is a tap (Button, ImageButton), a text (its long press only copies it),
 * the selected one (already open) and a row of a list that scrolls.
 */
export function listedVerb(e: Element, ancestor: Element | undefined): Verb {
  const verb = verbOf(e);
  if (verb !== 'long') return verb;
  const quiet =
    !e.flags.enabled ||
    e.flags.selected ||
    e.role === 'Text' ||
    e.role === 'Button' ||
    e.role === 'ImageButton' ||
    ancestor?.flags.scrollable === true;
  return quiet ? 'tap' : verb;
}
