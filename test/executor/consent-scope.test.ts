import { describe, expect, it } from 'vitest';
import { uncoveredHeld } from '../../src/agent/held-taps.js';
import type { Observation, WindowInfo } from '../../src/core/types.js';
import { approvalOf, covers } from '../../src/executor/consent-scope.js';
import type { ConfirmationRequest } from '../../src/executor/guardrails/confirm.js';
import { element, observation, windowInfo } from '../planner/fixtures.js';

/** How far one approval reaches: the confirmation dialog its action opened, and nothing else. */

const PKG = 'com.android.documentsui';
const win = (id: number, type: WindowInfo['type'], title: string, pkg = PKG) => windowInfo(id, type, pkg, { title });
const app = { package: PKG, activity: '.FolderActivity', title: 'Downloads' };
const page = observation({
  app,
  windows: [win(1, 'application', 'Downloads')],
  elements: [element('dd000001', 'Delete', 1)],
});
const request: ConfirmationRequest = {
  categories: ['delete'],
  summary: `tap "Delete" in ${PKG}`,
  reasons: [],
  package: PKG,
  pageHash: 'p',
};
const approved = approvalOf(5, request, page);

/** The page with a dialog on it, whose confirm button is `cc000001`. */
function withDialog(title: string, over: Partial<Observation> = {}, pkg = PKG): Observation {
  return observation({
    app,
    windows: [win(1, 'application', 'Downloads'), win(2, 'dialog', title, pkg)],
    elements: [element('cc000001', 'Delete', 2), element('cc000002', 'Cancel', 2)],
    ...over,
  });
}
const ask = { categories: ['delete'], package: PKG };
const confirm = (o: Observation) => o.elements.find((e) => e.id === 'cc000001');

describe('covers', () => {
  it('the dialog the approved tap opened, same app, page and kind', () => {
    const o = withDialog('Delete 1 item?');
    expect(covers(approved, ask, o, confirm(o))).toBe(true);
  });

  it('not a dialog that was already on screen when the user approved', () => {
    const menu = withDialog('readme.txt');
    const fromMenu = approvalOf(5, request, menu);
    expect(covers(fromMenu, ask, menu, confirm(menu))).toBe(false);
    const next = withDialog('Delete 1 item?');
    expect(covers(fromMenu, ask, next, confirm(next))).toBe(true);
  });

  it('not another kind of act, an unsure aim or typed personal data', () => {
    const o = withDialog('Send 1 item?');
    expect(covers(approved, { ...ask, categories: ['send'] }, o, confirm(o))).toBe(false);
    expect(covers(approved, { ...ask, categories: ['delete', 'ambiguous_target'] }, o, confirm(o))).toBe(false);
    expect(covers(approved, { ...ask, categories: ['personal_data'] }, o, confirm(o))).toBe(false);
  });

  it('not another app, another page, or the page itself', () => {
    const other = withDialog('Delete?', {}, 'com.other');
    expect(covers(approved, ask, other, confirm(other))).toBe(false);
    const elsewhere = withDialog('Delete 1 item?', { app: { ...app, activity: '.FileViewerActivity' } });
    expect(covers(approved, ask, elsewhere, confirm(elsewhere))).toBe(false);
    expect(covers(approved, ask, page, page.elements[0])).toBe(false);
    expect(covers(undefined, ask, withDialog('Delete 1 item?'), confirm(withDialog('Delete 1 item?')))).toBe(false);
  });

  it('a covered control loses its "asks user" mark; the others keep theirs', () => {
    const o = withDialog('Delete 1 item?');
    const held = { cc000001: ['delete'], cc000002: ['send'] };
    expect(uncoveredHeld(held, approved, o)).toEqual({ cc000002: ['send'] });
    expect(uncoveredHeld(held, undefined, o)).toEqual(held);
  });
});
