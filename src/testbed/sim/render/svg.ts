import type { Rect } from '../../../core/geometry.js';
import type { WindowType } from '../../../core/types.js';
import type { Frame } from '../engine/frame.js';
import { fontPx, lineHeight, TEXT_SP, textWidthPx, wrapText } from '../engine/layout.js';
import type { LaidNode } from '../engine/node.js';
import { dpToPx } from '../engine/screen.js';
import type { CanvasShape } from '../kit/view.js';

/**
 * A frame drawn as SVG (sharp turns it into the PNG screenshot). Drawn from the same laid-out nodes
 * as the tree, plus what only pixels carry: a webview's page lines, colours, the keyboard's keys.
 */

export const FONT = "'WenQuanYi Micro Hei','DejaVu Sans',sans-serif";

interface Theme {
  bg: string;
  surface: string;
  text: string;
  muted: string;
  accent: string;
  line: string;
}

const LIGHT: Theme = {
  bg: '#ffffff',
  surface: '#f1f3f4',
  text: '#202124',
  muted: '#80868b',
  accent: '#1a73e8',
  line: '#dadce0',
};
const DARK: Theme = {
  bg: '#121212',
  surface: '#2d2e30',
  text: '#e8eaed',
  muted: '#9aa0a6',
  accent: '#8ab4f8',
  line: '#5f6368',
};

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

class Svg {
  readonly parts: string[] = [];
  private clipSeq = 0;
  constructor(
    readonly frame: Frame,
    readonly t: Theme,
  ) {}
  dp(v: number): number {
    return dpToPx(this.frame.screen, v);
  }
  rect(r: Rect, fill: string, radius = 0, extra = ''): void {
    const w = r.right - r.left;
    const h = r.bottom - r.top;
    if (w <= 0 || h <= 0) return;
    this.parts.push(
      `<rect x="${r.left}" y="${r.top}" width="${w}" height="${h}" rx="${radius}" fill="${fill}" ${extra}/>`,
    );
  }
  text(
    x: number,
    y: number,
    s: string,
    size: number,
    fill: string,
    opts: { bold?: boolean; anchor?: string } = {},
  ): void {
    if (!s) return;
    const weight = opts.bold ? ' font-weight="bold"' : '';
    const anchor = opts.anchor ? ` text-anchor="${opts.anchor}"` : '';
    this.parts.push(
      `<text x="${Math.round(x)}" y="${Math.round(y)}" font-family="${FONT}" font-size="${size}" fill="${fill}"${weight}${anchor}>${esc(s)}</text>`,
    );
  }
  /** Lines of text vertically centred in `r` (left-aligned or centred). */
  block(
    r: Rect,
    s: string,
    size: number,
    fill: string,
    opts: { bold?: boolean; center?: boolean; pad?: number } = {},
  ): void {
    const pad = opts.pad ?? 0;
    const width = Math.max(1, r.right - r.left - 2 * pad);
    const lines = wrapText(s, size, width);
    const lh = lineHeight(size);
    let y = (r.top + r.bottom) / 2 - (lines.length * lh) / 2 + lh / 2 + size * 0.35;
    for (const line of lines) {
      if (opts.center) this.text((r.left + r.right) / 2, y, line, size, fill, { bold: opts.bold, anchor: 'middle' });
      else this.text(r.left + pad, y, line, size, fill, { bold: opts.bold });
      y += lh;
    }
  }
  clip(r: Rect, body: () => void): void {
    const id = `c${this.clipSeq++}`;
    this.parts.push(
      `<clipPath id="${id}"><rect x="${r.left}" y="${r.top}" width="${Math.max(0, r.right - r.left)}" height="${Math.max(0, r.bottom - r.top)}"/></clipPath><g clip-path="url(#${id})">`,
    );
    body();
    this.parts.push('</g>');
  }
}

function surface(bg: string | undefined, t: Theme, dark: boolean): string | undefined {
  if (!bg) return undefined;
  if (!dark) return bg;
  return bg.toLowerCase() === '#ffffff' ? t.bg : bg.toLowerCase() === '#f1f3f4' || bg === '#e8eaed' ? t.surface : bg;
}

