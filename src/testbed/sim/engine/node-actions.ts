import { type Rect, rectContains, rectIntersect } from '../../../core/geometry.js';
import type { InputResult, NodeAction } from '../surface.js';
import type { Engine } from './engine.js';
import type { Frame } from './frame.js';
import { clickNode, scrollNode } from './input.js';
import { listInfo } from './layout.js';
import type { LaidNode } from './node.js';
import { insertText, replaceSelection, setSelection, setText } from './text.js';

/**
 * Native node actions (accessibility `performAction`) addressed by a node of a snapshot. The caller
 * has already checked that the snapshot is current (else STALE). Writes re-check visibility and
 * occlusion by higher touchable windows, as the helper does before acting.
 */

interface Located {
  node: LaidNode;
  windowIndex: number;
  /** Root → node. */
  path: LaidNode[];
}

export function locate(frame: Frame, nodeId: number): Located | undefined {
  let i = 0;
  for (let wi = 0; wi < frame.windows.length; wi++) {
    const stack: { n: LaidNode; path: LaidNode[] }[] = [{ n: frame.windows[wi].root, path: [] }];
    // Pre-order, matching frameToSnapshot's numbering.
    while (stack.length) {
      const { n, path } = stack.pop()!;
      const p = [...path, n];
      if (i === nodeId) return { node: n, windowIndex: wi, path: p };
      i++;
      for (let c = n.children.length - 1; c >= 0; c--) stack.push({ n: n.children[c], path: p });
    }
  }
  return undefined;
}

/** True when every sample point of `r` is under a higher touchable window. */
function occluded(frame: Frame, windowIndex: number, r: Rect): boolean {
  const higher = frame.windows.slice(windowIndex + 1).filter((w) => w.info.touchable);
  if (!higher.length) return false;
  const cols = 5;
  for (let i = 0; i < cols; i++) {
    for (let j = 0; j < cols; j++) {
      const p = {
        x: r.left + ((r.right - r.left) * (i + 0.5)) / cols,
        y: r.top + ((r.bottom - r.top) * (j + 0.5)) / cols,
      };
      if (!higher.some((w) => rectContains(w.info.bounds, p))) return false;
    }
  }
  return true;
}

const READ_ONLY = new Set(['show_on_screen', 'scroll_forward', 'scroll_backward', 'focus']);

export function performNodeAction(engine: Engine, frame: Frame, nodeId: number, a: NodeAction): InputResult {
  const loc = locate(frame, nodeId);
  if (!loc) return { ok: false, code: 'NOT_FOUND', message: `no node ${nodeId} in snapshot ${frame.revision}` };
  const { node, path } = loc;
  const v = node.view;
  if (!node.actions.includes(a.action)) {
    const editOnly = ['set_text', 'set_selection', 'replace_selection', 'ime_enter'].includes(a.action);
    return {
      ok: false,
      code: editOnly && !node.flags.editable ? 'NOT_EDITABLE' : 'UNSUPPORTED',
      message: `node ${nodeId} (${node.className}) does not support ${a.action}; it supports: ${node.actions.join(', ') || 'nothing'}`,
    };
  }
  if (!node.flags.enabled) return { ok: false, code: 'UNSUPPORTED', message: `node ${nodeId} is disabled` };
  if (!READ_ONLY.has(a.action)) {
    if (!node.flags.visible) {
      return { ok: false, code: 'OCCLUDED', message: `node ${nodeId} is not visible; show_on_screen or scroll first` };
    }
    if (occluded(frame, loc.windowIndex, node.bounds)) {
      return {
        ok: false,
        code: 'OCCLUDED',
        message: `node ${nodeId} is covered by a higher window; close it or observe again`,
      };
    }
  }
  switch (a.action) {
    case 'click':
      clickNode(engine, node);
      return { ok: true };
    case 'long_click':
      if (v?.onLongPress) v.onLongPress();
      else if (v?.kind === 'edit' && node.stateKey) engine.focusEdit(node.stateKey);
      engine.changed();
      return { ok: true };
    case 'focus':
      if (v?.kind === 'edit' && node.stateKey) engine.focusEdit(node.stateKey);
      return { ok: true };
    case 'show_on_screen':
      return showOnScreen(engine, node, path);
    case 'scroll_forward':
    case 'scroll_backward': {
      const sign = a.action === 'scroll_forward' ? 1 : -1;
      if (v?.kind === 'seekbar') {
        const step = Math.max(1, Math.round((v.max - v.min) / 20));
        const next = Math.min(v.max, Math.max(v.min, v.value + sign * step));
        v.onChange(next);
        engine.changed();
        return { ok: true };
      }
      const moved = scrollNode(engine, node, sign * Math.round((node.bounds.bottom - node.bounds.top) * 0.8));
      return moved === 0 ? { ok: false, code: 'NO_PROGRESS', message: 'already at the end' } : { ok: true };
    }
    case 'set_text':
      setText(engine, node, a.text);
      return { ok: true };
    case 'set_progress': {
      if (v?.kind !== 'seekbar') return { ok: false, code: 'UNSUPPORTED', message: 'not a seek bar' };
      if (!Number.isFinite(a.value)) return { ok: false, code: 'INVALID_ARGUMENT', message: 'value must be a number' };
      if (a.value < v.min || a.value > v.max) {
        return { ok: false, code: 'OUT_OF_RANGE', message: `value ${a.value} is outside [${v.min}, ${v.max}]` };
      }
      v.onChange(Math.round(a.value));
      engine.changed();
      return { ok: true };
    }
    case 'set_selection':
      return setSelection(engine, node, a.start, a.end);
    case 'replace_selection':
      return replaceSelection(engine, node, a.text);
    case 'ime_enter':
      if (v?.kind === 'edit' && v.onSubmit) {
        v.onSubmit();
        engine.changed();
      }
      return { ok: true };
  }
  return { ok: false, code: 'UNSUPPORTED', message: 'unknown action' };
}

/** Scroll the nearest scrolling ancestor so the node is fully inside it. */
function showOnScreen(engine: Engine, node: LaidNode, path: LaidNode[]): InputResult {
  for (let i = path.length - 2; i >= 0; i--) {
    const p = path[i];
    if (p.view?.kind !== 'list') continue;
    const info = listInfo.get(p);
    if (!info) break;
    const vp = p.full;
    let dy = 0;
    if (node.full.top < vp.top) dy = node.full.top - vp.top;
    else if (node.full.bottom > vp.bottom) dy = Math.min(node.full.bottom - vp.bottom, node.full.top - vp.top);
    if (dy !== 0) scrollNode(engine, p, dy);
    return { ok: true };
  }
  return rectIntersect(node.full, node.bounds) ? { ok: true } : { ok: true, detail: 'no scrolling ancestor' };
}

/** Commit text into a focused field (IME path). */
export function commitInto(engine: Engine, node: LaidNode, text: string): void {
  insertText(engine, node, text);
}
