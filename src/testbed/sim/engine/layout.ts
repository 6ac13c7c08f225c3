import { type Rect, rect, rectIntersect } from '../../../core/geometry.js';
import type { WireScreen } from '../../../device/protocol/wire.js';
import type { View } from '../kit/view.js';
import { CLASS_BY_KIND, emptyFlags, type LaidNode } from './node.js';
import { dpToPx } from './screen.js';

/**
 * The view kit's layout: dp sizes → pixels (dp × density / 160), columns stack, rows share width by
 * weight, `'fill'` takes what is left, lists scroll (only rows intersecting the viewport are emitted,
 * as a RecyclerView only has those attached), and every node carries bounds clipped to its ancestors.
 */

export interface UiState {
  /** stateKey of the focused edit field, if any. */
  focused?: string;
  selections: Map<string, { start: number; end: number }>;
  /** List scroll offsets in px; clamped and written back by layout. */
  scroll: Map<string, number>;
  /** Webview zoom and vertical scroll. */
  web: Map<string, { scale: number; scrollY: number }>;
}

export interface LayoutEnv {
  screen: WireScreen;
  pkg: string;
  /** Prefix of state keys: one per screen instance, so a new screen starts unscrolled. */
  scope: string;
  ui: UiState;
}

const DEFAULT_DP: Partial<Record<View['kind'], number>> = {
  button: 48,
  edit: 56,
  switch: 56,
  checkbox: 56,
  seekbar: 48,
  image: 48,
};

export const TEXT_SP = { small: 12, body: 14, large: 18, title: 22 } as const;

export function isFill(v: View): boolean {
  return (
    v.height === 'fill' ||
    (v.height === undefined && (v.kind === 'list' || v.kind === 'webview' || v.kind === 'canvas'))
  );
}

/** Rough glyph width: CJK and emoji take a full em, Latin about half. */
export function textWidthPx(text: string, fontPx: number): number {
  let w = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    w += c >= 0x2e80 ? fontPx : c === 32 ? fontPx * 0.3 : fontPx * 0.56;
  }
  return w;
}

export function fontPx(screen: WireScreen, sp: number): number {
  return dpToPx(screen, sp);
}

