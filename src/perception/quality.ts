import { InvalidInputError } from '../core/errors.js';
import { rectArea, rectWithin } from '../core/geometry.js';
import type { Element, TreeQuality } from '../core/types.js';
import type { UiTree } from './tree.js';

/**
 * Tree quality (DESIGN §4): a sparse or empty tree — a WebView drawn into a canvas, a game surface —
 * switches the page to visual-first, and the page is remembered by (package, activity, title) so
 * the next visit starts visual-first even before the tree is judged again.
 */

const CANVAS_CLASS_RE = /WebView|SurfaceView|TextureView|GLSurfaceView|UnityPlayer|FlutterView|GameView|Canvas/;

/** A view that draws its content in pixels (a map, a game, a web canvas): where on it a touch lands is the point. */
export function isDrawnSurface(className: string): boolean {
  return CANVAS_CLASS_RE.test(className);
}

export function treeQuality(tree: UiTree, elements: readonly Element[]): { quality: TreeQuality; reason?: string } {
  if (tree.nodes.length === 0) return { quality: 'empty', reason: tree.emptyReason ?? 'no nodes' };
  if (elements.length === 0) return { quality: 'empty', reason: 'no visible element or text in the tree' };
  const screenArea = Math.max(1, tree.screen.w * tree.screen.h);
  const labelled = elements.filter((e) => e.label || e.text || e.desc || e.resourceId);
  // A canvas-like surface covering most of the screen with almost nothing described inside it.
  for (const n of tree.nodes) {
    if (!CANVAS_CLASS_RE.test(n.className)) continue;
    if (rectArea(n.boundsPx) * 2 < screenArea) continue;
    const b = n.boundsPx;
    const inside = labelled.filter((e) => rectWithin(e.boundsPx, b));
    if (inside.length < 3) {
      return {
        quality: 'sparse',
        reason: `${n.className.split('.').pop()} covers the screen with ${inside.length} described nodes`,
      };
    }
  }
  // Almost nothing described, and nothing to act on: the screen is drawn, not described.
  if (labelled.length <= 1 || (labelled.length < 3 && !elements.some((e) => e.actionable))) {
    return { quality: 'sparse', reason: `only ${labelled.length} described element(s) and no control` };
  }
  return { quality: 'ok' };
}

export interface PageKey {
  package: string;
  activity: string;
  title: string;
}

interface RegistryEntry {
  key: PageKey;
  quality: TreeQuality;
  reason?: string;
  seen: number;
}

/** Pages known to need the screenshot first, keyed by (package, activity, title). */
export class VisualFirstRegistry {
  private readonly entries = new Map<string, RegistryEntry>();

  static keyOf(k: PageKey): string {
    return `${k.package}|${k.activity}|${k.title}`;
  }

  /** Record a judgement; an ok tree on a later visit clears the mark (the page loaded its nodes). */
  record(key: PageKey, quality: TreeQuality, reason?: string): void {
    const k = VisualFirstRegistry.keyOf(key);
    if (quality === 'ok') {
      this.entries.delete(k);
      return;
    }
    const prev = this.entries.get(k);
    this.entries.set(k, { key, quality, reason, seen: (prev?.seen ?? 0) + 1 });
  }

  isVisualFirst(key: PageKey): boolean {
    return this.entries.has(VisualFirstRegistry.keyOf(key));
  }

  get size(): number {
    return this.entries.size;
  }

  serialize(): string {
    return JSON.stringify({ version: 1, entries: [...this.entries.values()] });
  }

  static deserialize(json: string): VisualFirstRegistry {
    const reg = new VisualFirstRegistry();
    let data: unknown;
    try {
      data = JSON.parse(json);
    } catch (e) {
      throw new InvalidInputError('visual-first registry', `not JSON (${(e as Error).message})`);
    }
    if (!data || typeof data !== 'object' || !Array.isArray((data as { entries?: unknown }).entries)) {
      throw new InvalidInputError('visual-first registry', 'expected {"version":1,"entries":[…]}');
    }
    for (const e of (data as { entries: RegistryEntry[] }).entries) {
      if (!e?.key || typeof e.key.package !== 'string') continue;
      reg.entries.set(VisualFirstRegistry.keyOf(e.key), {
        key: { package: e.key.package, activity: String(e.key.activity ?? ''), title: String(e.key.title ?? '') },
        quality: e.quality === 'empty' ? 'empty' : 'sparse',
        reason: e.reason,
        seen: Number(e.seen) || 1,
      });
    }
    return reg;
  }
}
