import { z } from 'zod';
import { type Rect, rect, rectHeight, rectWidth } from '../../core/geometry.js';
import type { WireNode, WireScreenshot, WireSnapshot } from '../../core/snapshot.js';
import type { WindowInfo } from '../../core/types.js';
import { ImpossibleBounds } from '../impossible-bounds.js';
import { unionRect } from '../space.js';
import { LAYER } from '../windows.js';

/**
 * A DroidBot state (`states/state_<tag>.json`, as DroidBot, AutoDroid's DroidTask and the recorded
 * UI-transition graphs write it) → the helper's snapshot shape, so perception, the executor and the
 * replay phone see one format whichever source the screen came from. Pure: the caller reads the
 * files; the screenshot's size (and bytes, when it is to travel with the snapshot) are passed in.
 *
 * What real files need: `views` is flat (temp_id order, `parent`/`children` by temp_id), strings
 * may be null, bounds of views scrolled away are inverted; only the top window is recorded (a
 * dialog or menu is dumped alone); `width`/`height` are the display DroidBot read and may be
 * swapped (2340x1080 over portrait views) or absent (2018 runs); screenshots may be downscaled.
 */

const Str = z.string().nullish();
const Flag = z.boolean().nullish();
const Point = z.tuple([z.number(), z.number()]);

const DroidbotViewSchema = z.object({
  temp_id: z.number().int().nonnegative(),
  parent: z.number().int(),
  children: z.array(z.number().int()).nullish(),
  class: Str,
  package: Str,
  resource_id: Str,
  text: Str,
  content_description: Str,
  bounds: z.tuple([Point, Point]),
  clickable: Flag,
  long_clickable: Flag,
  editable: Flag,
  scrollable: Flag,
  checkable: Flag,
  checked: Flag,
  enabled: Flag,
  focusable: Flag,
  focused: Flag,
  selected: Flag,
  is_password: Flag,
  visible: Flag,
  /** DroidBot's hash of the view (recorded events name their target by it). */
  view_str: Str,
});
export type DroidbotView = z.infer<typeof DroidbotViewSchema>;

export const DroidbotStateSchema = z.object({
  tag: z.string().nullish(),
  state_str: z.string().min(1),
  foreground_activity: Str,
  width: z.number().int().positive().nullish(),
  height: z.number().int().positive().nullish(),
  views: z.array(DroidbotViewSchema),
});
export type DroidbotState = z.infer<typeof DroidbotStateSchema>;

/** The screenshot that goes with a state: its real pixel size, and its bytes when they travel along. */
export interface DroidbotImage {
  width: number;
  height: number;
  format?: 'png' | 'jpeg';
  base64?: string;
}

export interface DroidbotReadOptions {
  image?: DroidbotImage;
  seq?: number;
  takenAt?: number;
}

export type DroidbotRead =
  | {
      ok: true;
      snapshot: WireSnapshot;
      stateStr: string;
      tag: string;
      /** Snapshot node id of each DroidBot temp_id (gold steps and recorded events name views by temp_id). */
      nodeOf: ReadonlyMap<number, number>;
      /** What the reader had to infer or correct (a swapped display size, a guessed density, …). */
      notes: string[];
    }
  | { ok: false; code: 'INVALID_ARGUMENT'; message: string };

/** The class names parse-xml also takes for edit fields (some apps do not set `editable`). */
const EDIT_CLASS_RE = /EditText|AutoCompleteTextView|SearchAutoComplete/;

export function parseDroidbotState(
  input: unknown,
): { ok: true; state: DroidbotState } | { ok: false; message: string } {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, message: `DroidBot state: not JSON (${(e as Error).message})` };
    }
  }
  const parsed = DroidbotStateSchema.safeParse(value);
  if (parsed.success) return { ok: true, state: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : '(root)';
  return {
    ok: false,
    message: `DroidBot state: ${where}: ${issue?.message ?? 'invalid'} (expected states/state_<tag>.json as DroidBot writes it)`,
  };
}

export function readDroidbotState(input: unknown, opts: DroidbotReadOptions = {}): DroidbotRead {
  const parsed = parseDroidbotState(input);
  if (!parsed.ok) return { ok: false, code: 'INVALID_ARGUMENT', message: parsed.message };
  return droidbotToSnapshot(parsed.state, opts);
}

