import type { CanvasShape } from '../kit/view.js';
import type { RecordingsState } from '../world.js';
import { DAY_SEC, hms } from './recordings-data.js';

/**
 * What the Recordings app draws in pixels only: the timeline (ticks, time labels, the recorded
 * band, event marks and the fixed red cursor in the middle) and the video frame with its
 * burned-in watermark. Nothing of this is in the tree: the timeline has no range, its labels are
 * paint.
 */

const TICKS_SEC = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

export function paintTimeline(s: RecordingsState, width: number, height: number): CanvasShape[] {
  if (width <= 0 || height <= 0) return [];
  const unit = width / 411;
  const perPx = s.spanSec / width;
  const x = (t: number) => width / 2 + (t - s.position) / perPx;
  const shapes: CanvasShape[] = [{ kind: 'rect', x: 0, y: 0, w: width, h: height, fill: '#202124' }];
  // The recorded band: the whole day, clipped to the view.
  const bandY = height * 0.42;
  const left = Math.max(0, x(0));
  const right = Math.min(width, x(DAY_SEC));
  if (right > left) shapes.push({ kind: 'rect', x: left, y: bandY, w: right - left, h: 14 * unit, fill: '#3d7bd9' });
  for (const e of s.events) {
    const ex = x(e.at);
    if (ex < -10 || ex > width + 10) continue;
    shapes.push({ kind: 'rect', x: ex - 2 * unit, y: bandY, w: 4 * unit, h: 14 * unit, fill: '#f29900' });
  }
  // Ticks: a labelled one at least ~90 dp apart, four minor ones between.
  const major = TICKS_SEC.find((t) => t / perPx >= 90 * unit) ?? 7200;
  const minor = major / 5;
  const t0 = s.position - (width / 2) * perPx;
  const t1 = s.position + (width / 2) * perPx;
  for (let t = Math.ceil(t0 / minor) * minor; t <= t1; t += minor) {
    if (t < 0 || t > DAY_SEC) continue;
    const isMajor = Math.abs(t / major - Math.round(t / major)) < 1e-6;
    const tx = x(t);
    shapes.push({
      kind: 'line',
      points: [
        [tx, 0],
        [tx, (isMajor ? 16 : 8) * unit],
      ],
      stroke: isMajor ? '#e8eaed' : '#80868b',
      width: (isMajor ? 1.5 : 1) * unit,
    });
    if (isMajor) {
      const label = major < 60 ? hms(t) : hms(t).slice(0, 5);
      // Centred under its tick (digits are about 0.55 em wide).
      const size = 11 * unit;
      shapes.push({
        kind: 'text',
        x: tx - label.length * size * 0.28,
        y: 30 * unit,
        text: label,
        size,
        color: '#bdc1c6',
      });
    }
  }
  // The fixed cursor.
  shapes.push({
    kind: 'line',
    points: [
      [width / 2, 0],
      [width / 2, height],
    ],
    stroke: '#ea4335',
    width: 2.5 * unit,
  });
  shapes.push({ kind: 'circle', cx: width / 2, cy: height - 6 * unit, r: 5 * unit, fill: '#ea4335' });
  return shapes;
}

/** A camera's view: a porch and a path, a person on the frames an event covers, the watermark. */
export function paintVideo(s: RecordingsState, width: number, height: number, camera: string): CanvasShape[] {
  if (width <= 0 || height <= 0) return [];
  const unit = width / 411;
  const shapes: CanvasShape[] = [
    { kind: 'rect', x: 0, y: 0, w: width, h: height, fill: '#39424e' },
    { kind: 'rect', x: 0, y: height * 0.62, w: width, h: height * 0.38, fill: '#4f5b47' },
    { kind: 'rect', x: width * 0.12, y: height * 0.22, w: width * 0.42, h: height * 0.42, fill: '#7a6a58' },
    { kind: 'rect', x: width * 0.28, y: height * 0.36, w: width * 0.1, h: height * 0.28, fill: '#3b2f25' },
    { kind: 'rect', x: width * 0.62, y: height * 0.62, w: width * 0.12, h: height * 0.38, fill: '#8d8a80' },
  ];
  const active = s.events.find((e) => s.position >= e.at && s.position < e.at + 20);
  if (active) {
    const px = width * (0.62 + ((s.position - active.at) / 20) * 0.1);
    shapes.push({ kind: 'circle', cx: px, cy: height * 0.5, r: 9 * unit, fill: '#d7ccc8' });
    shapes.push({ kind: 'rect', x: px - 8 * unit, y: height * 0.54, w: 16 * unit, h: 36 * unit, fill: '#5d4037' });
  }
  // The burned-in watermark: the camera's own clock, which is off from the recording's.
  const mark = `${s.day} ${hms(s.position + s.watermarkDriftSec)}  ${camera}`;
  shapes.push({ kind: 'text', x: 10 * unit, y: 20 * unit, text: mark, size: 12 * unit, color: '#ffffff' });
  return shapes;
}
