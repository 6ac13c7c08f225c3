import type { RecordingsState, World } from '../world.js';

/**
 * The Recordings app's model: a day of recording from one camera, a playback cursor fixed in the
 * middle of the timeline, a scale (seconds across the timeline) that a pinch changes by
 * scale^gamma — not by the finger ratio — and drags that keep moving a little after the finger
 * lifts (momentum). Every constant that a seek could otherwise learn once (gamma, momentum, the
 * watermark's drift) is seeded per world.
 */

export const DAY_SEC = 24 * 3600;
/** Span limits: from 15 s to 6 h across the timeline's width. */
export const MIN_SPAN_SEC = 15;
export const MAX_SPAN_SEC = 6 * 3600;
/** Momentum: how far beyond the finger the content goes, at most, as a share of the drag. */
const MAX_MOMENTUM_SHARE = 0.25;

const CAMERAS = ['Front door', 'Driveway', 'Backyard', 'Garage', 'Porch'];
const CAMERAS_ZH: Record<string, string> = {
  'Front door': '前门',
  Driveway: '车道',
  Backyard: '后院',
  Garage: '车库',
  Porch: '门廊',
};

export function cameraName(camera: string, zh: boolean): string {
  return zh ? (CAMERAS_ZH[camera] ?? camera) : camera;
}

export function seedRecordings(world: World, random: () => number): void {
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const start = Math.round(between(9 * 3600, 16 * 3600));
  const events: RecordingsState['events'] = [];
  for (let i = 0; i < 4; i++)
    events.push({ at: start + Math.round(between(-1800, 1800)), kind: random() < 0.5 ? 'motion' : 'person' });
  events.sort((a, b) => a.at - b.at);
  world.recordings = {
    camera: CAMERAS[Math.floor(random() * CAMERAS.length)] ?? 'Front door',
    day: '2026-11-30',
    position: start,
    playing: false,
    spanSec: Math.round(between(8, 15)) * 60,
    gamma: Math.round(between(0.55, 0.8) * 100) / 100,
    momentum: Math.round(between(0.2, 0.4) * 100) / 100,
    watermarkDriftSec: Math.round(between(20, 60)) * (random() < 0.5 ? -1 : 1),
    readout: true,
    events,
  };
}

/** The state on the world, created on first use (a world made without the app). */
export function recordingsState(world: World): RecordingsState {
  if (!world.recordings) seedRecordings(world, () => 0.5);
  return world.recordings as RecordingsState;
}

export function clampTime(sec: number): number {
  return Math.min(DAY_SEC - 1, Math.max(0, sec));
}

/** `HH:MM:SS` of a second of the day. */
export function hms(sec: number): string {
  const s = Math.floor(clampTime(sec));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(Math.floor(s / 3600))}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;
}

/** Seconds of the day of `H:MM:SS` / `HH:MM:SS`, or undefined. */
export function parseHms(text: string): number | undefined {
  const m = /^(\d{1,2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return h < 24 && mi < 60 && s < 60 ? h * 3600 + mi * 60 + s : undefined;
}

/** A pinch: the span shrinks by scale^gamma (the app's own response), within its limits. */
export function zoomBy(s: RecordingsState, scale: number): void {
  if (!(scale > 0) || !Number.isFinite(scale)) return;
  const next = s.spanSec / scale ** s.gamma;
  s.spanSec = Math.round(Math.min(MAX_SPAN_SEC, Math.max(MIN_SPAN_SEC, next)) * 100) / 100;
}

/**
 * Where a drag of `dx` canvas px (over `durationMs`) sends the cursor: the finger's own share at
 * once (`atRelease`, the time under the cursor when the finger lifts) and the momentum's share on
 * top (`settled`). Dragging the content left (dx < 0) shows later times.
 */
export function dragTarget(
  s: RecordingsState,
  dx: number,
  width: number,
  durationMs: number,
): { atRelease: number; settled: number } {
  const perPx = s.spanSec / Math.max(1, width);
  const speed = Math.abs(dx) / Math.max(16, durationMs);
  const share = Math.min(MAX_MOMENTUM_SHARE, s.momentum * speed);
  const finger = -dx * perPx;
  return { atRelease: clampTime(s.position + finger), settled: clampTime(s.position + finger * (1 + share)) };
}
