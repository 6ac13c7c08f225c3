/**
 * The virtual phone's view kit: apps describe each screen as a tree of these plain objects, and the
 * engine lays them out once to produce, from the same layout, the helper's JSON tree, the
 * uiautomator XML dump and the SVG/PNG screenshot. Sizes are in dp (density-independent pixels).
 */

export type Handler = () => void;

interface Base {
  /** resource-id tail; the engine writes `<package>:id/<id>`. */
  id?: string;
  desc?: string;
  /** Defaults to true; a disabled control ignores input and reports enabled=false. */
  enabled?: boolean;
  /** Height in dp; each kind has a sensible default. `'fill'` takes the remaining height in a column. */
  height?: number | 'fill';
  /** Share of a row's width (default 1). */
  weight?: number;
  onTap?: Handler;
  onLongPress?: Handler;
  /** A swipe (drag or fling) that no scrolling list under the finger consumed, e.g. launcher pages. */
  onSwipe?: (direction: 'left' | 'right' | 'up' | 'down') => void;
  /** Overrides the Android class name the engine reports for this view. */
  className?: string;
}

export interface ColumnView extends Base {
  kind: 'column';
  children: View[];
  padding?: number;
  gap?: number;
  background?: string;
}

export interface RowView extends Base {
  kind: 'row';
  children: View[];
  padding?: number;
  gap?: number;
  background?: string;
}

/** A vertically scrolling list; its scroll offset is kept by the engine under `id`. */
export interface ListView extends Base {
  kind: 'list';
  id: string;
  children: View[];
  gap?: number;
}

export interface ButtonView extends Base {
  kind: 'button';
  text: string;
  style?: 'primary' | 'secondary' | 'danger' | 'flat';
}

export interface TextView extends Base {
  kind: 'text';
  text: string;
  size?: 'small' | 'body' | 'large' | 'title';
  color?: string;
  bold?: boolean;
  /** Horizontal alignment of the drawn text (default start). */
  align?: 'start' | 'center';
}

export interface EditTextView extends Base {
  kind: 'edit';
  id: string;
  value: string;
  hint?: string;
  password?: boolean;
  /** Called with the whole new value after every edit (set_text, IME commit, input text, delete). */
  onChange: (value: string) => void;
  /** The IME action (enter / search / send). */
  onSubmit?: Handler;
}

export interface SwitchView extends Base {
  kind: 'switch' | 'checkbox';
  text: string;
  checked: boolean;
  onToggle: (next: boolean) => void;
}

export interface SeekBarView extends Base {
  kind: 'seekbar';
  min: number;
  max: number;
  value: number;
  onChange: (value: number) => void;
}

export interface ImageView extends Base {
  kind: 'image';
  /** Fill colour of the drawn placeholder. */
  color?: string;
  /** Short glyph drawn in the middle (an app icon's initial, an emoji). */
  glyph?: string;
  /** Width in dp; defaults to the full width. */
  width?: number;
}

/**
 * Content drawn only into the screenshot: the tree holds a single WebView node, as a real page
 * rendered into a canvas does. `lines` are drawn top to bottom; `scale` follows pinch zoom.
 */
export interface WebViewView extends Base {
  kind: 'webview';
  lines: { text: string; size?: number; color?: string }[];
}

/** One shape of a canvas, in the canvas's own pixels (0,0 = its top-left corner). */
export type CanvasShape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; fill: string; radius?: number }
  | { kind: 'circle'; cx: number; cy: number; r: number; fill: string; stroke?: string }
  | { kind: 'line'; points: [number, number][]; stroke: string; width: number }
  | { kind: 'text'; x: number; y: number; text: string; size: number; color: string; bold?: boolean };

/**
 * A custom-drawn surface (a map, a chart, a game): its content exists only in the screenshot; the
 * tree holds the one container node (give it a `desc`). Two-finger pinches and one-finger drags on
 * it reach the app, which keeps what they change (zoom, pan) in its own state.
 */
export interface CanvasView extends Base {
  kind: 'canvas';
  /** Shapes to draw, given the canvas's size in pixels. */
  paint: (width: number, height: number) => CanvasShape[];
  /** `scale` = end / start finger distance; `focus` = the fingers' start midpoint in canvas px. */
  onPinch?: (scale: number, focus: { x: number; y: number }, size: { width: number; height: number }) => void;
  /** The content follows a finger by (dx, dy) canvas px; `durationMs` is how long the finger moved (momentum). */
  onDrag?: (dx: number, dy: number, size: { width: number; height: number }, info?: { durationMs: number }) => void;
}

export type View =
  | CanvasView
  | ColumnView
  | RowView
  | ListView
  | ButtonView
  | TextView
  | EditTextView
  | SwitchView
  | SeekBarView
  | ImageView
  | WebViewView;
