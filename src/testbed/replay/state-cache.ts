import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { WireNode } from '../../device/protocol/wire.js';
import type { DroidbotState } from '../../perception/droidbot/state.js';
import { type DroidbotImage, type DroidbotRead, droidbotToSnapshot } from '../../perception/droidbot/state.js';
import type { ReplayGraph } from './graph.js';
import { loadImage } from './state-file.js';

/**
 * Each state's snapshot and screenshot, read once: the snapshot when the state is first shown (its
 * screenshot's size decides the display's orientation), the PNG when a client first asks for it
 * (a JPEG recording is re-encoded; PNG is what `screencap -p` and the bridge's full capture give).
 */

export interface Shown {
  state: DroidbotState;
  read: Extract<DroidbotRead, { ok: true }>;
  image?: DroidbotImage;
}

/**
 * The node actions a helper reports for a standard view with these flags (AccessibilityNodeInfo's
 * action list): DroidBot does not record them, the replay serves them as Android would list them.
 */
export function nodeActions(f: WireNode['flags']): string[] {
  const a: string[] = [];
  if (f.clickable) a.push('click');
  if (f.longClickable) a.push('long_click');
  if (f.focusable || f.editable) a.push('focus');
  if (f.editable) a.push('set_text');
  if (f.scrollable) a.push('scroll_forward', 'scroll_backward');
  if (f.visible) a.push('show_on_screen');
  return a;
}

/** A state without a recorded screenshot is shown as a blank picture at a quarter of the display. */
const BLANK_SCALE = 0.25;

export class StateCache {
  private readonly shown = new Map<string, Shown>();
  private readonly pngs = new Map<string, Promise<{ png: Buffer; width: number; height: number }>>();

  constructor(private readonly graph: ReplayGraph) {}

  async get(id: string): Promise<Shown> {
    const hit = this.shown.get(id);
    if (hit) return hit;
    const s = this.graph.states.get(id);
    if (!s) throw new Error(`the graph ${this.graph.name} has no state ${id}`);
    const image = s.imageFile ? await loadImage(s.imageFile, false) : undefined;
    const read = droidbotToSnapshot(s.state, { image });
    if (!read.ok) throw new Error(`state ${id} of ${this.graph.name}: ${read.message}`);
    read.snapshot.nodes = read.snapshot.nodes.map((n) => ({ ...n, actions: nodeActions(n.flags) }));
    const shown: Shown = { state: s.state, read, image };
    this.shown.set(id, shown);
    return shown;
  }

  /** A state already read by `get` (every state the phone moves to is read before it moves). */
  peek(id: string): Shown {
    const hit = this.shown.get(id);
    if (!hit) throw new Error(`state ${id} of ${this.graph.name} was not read before it was shown`);
    return hit;
  }

  png(id: string): Promise<{ png: Buffer; width: number; height: number }> {
    let p = this.pngs.get(id);
    if (!p) {
      p = this.encode(id);
      this.pngs.set(id, p);
    }
    return p;
  }

  private async encode(id: string): Promise<{ png: Buffer; width: number; height: number }> {
    const shown = await this.get(id);
    const file = this.graph.states.get(id)?.imageFile;
    if (file && shown.image) {
      const bytes = await readFile(file);
      const png = shown.image.format === 'png' ? bytes : await sharp(bytes).png().toBuffer();
      return { png, width: shown.image.width, height: shown.image.height };
    }
    const { width: w, height: h } = shown.read.snapshot.screen;
    const width = Math.max(1, Math.round(w * BLANK_SCALE));
    const height = Math.max(1, Math.round(h * BLANK_SCALE));
    const png = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    return { png, width, height };
  }
}
