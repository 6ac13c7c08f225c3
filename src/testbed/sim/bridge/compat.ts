import type { CompatRequest, CompatResponse } from '../../../device/protocol/compat.js';
import type { WireNode, WireSnapshot } from '../../../device/protocol/wire.js';
import type { InputResult, PhoneSurface } from '../surface.js';
import { findAgain, targetWindows, visibleParts } from './selector.js';

/**
 * The plugin-compatible `POST /action` contract (PROTOCOL.md §8). `read_screen` numbers the nodes it
 * prints; those refs stay valid until the next `read_screen`. A ref is re-found on the current screen
 * before it is touched, and touched like a finger would (so overlays and the keyboard intercept it).
 */

interface RefEntry {
  node: WireNode;
}

function shortClass(c: string): string {
  return c.slice(c.lastIndexOf('.') + 1);
}

function quote(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n');
}

function flagsOf(n: WireNode): string[] {
  const f = n.flags;
  const out: string[] = [];
  if (f.clickable) out.push('clickable');
  if (f.longClickable) out.push('long-clickable');
  if (f.editable) out.push('editable');
  if (f.scrollable) out.push('scrollable');
  if (f.checkable) out.push(f.checked ? 'checked' : 'unchecked');
  if (f.focused) out.push('focused');
  if (f.selected) out.push('selected');
  if (f.password) out.push('password');
  if (!f.enabled) out.push('disabled');
  return out;
}

function worthListing(n: WireNode): boolean {
  const f = n.flags;
  return (
    f.visible &&
    (n.text !== '' || n.desc !== '' || f.clickable || f.longClickable || f.editable || f.scrollable || f.checkable)
  );
}

function ok(payload: string): CompatResponse {
  return { ok: true, payload };
}
function fail(summary: string): CompatResponse {
  return { ok: false, summary };
}
function outcome(r: InputResult, done: string): CompatResponse {
  return r.ok ? ok(done) : fail(`${r.code}: ${r.message}`);
}

export class CompatHandler {
  private refs = new Map<number, RefEntry>();

  constructor(private readonly phone: PhoneSurface) {}

  async handle(req: CompatRequest): Promise<CompatResponse> {
    const { phone } = this;
    const screen = phone.screen();
    switch (req.action) {
      case 'read_screen':
        return this.readScreen();
      case 'tap_node':
        return this.touchRef(req.ref, 50, 'tapped');
      case 'tap_point':
        if (req.x >= screen.width || req.y >= screen.height)
          return fail(`point (${req.x},${req.y}) is outside the ${screen.width}x${screen.height} screen`);
        return outcome(await phone.tap(req.x, req.y, 50), `tapped (${req.x},${req.y})`);
      case 'long_press':
        if (req.ref !== undefined) return this.touchRef(req.ref, req.duration_ms, 'long-pressed');
        if ((req.x ?? 0) >= screen.width || (req.y ?? 0) >= screen.height)
          return fail(`point (${req.x},${req.y}) is outside the ${screen.width}x${screen.height} screen`);
        return outcome(
          await phone.tap(req.x ?? 0, req.y ?? 0, req.duration_ms),
          `long-pressed (${req.x},${req.y}) for ${req.duration_ms} ms`,
        );
      case 'type_text':
        // Unicode goes through the IME commit path; `input text` would fail on non-ASCII.
        return outcome(
          await phone.imeCommit(req.text),
          `typed ${[...req.text].length} characters into the focused field`,
        );
      case 'press':
        return outcome(await phone.key(req.key), `pressed ${req.key}`);
      case 'press_back':
        return outcome(await phone.key('back'), 'pressed back');
      case 'launch_app':
        return outcome(await phone.launch(req.query), `launched ${req.query}`);
      case 'swipe':
        return this.swipe(req.direction);
      case 'screenshot': {
        const shot = await phone.screenshot();
        return ok(
          JSON.stringify({
            mediaType: 'image/png',
            width: shot.width,
            height: shot.height,
            base64: shot.png.toString('base64'),
          }),
        );
      }
    }
  }

  private async readScreen(): Promise<CompatResponse> {
    const snap = await this.phone.readTree();
    if (snap.nodes.length === 0) return fail('the screen has no readable nodes (try screenshot)');
    const wins = new Set((targetWindows(snap) ?? []).map((w) => w.id));
    this.refs = new Map();
    const lines: string[] = [];
    let ref = 0;
    for (const n of snap.nodes) {
      if (!wins.has(n.window) || !worthListing(n)) continue;
      ref++;
      this.refs.set(ref, { node: n });
      const label = n.flags.password ? '' : n.text || n.desc;
      const flags = flagsOf(n);
      const cx = Math.round((n.bounds.left + n.bounds.right) / 2);
      const cy = Math.round((n.bounds.top + n.bounds.bottom) / 2);
      lines.push(
        `[${ref}] ${shortClass(n.className)} "${quote(label)}"${flags.map((f) => ` ${f}`).join('')} @(${cx},${cy})`,
      );
    }
    return ok(lines.join('\n'));
  }

  private locate(snap: WireSnapshot, ref: number): { x: number; y: number } | string {
    const entry = this.refs.get(ref);
    if (!entry) return `unknown ref ${ref}; call read_screen first (refs last until the next read_screen)`;
    const node = findAgain(snap, entry.node);
    const window = node && snap.windows.find((w) => w.id === node.window);
    if (!node || !window || !node.flags.visible) return `ref ${ref} is no longer on screen; call read_screen again`;
    const parts = visibleParts(snap, node, window);
    const [biggest] = parts.sort(
      (a, b) => (b.right - b.left) * (b.bottom - b.top) - (a.right - a.left) * (a.bottom - a.top),
    );
    if (!biggest)
      return `ref ${ref} is covered by another window (keyboard or dialog); dismiss it and read_screen again`;
    return {
      x: Math.floor((biggest.left + biggest.right) / 2),
      y: Math.floor((biggest.top + biggest.bottom) / 2),
    };
  }

  private async touchRef(ref: number, durationMs: number, verb: string): Promise<CompatResponse> {
    const snap = await this.phone.readTree();
    const p = this.locate(snap, ref);
    if (typeof p === 'string') return fail(p);
    return outcome(await this.phone.tap(p.x, p.y, durationMs), `${verb} ref ${ref} at (${p.x},${p.y})`);
  }

  private async swipe(direction: 'up' | 'down' | 'left' | 'right'): Promise<CompatResponse> {
    const { width: w, height: h } = this.phone.screen();
    const cx = Math.round(w / 2);
    const cy = Math.round(h / 2);
    const [x1, y1, x2, y2] =
      direction === 'up'
        ? [cx, Math.round(h * 0.75), cx, Math.round(h * 0.25)]
        : direction === 'down'
          ? [cx, Math.round(h * 0.25), cx, Math.round(h * 0.75)]
          : direction === 'left'
            ? [Math.round(w * 0.85), cy, Math.round(w * 0.15), cy]
            : [Math.round(w * 0.15), cy, Math.round(w * 0.85), cy];
    return outcome(await this.phone.swipe(x1, y1, x2, y2, 400), `swiped ${direction}`);
  }
}
