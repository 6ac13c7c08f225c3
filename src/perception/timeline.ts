import type { Element, Observation } from '../core/types.js';

/**
 * What on a playback screen may tell the time under a self-drawn timeline's cursor (the seed's
 * 时间轴精度): a readout bound to the fixed cursor — by its resource id, description or label
 * ("current time", "playhead", 当前时间) — counts once it is stable and agrees with the scale.
 * Event cards (when something happened), watermarks (the camera's own clock) and the bubble shown
 * while dragging (the time under the finger, before momentum) are never the current time; a time
 * of unknown source is not evidence either.
 */

export type TimeSource = 'readout' | 'event_card' | 'watermark' | 'drag_bubble' | 'unknown';

export interface TimeReading {
  source: TimeSource;
  /** Seconds of the day. */
  sec: number;
  text: string;
  element: Element;
}

const TIME_RE = /(?<![\d:])(\d{1,2}):(\d{2}):(\d{2})(?![\d:])/;
/** Checked in order: a bubble or a watermark that also mentions "time" is still not the readout. */
const NOT_EVIDENCE: [TimeSource, RegExp][] = [
  ['drag_bubble', /bubble|tooltip|drag|scrub|浮层|气泡/i],
  ['watermark', /watermark|osd|overlay_time|水印/i],
  ['event_card', /event|motion|person|alarm|card|clip|事件|告警/i],
];
const BOUND_RE = /current[_ ]?time|cursor|playhead|play[_ ]?position|当前时间|播放位置|当前/i;
const TIMELINE_RE = /timeline|time[_ ]line|时间轴|时间线/i;
const PAUSE_RE = /^(pause|暂停)$/i;

/** `H:MM:SS` → seconds of the day, or undefined. */
export function parseClock(text: string): number | undefined {
  const m = TIME_RE.exec(text);
  if (!m) return undefined;
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return h < 24 && mi < 60 && s < 60 ? h * 3600 + mi * 60 + s : undefined;
}

export function formatClock(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(Math.floor(s / 3600) % 24)}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;
}

function sourceOf(e: Element): TimeSource {
  const key = `${e.resourceId} ${e.desc}`;
  for (const [source, re] of NOT_EVIDENCE) if (re.test(key)) return source;
  return BOUND_RE.test(key) ? 'readout' : 'unknown';
}

/** Every time of day shown in the tree, with where it comes from. */
export function timeReadings(obs: Observation): TimeReading[] {
  const out: TimeReading[] = [];
  for (const e of obs.elements) {
    const text = e.text || e.desc;
    const sec = text ? parseClock(text) : undefined;
    if (sec !== undefined) out.push({ source: sourceOf(e), sec, text, element: e });
  }
  return out;
}

/** The one readout bound to the cursor; two different ones are a conflict, not evidence. */
export function boundReadout(obs: Observation): { reading?: TimeReading; conflict?: string } {
  const bound = timeReadings(obs).filter((r) => r.source === 'readout');
  const values = new Set(bound.map((r) => r.sec));
  if (values.size > 1) return { conflict: `readouts disagree: ${bound.map((r) => r.text).join(' vs ')}` };
  return { reading: bound[0] };
}

/** How a reading that is not evidence is named in the report. */
export function describeIgnored(r: TimeReading): string {
  const where = r.element.resourceId ? ` #${r.element.resourceId.split('/').pop()}` : '';
  const what = {
    event_card: 'event card',
    watermark: 'watermark',
    drag_bubble: 'drag bubble',
    unknown: 'time of unknown source',
    readout: 'readout',
  }[r.source];
  return `${what}${where} ${r.text}`;
}

/** The self-drawn timeline: a described custom view without a range (a SeekBar has one: set_progress it). */
export function findTimeline(obs: Observation, id?: string): Element | undefined {
  const isTimeline = (e: Element) =>
    !e.range && TIMELINE_RE.test(`${e.resourceId} ${e.desc} ${e.label ?? ''}`) && e.boundsPx.right > e.boundsPx.left;
  if (id) {
    const e = obs.elements.find((x) => x.id === id);
    return e && isTimeline(e) ? e : undefined;
  }
  return obs.elements.find(isTimeline);
}

/** Whether the screen has a timeline to seek: the planner offers seek_timeline only then. */
export function hasTimeline(obs: Observation): boolean {
  return findTimeline(obs) !== undefined;
}

/** The control that pauses playback, while it is playing. */
export function pauseControl(obs: Observation): Element | undefined {
  return obs.elements.find((e) => e.actionable && (PAUSE_RE.test(e.text.trim()) || PAUSE_RE.test(e.desc.trim())));
}

/** Whether a drag bubble is on screen (the timeline is still being moved). */
export function bubbleShown(obs: Observation): boolean {
  return timeReadings(obs).some((r) => r.source === 'drag_bubble');
}
