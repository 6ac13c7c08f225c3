import { describe, expect, it } from 'vitest';
import { resolveRef } from '../../src/core/element-ref.js';
import { rectCenter } from '../../src/core/geometry.js';
import { readGridLine } from '../../src/core/grid-line.js';
import type { Observation } from '../../src/core/types.js';
import { AGENT_COMPACT } from '../../src/executor/observe.js';
import { compactView } from '../../src/perception/compact.js';
import { observeTree } from '../../src/perception/observe-tree.js';
import { parseUiautomatorXml } from '../../src/perception/parse-xml.js';
import { extractScreen } from '../../src/testbed/reference-model/read-request.js';
import { appWindow, dumpXml, type N } from './xml-builder.js';

/** Issue 22: a regular grid of look-alike unlabelled cells is one line, and every cell keeps its id. */

function observe(kids: N[]): Observation {
  const r = parseUiautomatorXml(dumpXml([appWindow(kids, 'com.cal')]));
  if (!r.ok) throw new Error(r.message);
  return observeTree(r.tree).observation;
}

/** A month view: `rows`×`cols` clickable cells 150×120 px, their day numbers drawn (not in the tree). */
function month(rows: number, cols: number, cells = rows * cols, moved?: number): N[] {
  const out: N[] = [{ text: 'July', b: [400, 200, 680, 260] }];
  for (let i = 0; i < cells; i++) {
    const x = 10 + (i % cols) * 150 + (i === moved ? 40 : 0);
    const y = 400 + Math.floor(i / cols) * 120;
    out.push({ id: 'com.cal:id/month_view_background', clickable: true, b: [x, y, x + 150, y + 120] });
  }
  return out;
}

const cells = (o: Observation) => o.elements.filter((e) => e.resourceId.endsWith('month_view_background'));

describe('look-alike grids in the listing', () => {
  it('lists a month of 42 cells as one grid line whose ids the planner and a reader of the listing resolve', () => {
    const obs = observe(month(6, 7));
    const listing = compactView(obs, AGENT_COMPACT);
    const gridLines = listing.split('\n').filter((l) => l.startsWith('grid '));
    expect(gridLines).toHaveLength(1);
    expect(listing).not.toMatch(/^\S+ #month_view_background/m);
    const g = readGridLine(gridLines[0] ?? '');
    expect(g && [g.rows, g.cols, g.look]).toEqual([6, 7, '#month_view_background']);
    const all = obs.elements.map((e) => e.id);
    const byRow = [...cells(obs)].sort(
      (a, b) => rectCenter(a.bounds).y - rectCenter(b.bounds).y || rectCenter(a.bounds).x - rectCenter(b.bounds).x,
    );
    // Every cell, in reading order, resolves to its own element.
    expect(g?.ids.flat().map((id) => resolveRef(all, id))).toEqual(byRow.map((e) => ({ ok: true, id: e.id })));
    // A reader of the listing (the reference model) gets each cell with its own centre.
    const read = extractScreen(`<screen untrusted>\n${listing}\n</screen>`).elements.filter((e) =>
      e.resourceId.endsWith('month_view_background'),
    );
    expect(read).toHaveLength(42);
    for (const [i, e] of byRow.entries()) {
      const c = rectCenter(e.bounds);
      expect(Math.abs((read[i]?.x ?? -99) - c.x)).toBeLessThanOrEqual(1);
      expect(Math.abs((read[i]?.y ?? -99) - c.y)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps a partly filled last row (a gallery), filled from the left', () => {
    const g = readGridLine(
      compactView(observe(month(3, 3, 8)), AGENT_COMPACT)
        .split('\n')
        .find((l) => l.startsWith('grid ')) ?? '',
    );
    expect(g?.ids.map((r) => r.length)).toEqual([3, 3, 2]);
  });

  it('lists each cell apart where the evidence is not a regular grid: one cell off its column, or too few', () => {
    for (const kids of [month(6, 7, 42, 17), month(1, 5), month(2, 2)]) {
      const listing = compactView(observe(kids), AGENT_COMPACT);
      expect(listing).not.toMatch(/^grid /m);
      expect(listing.match(/^\S+ #month_view_background \d+,\d+$/gm)?.length).toBe(kids.length - 1);
    }
  });

  it('never folds labelled controls into a grid (their labels tell them apart)', () => {
    const kids = month(6, 7).map((n, i) => (i > 0 ? { ...n, text: String(i) } : n));
    const listing = compactView(observe(kids), AGENT_COMPACT);
    expect(listing).not.toMatch(/^grid /m);
    expect(listing).toMatch(/^\S+ "17"/m);
  });
});