export function droidbotToSnapshot(state: DroidbotState, opts: DroidbotReadOptions = {}): DroidbotRead {
  const notes: string[] = [];
  const impossible = new ImpossibleBounds();
  const views = state.views;
  const byTemp = new Map<number, DroidbotView>();
  for (const v of views) {
    if (byTemp.has(v.temp_id))
      return { ok: false, code: 'INVALID_ARGUMENT', message: `DroidBot state: two views with temp_id ${v.temp_id}` };
    byTemp.set(v.temp_id, v);
  }
  const order = preOrder(views, byTemp);
  if (order.orphans > 0) notes.push(`${order.orphans} view(s) name a parent that is not in the state: kept as roots`);
  const nodeOf = new Map<number, number>(order.views.map((v, i) => [v.temp_id, i]));
  const boundsOf = (v: DroidbotView): Rect => {
    const [[x1, y1], [x2, y2]] = v.bounds;
    return impossible.check(rect(x1, y1, x2, y2), JSON.stringify(v.bounds));
  };
  const rootBounds = order.roots.map(boundsOf);
  const screen = screenSize(state, rootBounds, opts.image, notes);
  if (!screen)
    return {
      ok: false,
      code: 'INVALID_ARGUMENT',
      message: `DroidBot state ${state.state_str}: no views, no width/height and no screenshot: the screen size is unknown`,
    };
  const rootIds = new Set(order.roots.map((r) => r.temp_id));
  const windowOf = new Map<number, number>();
  let roots = 0;
  const nodes: WireNode[] = order.views.map((v, id) => {
    const parentTemp = rootIds.has(v.temp_id) ? -1 : v.parent;
    const parent = parentTemp < 0 ? -1 : (nodeOf.get(parentTemp) ?? -1);
    // One window per root, numbered like `windows` (roots come in that order).
    const window = parent < 0 ? roots++ : (windowOf.get(parent) ?? 0);
    windowOf.set(id, window);
    const className = v.class ?? '';
    return {
      id,
      parent,
      window,
      className,
      package: v.package ?? '',
      text: v.text ?? '',
      desc: v.content_description ?? '',
      resourceId: v.resource_id ?? '',
      bounds: boundsOf(v),
      flags: {
        clickable: v.clickable ?? false,
        longClickable: v.long_clickable ?? false,
        editable: (v.editable ?? false) || EDIT_CLASS_RE.test(className),
        scrollable: v.scrollable ?? false,
        checkable: v.checkable ?? false,
        checked: v.checked ?? false,
        enabled: v.enabled ?? true,
        focusable: v.focusable ?? false,
        focused: v.focused ?? false,
        selected: v.selected ?? false,
        password: v.is_password ?? false,
        visible: v.visible ?? true,
      },
      actions: [],
    };
  });
  notes.push(...impossible.notes());
  const foreground = splitActivity(state.foreground_activity, order.roots[0]?.package ?? '');
  const windows = order.roots.map((r, i) => windowInfo(i, rootBounds[i] as Rect, r.package ?? '', screen));
  const top = [...windows].sort((a, b) => b.layer - a.layer)[0];
  if (top) top.focused = true;
  const snapshot: WireSnapshot = {
    seq: opts.seq ?? 0,
    takenAt: opts.takenAt ?? 0,
    screen: { width: screen.w, height: screen.h, rotation: 0, density: screen.density },
    foreground,
    // DroidBot records the app's window only: a keyboard on screen is not in the state.
    keyboard: { shown: false },
    windows: windows.sort((a, b) => a.layer - b.layer),
    nodes,
  };
  const shot = screenshotOf(opts.image);
  if (shot) snapshot.screenshot = shot;
  return { ok: true, snapshot, stateStr: state.state_str, tag: state.tag ?? '', nodeOf, notes };
}

