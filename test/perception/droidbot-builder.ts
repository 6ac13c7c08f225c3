import { createHash } from 'node:crypto';
import type { WireSnapshot } from '../../src/core/snapshot.js';

/**
 * A DroidBot state (states/state_<tag>.json) written from one of the virtual phone's snapshots the way
 * DroidBot writes a real phone's: the focused app window only, a flat `views` list by temp_id, null
 * for empty strings, and the display size it read. The project's own fixture for the DroidBot reader
 * and the replay phone (the third-party graphs live in ../shared).
 */

export interface DroidbotStateOptions {
  tag: string;
  /** Write width/height the wrong way round, as some DroidBot runs do. */
  swapSize?: boolean;
  /** Leave width/height out, as 2018 runs do. */
  noSize?: boolean;
}

export interface DroidbotViewOut {
  temp_id: number;
  parent: number;
  children: number[];
  class: string | null;
  package: string | null;
  resource_id: string | null;
  text: string | null;
  content_description: string | null;
  bounds: [[number, number], [number, number]];
  clickable: boolean;
  long_clickable: boolean;
  editable: boolean;
  scrollable: boolean;
  checkable: boolean;
  checked: boolean;
  enabled: boolean;
  focusable: boolean;
  focused: boolean;
  selected: boolean;
  is_password: boolean;
  visible: boolean;
  view_str: string;
  signature: string;
}

export interface DroidbotStateOut {
  tag: string;
  state_str: string;
  foreground_activity: string;
  width?: number;
  height?: number;
  views: DroidbotViewOut[];
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export function droidbotStateOf(snap: WireSnapshot, opts: DroidbotStateOptions): DroidbotStateOut {
  const app = snap.windows.find((w) => w.focused) ?? snap.windows.find((w) => w.type === 'application');
  const nodes = snap.nodes.filter((n) => n.window === app?.id);
  const tempOf = new Map(nodes.map((n, i) => [n.id, i]));
  const orNull = (s: string) => (s === '' ? null : s);
  const views = nodes.map((n, i): DroidbotViewOut => {
    const signature = `[class]${n.className}[resource_id]${n.resourceId}[text]${n.text}[${n.flags.enabled ? 'enabled' : ''},${n.flags.checked ? 'checked' : ''},${n.flags.selected ? 'selected' : ''}]`;
    return {
      temp_id: i,
      parent: tempOf.get(n.parent) ?? -1,
      children: nodes.filter((c) => c.parent === n.id).map((c) => tempOf.get(c.id) as number),
      class: n.className,
      package: n.package,
      resource_id: orNull(n.resourceId),
      text: orNull(n.text),
      content_description: orNull(n.desc),
      bounds: [
        [n.bounds.left, n.bounds.top],
        [n.bounds.right, n.bounds.bottom],
      ],
      clickable: n.flags.clickable,
      long_clickable: n.flags.longClickable,
      editable: n.flags.editable,
      scrollable: n.flags.scrollable,
      checkable: n.flags.checkable,
      checked: n.flags.checked,
      enabled: n.flags.enabled,
      focusable: n.flags.focusable,
      focused: n.flags.focused,
      selected: n.flags.selected,
      is_password: n.flags.password,
      visible: n.flags.visible,
      view_str: md5(`${snap.foreground.activity}${signature}${i}`),
      signature,
    };
  });
  const state: DroidbotStateOut = {
    tag: opts.tag,
    state_str: md5(`${snap.foreground.package}${views.map((v) => v.view_str).join('')}`),
    foreground_activity: `${snap.foreground.package}/${snap.foreground.activity}`,
    views,
  };
  if (!opts.noSize) {
    state.width = opts.swapSize ? snap.screen.height : snap.screen.width;
    state.height = opts.swapSize ? snap.screen.width : snap.screen.height;
  }
  return state;
}
