import { parseBounds, type Rect } from '../core/geometry.js';
import { ImpossibleBounds } from './impossible-bounds.js';
import { applyTransform, resolveSpace, type ScreenHint } from './space.js';
import type { NodeFlags, ParseResult, UiNode, UiTree } from './tree.js';
import { inferWindows, type RootInfo } from './windows.js';
import { clip, readXml, type XmlElement } from './xml-reader.js';

/**
 * uiautomator XML (`adb shell uiautomator dump`, Appium page source, uiautomator2) → UiTree.
 * Handles several windows (several top-level nodes), `rotation`, dialogs dumped alone, bounds in
 * another space (with a screen hint), and the empty answers real phones give.
 */

export interface XmlParseOptions {
  /** The real screen, when known (device `wm size`, or the CLI's --screen). */
  screen?: ScreenHint;
  foreground?: { package: string; activity: string };
  seq?: number;
  takenAt?: number;
}

/** Far above a real dump (≈170 KB for the densest screen seen); larger input is refused, not parsed. */
export const MAX_DUMP_CHARS = 4 * 1024 * 1024;

const NULL_ROOT_RE = /ERROR:\s*null root node|could not get idle state|ERROR: could not/i;

function bool(attrs: Record<string, string>, name: string, dflt = false): boolean {
  const v = attrs[name];
  return v === undefined ? dflt : v === 'true';
}

function emptyTree(reason: string, opts: XmlParseOptions, rotation: number): UiTree {
  return {
    source: 'xml',
    seq: opts.seq,
    takenAt: opts.takenAt,
    screen: opts.screen
      ? { w: opts.screen.w, h: opts.screen.h, rotation: opts.screen.rotation ?? rotation, source: 'given' }
      : { w: 0, h: 0, rotation, source: 'inferred' },
    foreground: opts.foreground,
    windows: [],
    nodes: [],
    emptyReason: reason,
    notes: [],
  };
}