/** Parents before children (the snapshot's contract), children in the order DroidBot lists them. */
function preOrder(
  views: readonly DroidbotView[],
  byTemp: ReadonlyMap<number, DroidbotView>,
): { views: DroidbotView[]; roots: DroidbotView[]; orphans: number } {
  const kids = new Map<number, DroidbotView[]>();
  const roots: DroidbotView[] = [];
  let orphans = 0;
  for (const v of views) {
    if (v.parent < 0 || v.parent === v.temp_id || !byTemp.has(v.parent)) {
      if (v.parent >= 0) orphans++;
      roots.push(v);
      continue;
    }
    const list = kids.get(v.parent) ?? [];
    list.push(v);
    kids.set(v.parent, list);
  }
  const out: DroidbotView[] = [];
  const seen = new Set<number>();
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const v = stack.pop() as DroidbotView;
    if (seen.has(v.temp_id)) continue;
    seen.add(v.temp_id);
    out.push(v);
    const children = kids.get(v.temp_id) ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as DroidbotView);
  }
  // A parent cycle leaves views unreached: they become roots rather than vanish.
  for (const v of views)
    if (!seen.has(v.temp_id)) {
      orphans++;
      roots.push(v);
      out.push(v);
      seen.add(v.temp_id);
    }
  return { views: out, roots, orphans };
}

interface ScreenGuess {
  w: number;
  h: number;
  density: number;
}

/**
 * The display: DroidBot's width/height oriented like the screenshot (else like the views), or,
 * when the state has none, the screenshot's size scaled up to the views (a downscaled capture),
 * else the views' extent.
 */
function screenSize(
  state: DroidbotState,
  roots: readonly Rect[],
  image: DroidbotImage | undefined,
  notes: string[],
): ScreenGuess | undefined {
  const u = unionRect(roots);
  let w = state.width ?? 0;
  let h = state.height ?? 0;
  if (w > 0 && h > 0) {
    // The screenshot shows the orientation; without one, views that only fit the other way round do.
    const fits = (W: number, H: number) => !u || (u.right <= W * 1.02 && u.bottom <= H * 1.02);
    const turn = image ? image.height > image.width !== h > w : !fits(w, h) && fits(h, w);
    if (turn && w !== h) {
      notes.push(
        `the state says ${w}x${h}; the ${image ? 'screenshot is' : 'views are'} the other way round: ${h}x${w}`,
      );
      [w, h] = [h, w];
    }
  } else if (image && image.width > 0 && image.height > 0) {
    const k = u ? Math.max(1, Math.round(Math.max(u.right / image.width, u.bottom / image.height) * 4) / 4) : 1;
    w = Math.round(image.width * k);
    h = Math.round(image.height * k);
    notes.push(
      `no display size in the state: ${w}x${h} from the ${image.width}x${image.height} screenshot${k > 1 ? ` (x${k})` : ''}`,
    );
  } else if (u && u.right > 0 && u.bottom > 0) {
    w = u.right;
    h = u.bottom;
    notes.push(`no display size in the state: ${w}x${h} inferred from the views`);
  } else return undefined;
  if (image && image.width > 0 && Math.abs(image.width / w - image.height / h) > 0.02)
    notes.push(`the ${image.width}x${image.height} screenshot is not a scale of the ${w}x${h} display`);
  // Android's density is not recorded; a 360 dp wide phone is the common case.
  return { w, h, density: Math.max(120, Math.round(((Math.min(w, h) / 360) * 160) / 40) * 40) };
}

/**
 * DroidBot dumps one window. It is the application's when it covers the top of the screen across
 * its width for at least half its height; otherwise it is a dialog, a menu or a sheet shown alone.
 */
function windowInfo(id: number, bounds: Rect, pkg: string, screen: ScreenGuess): WindowInfo {
  const app =
    rectWidth(bounds) >= screen.w * 0.95 && bounds.top <= screen.h * 0.05 && rectHeight(bounds) >= screen.h * 0.5;
  const type = app ? 'application' : 'dialog';
  return { id, type, layer: LAYER[type] * 100 + id, bounds, package: pkg, title: '', focused: false, touchable: true };
}

function splitActivity(fa: string | null | undefined, fallbackPkg: string): { package: string; activity: string } {
  if (!fa) return { package: fallbackPkg, activity: '' };
  const slash = fa.indexOf('/');
  return slash < 0 ? { package: fa, activity: '' } : { package: fa.slice(0, slash), activity: fa.slice(slash + 1) };
}

function screenshotOf(image: DroidbotImage | undefined): WireScreenshot | undefined {
  if (!image?.base64) return undefined;
  return { format: image.format ?? 'png', width: image.width, height: image.height, offsetY: 0, base64: image.base64 };
}
