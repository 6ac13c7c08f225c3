import { rectWithin } from '../core/geometry.js';
import type { Element, Observation } from '../core/types.js';
import type { ScreenTraits, ToolCatalog } from './tool-spec.js';

/**
 * Which of the available tools a decision on this screen is offered. Every tool offered costs its
 * help line and its schema fields on every request, so the ones that only make sense on some
 * screens are offered there alone: this file reads what the screen holds (its traits: something
 * drawn, a field, a list, a control, a slider without a value, a spinner, a timeline) and each
 * tool's spec says on which traits it is offered (src/tools/). A tool not offered is refused by
 * the act schema with the list of those that are, so the model is told.
 * What the device and the model can do at all (capabilities, vision for `look`) is decided by the
 * caller; this only narrows it.
 */

/** Surfaces whose content the tree cannot show: maps, video, games, web canvases. */
const DRAWN = /^(TextureView|SurfaceView|GLSurfaceView|MapView|WebView|Canvas|VideoView)$/;
/** An image this large is content (a photo, a chart) a person may zoom, not an icon. */
const LARGE_IMAGE_AREA = 0.2;
const LOADING = /loading|please wait|加载|请稍候|正在/i;

function area(e: Element): number {
  return ((e.bounds.right - e.bounds.left) * (e.bounds.bottom - e.bounds.top)) / 1e6;
}

/**
 * The screen is (partly) drawn in pixels: only the screenshot shows it, fingers act on it. A
 * self-drawn timeline is one (perception/timeline.ts finds it; the caller says): besides
 * seek_timeline, a drag by hand (touch_gesture) moves it.
 */
export function isDrawnScreen(obs: Observation, timeline = false): boolean {
  if (obs.visualFirst || obs.treeQuality !== 'ok' || timeline) return true;
  return obs.elements.some(
    (e) => (DRAWN.test(e.role) && !listedPage(obs, e)) || (/Image/.test(e.role) && area(e) >= LARGE_IMAGE_AREA),
  );
}

/**
 * A web page whose texts and buttons the tree lists (Libby's welcome page: two Buttons in a
 * full-screen WebView) is read and tapped like any page: not drawn, so no fingers or zoom are
 * offered there (issue 22). A WebView the tree lists nothing inside is still drawn; so is every
 * other surface (a map's zoom buttons lie over it, they are not its content).
 */
function listedPage(obs: Observation, web: Element): boolean {
  if (web.role !== 'WebView') return false;
  return obs.elements.some((e) => !DRAWN.test(e.role) && rectWithin(e.bounds, web.bounds));
}

function traits(obs: Observation, timeline: boolean, burst: boolean): ScreenTraits {
  const els = obs.elements;
  const field = els.some((e) => e.flags.editable);
  const drawn = isDrawnScreen(obs, timeline);
  // A range the tree carries (one read off the frame is set_slider's, over ADB).
  const range = els.some((e) => e.range !== undefined && !e.range.fromFrame);
  return {
    range,
    drawn,
    timeline,
    longPress: drawn || els.some((e) => e.flags.longClickable),
    field,
    list: els.some((e) => e.flags.scrollable),
    // What only the control tools do: set or read a range (set_progress), and submit a field
    // (ime_enter) — a real phone's keyboard keys are not in the tree, so there is no key to tap.
    control: field || range,
    slider: els.some((e) => e.role === 'SeekBar' && (e.range === undefined || e.range.fromFrame === true)),
    burst: burst && els.filter((e) => e.actionable).length >= 2,
    loading:
      obs.unstable !== undefined ||
      els.some((e) => /ProgressBar/.test(e.role) && e.range === undefined) ||
      obs.texts.some((t) => LOADING.test(t)),
  };
}

/**
 * `available` narrowed to what applies on this screen (order kept). `timeline`: the screen has a
 * self-drawn recording timeline (perception's `hasTimeline`, which this layer does not import);
 * `burst`: the run offers bursts of certain actions (Flash), where the screen has controls for one.
 */
export function toolsForScreen(
  obs: Observation,
  available: readonly string[],
  catalog: ToolCatalog,
  screen: { timeline?: boolean; burst?: boolean } = {},
): string[] {
  const t = traits(obs, screen.timeline ?? false, screen.burst ?? false);
  return available.filter((tool) => catalog.get(tool)?.offeredOn?.(t) ?? true);
}