export function parseUiautomatorXml(text: string, opts: XmlParseOptions = {}): ParseResult {
  if (text.length > MAX_DUMP_CHARS)
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `uiautomator dump: ${text.length} characters, more than the ${MAX_DUMP_CHARS} a screen can need`,
    };
  const trimmed = text.trim();
  if (trimmed === '') {
    return { ok: false, code: 'INVALID_ARGUMENT', message: 'uiautomator dump: the input is empty (no XML at all)' };
  }
  if (NULL_ROOT_RE.test(trimmed) && !trimmed.includes('<hierarchy')) {
    return {
      ok: true,
      tree: emptyTree(`uiautomator could not read the screen: ${trimmed.split('\n')[0].slice(0, 120)}`, opts, 0),
    };
  }
  // `uiautomator dump /dev/tty` appends "UI hierchary dumped to: /dev/tty"; some shells print warnings
  // first. Cut to the <hierarchy> document and say so.
  const extracted = extractHierarchy(text);
  const notes: string[] = extracted.note ? [extracted.note] : [];
  const read = readXml(extracted.xml);
  if (!read.ok)
    return { ok: false, code: 'INVALID_ARGUMENT', message: `uiautomator dump: malformed XML: ${read.message}` };
  const top = read.root;
  if (top.name !== 'hierarchy') {
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `uiautomator dump: the root element is <${clip(top.name)}>, expected <hierarchy>`,
    };
  }
  const rotation = Number.parseInt(top.attrs.rotation ?? '0', 10);
  if (!Number.isFinite(rotation) || rotation < 0 || rotation > 3) {
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `uiautomator dump: bad rotation "${clip(top.attrs.rotation ?? '')}"`,
    };
  }
  const roots = top.children.filter((c) => c.name === 'node');
  if (roots.length === 0)
    return { ok: true, tree: emptyTree('the dump has no nodes (empty hierarchy)', opts, rotation) };

  // First pass: validate bounds of every node, so a bad attribute is named rather than skipped.
  const impossible = new ImpossibleBounds();
  const rootBounds: Rect[] = [];
  for (const r of roots) {
    const b = parseBounds(r.attrs.bounds ?? '');
    if (!b) return badBounds(r);
    rootBounds.push(impossible.check(b, r.attrs.bounds ?? ''));
  }
  const space = resolveSpace(rootBounds, opts.screen, 'given');
  if (!space) return { ok: false, code: 'INVALID_ARGUMENT', message: 'uiautomator dump: window bounds are all empty' };

  const nodes: UiNode[] = [];
  const walk = (el: XmlElement, parent: number, depth: number, window: number): string | undefined => {
    if (el.name !== 'node') return undefined;
    const a = el.attrs;
    const parsed = parseBounds(a.bounds ?? '');
    if (!parsed) return badBounds(el).message;
    const b = impossible.check(parsed, el.attrs.bounds ?? '');
    const className = a.class ?? '';
    const flags: NodeFlags = {
      clickable: bool(a, 'clickable'),
      longClickable: bool(a, 'long-clickable'),
      editable: /EditText|AutoCompleteTextView|SearchAutoComplete/.test(className) || bool(a, 'editable'),
      scrollable: bool(a, 'scrollable'),
      checkable: bool(a, 'checkable'),
      checked: bool(a, 'checked'),
      enabled: bool(a, 'enabled', true),
      focusable: bool(a, 'focusable'),
      focused: bool(a, 'focused'),
      selected: bool(a, 'selected'),
      password: bool(a, 'password'),
      visible: bool(a, 'visible-to-user', true),
    };
    const idx = nodes.length;
    const order = a['drawing-order'] === undefined ? undefined : Number.parseInt(a['drawing-order'], 10);
    nodes.push({
      drawingOrder: Number.isFinite(order) ? order : undefined,
      idx,
      parent,
      children: [],
      depth,
      window,
      className,
      package: a.package ?? '',
      text: a.text ?? '',
      desc: a['content-desc'] ?? '',
      resourceId: a['resource-id'] ?? '',
      hint: a.hint ?? '',
      boundsPx: applyTransform(b, space.transform),
      flags,
    });
    if (parent >= 0) nodes[parent].children.push(idx);
    for (const c of el.children) {
      const err = walk(c, idx, depth + 1, window);
      if (err) return err;
    }
    return undefined;
  };
  for (let w = 0; w < roots.length; w++) {
    const err = walk(roots[w], -1, 0, w);
    if (err) return { ok: false, code: 'INVALID_ARGUMENT', message: err };
  }

  const rootInfos: RootInfo[] = roots.map((r, i) => ({
    package: r.attrs.package ?? '',
    className: r.attrs.class ?? '',
    bounds: applyTransform(rootBounds[i], space.transform),
    hasControls: nodes.some(
      (n) =>
        n.window === i &&
        (n.flags.clickable || n.flags.longClickable || n.flags.checkable || n.flags.editable || n.flags.scrollable),
    ),
  }));
  const windows = inferWindows(rootInfos, space);
  const ime = windows.find((w) => w.type === 'input_method');
  const focused = windows.find((w) => w.focused);
  const tree: UiTree = {
    source: 'xml',
    seq: opts.seq,
    takenAt: opts.takenAt,
    screen: { w: space.w, h: space.h, rotation: opts.screen?.rotation ?? rotation, source: space.source },
    foreground: opts.foreground ?? (focused ? { package: focused.package, activity: '' } : undefined),
    windows,
    keyboard: ime ? { shown: true, bounds: ime.bounds } : { shown: false },
    nodes,
    notes: [...notes, ...space.notes, ...impossible.notes()],
  };
  return { ok: true, tree };
}

function badBounds(el: XmlElement): { ok: false; code: 'INVALID_ARGUMENT'; message: string } {
  const cls = el.attrs.class ? ` (${clip(el.attrs.class, 80)})` : '';
  const b = el.attrs.bounds;
  return {
    ok: false,
    code: 'INVALID_ARGUMENT',
    message: `uiautomator dump: node${cls} has ${b === undefined ? 'no bounds attribute' : `malformed bounds "${clip(b)}"`}; expected bounds="[x1,y1][x2,y2]"`,
  };
}

function extractHierarchy(text: string): { xml: string; note?: string } {
  const open = text.search(/<\?xml|<hierarchy[\s>/]/);
  if (open < 0) return { xml: text };
  const close = text.lastIndexOf('</hierarchy>');
  let end = close >= 0 ? close + '</hierarchy>'.length : -1;
  const start = end < 0 ? text.indexOf('<hierarchy', open) : -1;
  if (start >= 0) {
    // A self-closing <hierarchy … />: its tag ends at the first '>' (its attributes are numbers). A
    // regex here (`<hierarchy[^>]*\/>`) went quadratic on "<hierarchy ".repeat(N).
    const gt = text.indexOf('>', start);
    if (gt > 0 && text[gt - 1] === '/') end = gt + 1;
  }
  if (end < 0) return { xml: text };
  const before = text.slice(0, open).trim();
  const after = text.slice(end).trim();
  if (!before && !after) return { xml: text };
  const ignored = [before, after].filter(Boolean).map((t) => JSON.stringify(t.slice(0, 60)));
  return { xml: text.slice(open, end), note: `ignored output around the dump: ${ignored.join(' and ')}` };
}