function drawNode(g: Svg, n: LaidNode, win: WindowType): void {
  const v = n.view;
  const t = g.t;
  const dark = g.frame.darkMode;
  const r = n.full;
  const s = g.frame.screen;
  if (v && n.flags.visible) {
    const dim = v.enabled === false ? ' opacity="0.45"' : '';
    if (dim) g.parts.push(`<g${dim}>`);
    switch (v.kind) {
      case 'column':
      case 'row': {
        const bg = surface(v.background, t, dark);
        if (bg) g.rect(r, bg, win === 'toast' ? g.dp(20) : 0);
        break;
      }
      case 'button': {
        // Key labels shrink with short keys (landscape keyboards).
        const size =
          win === 'input_method' ? Math.min(fontPx(s, 20), Math.round((r.bottom - r.top) * 0.5)) : fontPx(s, 14);
        const style = v.style ?? 'primary';
        if (win === 'input_method') {
          g.rect(r, dark ? '#3c4043' : '#ffffff', g.dp(6));
          g.block(r, v.text, size, t.text, { center: true });
          break;
        }
        const fills = { primary: t.accent, secondary: dark ? '#394457' : '#e8f0fe', danger: '#d93025', flat: 'none' };
        const color = style === 'primary' || style === 'danger' ? '#ffffff' : t.accent;
        if (style !== 'flat') g.rect(inset(r, g.dp(4)), fills[style], g.dp(20));
        g.block(r, v.text, size, color, { center: true, bold: true, pad: g.dp(8) });
        break;
      }
      case 'text': {
        const size = fontPx(s, TEXT_SP[v.size ?? 'body']);
        const color = v.color ?? (win === 'toast' ? '#ffffff' : t.text);
        const lines = wrapText(v.text, size, Math.max(1, r.right - r.left));
        const lh = lineHeight(size);
        let y = r.top + g.dp(2) + lh / 2 + size * 0.35;
        const center = v.align === 'center';
        for (const line of lines) {
          const x = center ? (r.left + r.right) / 2 : r.left;
          g.text(x, y, line, size, color, { bold: v.bold, anchor: center ? 'middle' : undefined });
          y += lh;
        }
        break;
      }
      case 'edit': {
        const size = fontPx(s, 16);
        const focused = n.flags.focused;
        g.rect(
          inset(r, g.dp(2)),
          dark ? '#202124' : '#ffffff',
          g.dp(4),
          `stroke="${focused ? t.accent : t.line}" stroke-width="${focused ? g.dp(2) : g.dp(1)}"`,
        );
        const shown = v.value === '' ? (v.hint ?? '') : v.password ? '•'.repeat([...v.value].length) : v.value;
        g.block(r, shown, size, v.value === '' ? t.muted : t.text, { pad: g.dp(12) });
        if (focused) {
          // The caret after the text before the cursor (first line only: fields are single-line).
          const before = v.password
            ? '•'.repeat([...v.value].length)
            : v.value.slice(0, n.selection?.end ?? v.value.length);
          const x = r.left + g.dp(12) + Math.min(textWidthPx(before, size), r.right - r.left - g.dp(24));
          const cy = (r.top + r.bottom) / 2;
          g.rect({ left: x, top: cy - size * 0.6, right: x + g.dp(2), bottom: cy + size * 0.6 }, t.accent);
        }
        break;
      }
      case 'switch':
      case 'checkbox': {
        const size = fontPx(s, 16);
        const on = v.checked;
        if (v.kind === 'switch') {
          const tw = g.dp(36);
          const th = g.dp(20);
          const cx = r.right - g.dp(16) - tw;
          const cy = (r.top + r.bottom) / 2;
          g.block({ ...r, right: cx - g.dp(8) }, v.text, size, t.text, { pad: g.dp(16) });
          g.rect(
            { left: cx, top: cy - th / 2, right: cx + tw, bottom: cy + th / 2 },
            on ? t.accent : '#bdc1c6',
            th / 2,
          );
          const kx = on ? cx + tw - th / 2 : cx + th / 2;
          g.parts.push(
            `<circle cx="${kx}" cy="${cy}" r="${th / 2 + g.dp(2)}" fill="${on ? t.accent : '#f8f9fa'}" stroke="#9aa0a6" stroke-width="1"/>`,
          );
        } else {
          const b = g.dp(20);
          const cy = (r.top + r.bottom) / 2;
          const box = { left: r.left + g.dp(16), top: cy - b / 2, right: r.left + g.dp(16) + b, bottom: cy + b / 2 };
          g.rect(box, on ? t.accent : 'none', g.dp(3), `stroke="${on ? t.accent : t.muted}" stroke-width="${g.dp(2)}"`);
          if (on)
            g.text((box.left + box.right) / 2, cy + b * 0.35, '✓', b, '#ffffff', { anchor: 'middle', bold: true });
          g.block({ ...r, left: box.right + g.dp(12) }, v.text, size, t.text);
        }
        break;
      }
      case 'seekbar': {
        const cy = (r.top + r.bottom) / 2;
        const x0 = r.left + g.dp(16);
        const x1 = r.right - g.dp(16);
        const f = v.max > v.min ? (v.value - v.min) / (v.max - v.min) : 0;
        const tx = x0 + (x1 - x0) * Math.min(1, Math.max(0, f));
        g.rect({ left: x0, top: cy - g.dp(2), right: x1, bottom: cy + g.dp(2) }, '#bdc1c6', g.dp(2));
        g.rect({ left: x0, top: cy - g.dp(2), right: tx, bottom: cy + g.dp(2) }, t.accent, g.dp(2));
        g.parts.push(`<circle cx="${tx}" cy="${cy}" r="${g.dp(10)}" fill="${t.accent}"/>`);
        break;
      }
      case 'image': {
        const side = Math.min(r.right - r.left, r.bottom - r.top);
        if (n.className === 'android.widget.ProgressBar') {
          const c = { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
          g.parts.push(
            `<circle cx="${c.x}" cy="${c.y}" r="${side * 0.4}" fill="none" stroke="${t.accent}" stroke-width="${g.dp(4)}" stroke-dasharray="${side * 1.5} ${side}"/>`,
          );
          break;
        }
        const isIcon = v.color !== undefined || win === 'application';
        if (isIcon) g.rect(inset(r, g.dp(2)), v.color ?? '#9aa0a6', g.dp(12));
        if (v.glyph) {
          g.block(r, v.glyph, Math.round(side * (isIcon ? 0.5 : 0.7)), isIcon ? '#ffffff' : t.text, {
            center: true,
            bold: true,
          });
        }
        break;
      }
      case 'webview': {
        g.rect(r, '#ffffff');
        const scale = n.draw?.scale ?? 1;
        const width = Math.max(1, r.right - r.left - g.dp(32));
        g.clip(n.bounds, () => {
          let y = r.top + g.dp(16) - (n.draw?.scrollY ?? 0);
          for (const line of v.lines) {
            const size = Math.max(4, Math.round(fontPx(s, line.size ?? 16) * scale));
            for (const l of wrapText(line.text, size, width)) {
              y += lineHeight(size);
              if (y > r.top - lineHeight(size) && y < r.bottom + lineHeight(size)) {
                g.text(r.left + g.dp(16), y, l, size, line.color ?? '#202124');
              }
            }
            y += g.dp(8) * scale;
          }
        });
        break;
      }
      case 'canvas':
        g.clip(n.bounds, () => drawCanvas(g, r, v.paint(r.right - r.left, r.bottom - r.top)));
        break;
      case 'list':
        break;
    }
    if (dim) g.parts.push('</g>');
  }
  if (n.children.length) {
    const kids = () => {
      for (const c of n.children) drawNode(g, c, win);
    };
    if (v?.kind === 'list') g.clip(n.bounds, kids);
    else kids();
  }
}

/** A canvas's shapes, offset to its box (see CanvasShape: canvas pixels). */
function drawCanvas(g: Svg, r: Rect, shapes: CanvasShape[]): void {
  const x0 = r.left;
  const y0 = r.top;
  const n = (v: number) => Math.round(v * 10) / 10;
  for (const s of shapes) {
    switch (s.kind) {
      case 'rect':
        g.rect(
          { left: n(x0 + s.x), top: n(y0 + s.y), right: n(x0 + s.x + s.w), bottom: n(y0 + s.y + s.h) },
          s.fill,
          s.radius ?? 0,
        );
        break;
      case 'circle': {
        const stroke = s.stroke ? ` stroke="${s.stroke}" stroke-width="${g.dp(2)}"` : '';
        g.parts.push(`<circle cx="${n(x0 + s.cx)}" cy="${n(y0 + s.cy)}" r="${n(s.r)}" fill="${s.fill}"${stroke}/>`);
        break;
      }
      case 'line': {
        const pts = s.points.map(([x, y]) => `${n(x0 + x)},${n(y0 + y)}`).join(' ');
        g.parts.push(
          `<polyline points="${pts}" fill="none" stroke="${s.stroke}" stroke-width="${n(s.width)}" stroke-linecap="round"/>`,
        );
        break;
      }
      case 'text':
        g.text(x0 + s.x, y0 + s.y, s.text, Math.round(s.size), s.color, { bold: s.bold });
        break;
    }
  }
}

function inset(r: Rect, d: number): Rect {
  return { left: r.left + d, top: r.top + d, right: r.right - d, bottom: r.bottom - d };
}

export function frameToSvg(frame: Frame): string {
  const { width, height } = frame.screen;
  const t = frame.darkMode ? DARK : LIGHT;
  const g = new Svg(frame, t);
  g.rect({ left: 0, top: 0, right: width, bottom: height }, t.bg);
  for (const w of frame.windows) {
    if (w.dim) g.rect({ left: 0, top: 0, right: width, bottom: height }, '#000000', 0, 'fill-opacity="0.4"');
    const bg = surface(w.background, t, frame.darkMode);
    const radius =
      w.info.type === 'dialog' || w.info.type === 'system' || w.info.type === 'notification' ? g.dp(16) : 0;
    g.clip(w.info.bounds, () => {
      if (bg && w.info.type !== 'toast') g.rect(w.info.bounds, bg, radius);
      drawNode(g, w.root, w.info.type);
    });
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${g.parts.join('')}</svg>`;
}