/** Text wrapped into lines that fit `width`: at spaces for words, anywhere between CJK characters. */
export function wrapText(text: string, fontSize: number, width: number): string[] {
  const lines: string[] = [];
  for (const para of text.split('\n')) {
    // Tokens: a Latin word with its trailing spaces, or a single wide (CJK) character.
    const tokens = para.match(/[\u2e80-\u{10ffff}]|[^\s\u2e80-\u{10ffff}]+\s*|\s+/gu) ?? [''];
    let line = '';
    let w = 0;
    for (const tok of tokens) {
      const tw = textWidthPx(tok.trimEnd(), fontSize);
      if (w + tw > width && line) {
        lines.push(line.trimEnd());
        line = '';
        w = 0;
      }
      if (tw > width) {
        // A word longer than the line: break it by character.
        for (const ch of tok) {
          const cw = textWidthPx(ch, fontSize);
          if (w + cw > width && line) {
            lines.push(line);
            line = '';
            w = 0;
          }
          line += ch;
          w += cw;
        }
        continue;
      }
      line += tok;
      w += textWidthPx(tok, fontSize);
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

export function lineHeight(fontSize: number): number {
  return Math.round(fontSize * 1.45);
}

/** Intrinsic height in px of a view laid out `width` px wide ('fill' views measure 0). */
export function measure(v: View, width: number, env: LayoutEnv): number {
  if (typeof v.height === 'number') return dpToPx(env.screen, v.height);
  if (isFill(v)) return 0;
  const s = env.screen;
  switch (v.kind) {
    case 'column': {
      const pad = dpToPx(s, v.padding ?? 0);
      const gap = dpToPx(s, v.gap ?? 0);
      let h = 0;
      for (const c of v.children) h += measure(c, width - 2 * pad, env);
      return h + 2 * pad + gap * Math.max(0, v.children.length - 1);
    }
    case 'row': {
      const pad = dpToPx(s, v.padding ?? 0);
      const widths = rowWidths(v.children, width - 2 * pad, dpToPx(s, v.gap ?? 0), s);
      let h = 0;
      v.children.forEach((c, i) => {
        h = Math.max(h, measure(c, widths[i], env));
      });
      return h + 2 * pad;
    }
    case 'text': {
      const f = fontPx(s, TEXT_SP[v.size ?? 'body']);
      return wrapText(v.text, f, Math.max(1, width)).length * lineHeight(f) + dpToPx(s, 4);
    }
    default:
      return dpToPx(s, DEFAULT_DP[v.kind] ?? 48);
  }
}

function rowWidths(children: View[], inner: number, gap: number, s: WireScreen): number[] {
  const avail = inner - gap * Math.max(0, children.length - 1);
  let fixed = 0;
  let weights = 0;
  for (const c of children) {
    if (c.kind === 'image' && c.width !== undefined) fixed += dpToPx(s, c.width);
    else weights += c.weight ?? 1;
  }
  const rest = Math.max(0, avail - fixed);
  return children.map((c) =>
    c.kind === 'image' && c.width !== undefined
      ? dpToPx(s, c.width)
      : Math.floor((rest * (c.weight ?? 1)) / (weights || 1)),
  );
}

const ZERO: Rect = rect(0, 0, 0, 0);

/** Lay `v` out in `r`; `clip` is the visible area granted by the ancestors. */
export function place(v: View, r: Rect, clip: Rect, index: number, env: LayoutEnv): LaidNode {
  const vis = rectIntersect(r, clip);
  const flags = emptyFlags();
  flags.visible = vis !== undefined;
  flags.enabled = v.enabled !== false;
  const stateKey = 'id' in v && v.id ? `${env.scope}#${v.id}` : undefined;
  const node: LaidNode = {
    view: v,
    className: v.className ?? CLASS_BY_KIND[v.kind],
    pkg: env.pkg,
    resourceId: v.id ? `${env.pkg}:id/${v.id}` : '',
    text: '',
    desc: v.desc ?? '',
    bounds: vis ?? r,
    full: r,
    clip: vis ?? ZERO,
    flags,
    actions: [],
    children: [],
    index,
    stateKey,
  };
  if (v.onTap) flags.clickable = true;
  if (v.onLongPress) flags.longClickable = true;
  switch (v.kind) {
    case 'column':
    case 'row':
      layoutLinear(v, node, env);
      break;
    case 'list':
      layoutList(v, node, env);
      break;
    case 'button':
      node.text = v.text;
      flags.clickable = true;
      flags.focusable = true;
      break;
    case 'text':
      node.text = v.text;
      break;
    case 'edit': {
      const key = `${env.scope}#${v.id}`;
      flags.editable = true;
      flags.clickable = true;
      flags.focusable = true;
      flags.longClickable = true;
      flags.password = v.password === true;
      flags.focused = env.ui.focused === key;
      // Android reports the hint as the text of an empty field, and bullets for a password.
      node.text = v.value === '' ? (v.hint ?? '') : v.password ? '•'.repeat(v.value.length) : v.value;
      node.hint = v.hint ?? '';
      const sel = env.ui.selections.get(key);
      const len = v.value.length;
      node.selection = sel
        ? { start: Math.min(sel.start, len), end: Math.min(sel.end, len) }
        : { start: len, end: len };
      break;
    }
    case 'switch':
    case 'checkbox':
      node.text = v.text;
      flags.checkable = true;
      flags.checked = v.checked;
      flags.clickable = true;
      flags.focusable = true;
      break;
    case 'seekbar':
      flags.focusable = true;
      node.range = { min: v.min, max: v.max, current: v.value };
      break;
    case 'image':
      break;
    case 'webview': {
      const key = `${env.scope}#${v.id ?? 'webview'}`;
      node.stateKey = key;
      const st = env.ui.web.get(key) ?? { scale: 1, scrollY: 0 };
      node.draw = { scale: st.scale, scrollY: st.scrollY };
      flags.focusable = true;
      flags.scrollable = true;
      break;
    }
    case 'canvas':
      // A map-like surface: focusable and clickable (taps and gestures land on it), nothing inside.
      flags.focusable = true;
      flags.clickable = v.onTap !== undefined || v.onPinch !== undefined;
      break;
  }
  if (flags.clickable) flags.focusable = true;
  node.actions = actionsOf(node, v);
  return node;
}

function actionsOf(n: LaidNode, v: View): string[] {
  const f = n.flags;
  const a: string[] = [];
  if (f.clickable) a.push('click');
  if (f.longClickable) a.push('long_click');
  if (f.focusable) a.push('focus');
  if (f.editable) {
    a.push('set_text', 'set_selection');
    if (!f.password) a.push('replace_selection');
    a.push('ime_enter');
  }
  if (v.kind === 'seekbar') a.push('set_progress', 'scroll_forward', 'scroll_backward');
  const li = v.kind === 'list' ? listInfo.get(n) : undefined;
  if (li && li.offset < li.maxOffset) a.push('scroll_forward');
  if (li && li.offset > 0) a.push('scroll_backward');
  if (v.kind === 'webview') a.push('scroll_forward', 'scroll_backward');
  if (v.kind !== 'column' && v.kind !== 'row' && v.kind !== 'list') a.push('show_on_screen');
  return a;
}

function layoutLinear(v: View & { kind: 'column' | 'row' }, node: LaidNode, env: LayoutEnv): void {
  const s = env.screen;
  const r = node.full;
  const pad = dpToPx(s, v.padding ?? 0);
  const gap = dpToPx(s, v.gap ?? 0);
  const inner = rect(r.left + pad, r.top + pad, r.right - pad, r.bottom - pad);
  const iw = Math.max(0, inner.right - inner.left);
  const ih = Math.max(0, inner.bottom - inner.top);
  const clip = node.clip;
  if (v.kind === 'row') {
    const widths = rowWidths(v.children, iw, gap, s);
    let x = inner.left;
    v.children.forEach((c, i) => {
      const w = widths[i];
      const h = isFill(c) ? ih : Math.min(ih || Number.MAX_SAFE_INTEGER, measure(c, w, env) || ih);
      const top = inner.top + Math.floor((ih - h) / 2);
      node.children.push(place(c, rect(x, top, x + w, top + h), clip, i, env));
      x += w + gap;
    });
    return;
  }
  const heights = v.children.map((c) => (isFill(c) ? 0 : measure(c, iw, env)));
  const fills = v.children.filter(isFill).length;
  const used = heights.reduce((a, b) => a + b, 0) + gap * Math.max(0, v.children.length - 1);
  const share = fills ? Math.max(0, Math.floor((ih - used) / fills)) : 0;
  let y = inner.top;
  v.children.forEach((c, i) => {
    const h = isFill(c) ? share : heights[i];
    // Fixed-width images are centred (logos, launcher icons); everything else spans the column.
    const fixed = c.kind === 'image' && c.width !== undefined;
    const w = fixed ? Math.min(iw, dpToPx(s, c.width ?? 0)) : iw;
    const x = inner.left + (fixed ? Math.floor((iw - w) / 2) : 0);
    node.children.push(place(c, rect(x, y, x + w, y + h), clip, i, env));
    y += h + gap;
  });
}

function layoutList(v: View & { kind: 'list' }, node: LaidNode, env: LayoutEnv): void {
  const r = node.full;
  const gap = dpToPx(env.screen, v.gap ?? 0);
  const width = r.right - r.left;
  const viewport = r.bottom - r.top;
  const heights = v.children.map((c) => measure(c, width, env) || dpToPx(env.screen, 48));
  const content = heights.reduce((a, b) => a + b, 0) + gap * Math.max(0, v.children.length - 1);
  const maxOffset = Math.max(0, content - viewport);
  const key = `${env.scope}#${v.id}`;
  node.stateKey = key;
  const offset = Math.min(maxOffset, Math.max(0, env.ui.scroll.get(key) ?? 0));
  env.ui.scroll.set(key, offset);
  node.flags.scrollable = maxOffset > 0;
  node.flags.focusable = true;
  node.draw = { scrollY: offset };
  let y = r.top - offset;
  v.children.forEach((c, i) => {
    const h = heights[i];
    // Only rows intersecting the viewport exist, as in a RecyclerView.
    if (y + h > r.top && y < r.bottom && node.flags.visible) {
      // Index among the attached rows, as the RecyclerView's accessibility children are numbered.
      node.children.push(place(c, rect(r.left, y, r.right, y + h), node.clip, node.children.length, env));
    }
    y += h + gap;
  });
  listInfo.set(node, { offset, maxOffset, content, viewport });
}

/** Scroll metrics of laid-out lists (kept off the node so the wire stays clean). */
export const listInfo = new WeakMap<
  LaidNode,
  { offset: number; maxOffset: number; content: number; viewport: number }
>();
