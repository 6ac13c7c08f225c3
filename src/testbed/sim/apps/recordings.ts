import type { App, AppContext, AppScreen } from '../app.js';
import type { View } from '../kit/view.js';
import type { RecordingsState } from '../world.js';
import {
  cameraName,
  clampTime,
  DAY_SEC,
  dragTarget,
  hms,
  recordingsState,
  seedRecordings,
  zoomBy,
} from './recordings-data.js';
import { paintTimeline, paintVideo } from './recordings-paint.js';

/**
 * Recordings: a camera / NVR playback screen, as such apps are drawn. The timeline is a custom
 * view (one "Timeline" node, no range: its ticks and labels are pixels); a fixed red cursor sits in
 * its middle and a readout above it shows the time under the cursor (a TextView `current_time`,
 * labelled "Current time"). Dragging moves the content and it coasts a little after the finger
 * lifts (momentum, ~300 ms); pinching changes the scale by the app's own response (scale^gamma).
 * Play advances the cursor one second per second of the phone's clock until Pause. Things that
 * look like the current time and are not: the watermark (the camera's own, drifting clock), event
 * cards (when something happened) and the bubble shown while dragging (the time under the finger
 * at release, before the momentum). `world.recordings.readout = false` is a camera model without
 * the readout.
 */
export const RECORDINGS_PACKAGE = 'com.example.recordings';

/** Momentum frames after a drag: share of the remaining way covered at each (every 80 ms). */
const COAST = [0.5, 0.8, 0.95, 1];
const COAST_STEP_MS = 80;
/** How long the drag bubble stays after the finger lifts. */
const BUBBLE_MS = 700;
/** Pre-roll of an event card: tapping it starts playback a few seconds before the event. */
const PRE_ROLL_SEC = 3;

const T = {
  en: {
    title: 'Recordings',
    current: 'Current time',
    play: 'Play',
    pause: 'Pause',
    events: 'Events today',
    motion: 'Motion detected',
    person: 'Person detected',
    timeline: 'Timeline',
    video: 'Video',
  },
  zh: {
    title: '录像回放',
    current: '当前时间',
    play: '播放',
    pause: '暂停',
    events: '今日事件',
    motion: '检测到移动',
    person: '检测到人形',
    timeline: '时间轴',
    video: '视频画面',
  },
} as const;

export function createRecordingsApp(): App {
  /** Bumped to cancel a running momentum or playback chain. */
  let coastGen = 0;
  let playGen = 0;
  let bubble: { text: string; gen: number } | undefined;
  let bubbleGen = 0;

  /** Where playback started on the phone's clock: the cursor is this plus the whole seconds since. */
  let anchor: { at: number; pos: number } | undefined;

  const sync = (ctx: AppContext, s: RecordingsState): void => {
    if (!s.playing || !anchor) return;
    s.position = clampTime(anchor.pos + Math.floor((ctx.clock.now() - anchor.at) / 1000));
    if (s.position >= DAY_SEC - 1) {
      s.playing = false;
      anchor = undefined;
    }
  };

  /** Playback goes on from here (a drag or an event card moved the cursor while playing). */
  const reanchor = (ctx: AppContext, s: RecordingsState): void => {
    if (s.playing) anchor = { at: ctx.clock.now(), pos: s.position };
  };

  const startPlayback = (ctx: AppContext, s: RecordingsState): void => {
    s.playing = true;
    anchor = { at: ctx.clock.now(), pos: Math.floor(s.position) };
    const gen = ++playGen;
    // One tick per second boundary: each is a new screen revision. Timers fire lazily (when the
    // phone is read), so the position comes from the clock, not from counting ticks.
    const tick = () => {
      if (gen !== playGen || !s.playing || !anchor) return;
      sync(ctx, s);
      if (s.playing && anchor) ctx.later(1000 - ((ctx.clock.now() - anchor.at) % 1000), tick);
    };
    ctx.later(1000, tick);
  };

  const pause = (ctx: AppContext, s: RecordingsState): void => {
    sync(ctx, s);
    s.playing = false;
    anchor = undefined;
    playGen++;
    // A paused player rests on a whole second, as its readout shows.
    s.position = Math.floor(s.position);
  };

  const drag = (ctx: AppContext, s: RecordingsState, dx: number, width: number, durationMs: number): void => {
    // A new touch stops a coasting timeline where it is.
    const gen = ++coastGen;
    const { atRelease, settled } = dragTarget(s, dx, width, durationMs);
    s.position = atRelease;
    reanchor(ctx, s);
    const b = ++bubbleGen;
    bubble = { text: hms(atRelease), gen: b };
    ctx.later(BUBBLE_MS, () => {
      if (bubble?.gen === b) bubble = undefined;
    });
    const from = atRelease;
    COAST.forEach((share, i) => {
      ctx.later(COAST_STEP_MS * (i + 1), () => {
        if (gen !== coastGen) return;
        s.position = from + (settled - from) * share;
        // Settled: a paused player rests on a whole second.
        if (i === COAST.length - 1 && !s.playing) s.position = Math.round(s.position);
        reanchor(ctx, s);
      });
    });
  };

  const screen = (ctx: AppContext): AppScreen => {
    const zh = ctx.locale === 'zh';
    const t = zh ? T.zh : T.en;
    const s = recordingsState(ctx.world);
    sync(ctx, s);
    const camera = cameraName(s.camera, zh);
    const readout: View[] = s.readout
      ? [
          {
            kind: 'column',
            id: 'cursor_readout',
            padding: 6,
            gap: 0,
            children: [
              {
                kind: 'text',
                id: 'current_time_label',
                text: t.current,
                size: 'small',
                align: 'center',
                color: '#5f6368',
              },
              {
                kind: 'text',
                id: 'current_time',
                desc: t.current,
                text: hms(s.position),
                size: 'title',
                bold: true,
                align: 'center',
              },
            ],
          },
        ]
      : [];
    const cards: View[] = s.events.map((e) => ({
      kind: 'row',
      id: 'event_card',
      padding: 12,
      onTap: () => {
        s.position = clampTime(e.at - PRE_ROLL_SEC);
        if (s.playing) reanchor(ctx, s);
        else startPlayback(ctx, s);
      },
      children: [
        { kind: 'text', id: 'event_kind', text: e.kind === 'person' ? t.person : t.motion, weight: 2 },
        { kind: 'text', id: 'event_time', text: hms(e.at), color: '#5f6368' },
      ],
    }));
    return {
      activity: '.PlaybackActivity',
      title: t.title,
      root: {
        kind: 'column',
        padding: 0,
        gap: 0,
        children: [
          {
            kind: 'row',
            padding: 12,
            children: [
              { kind: 'text', id: 'camera_name', text: camera, size: 'large', bold: true, weight: 2 },
              { kind: 'text', id: 'day', text: s.day, color: '#5f6368' },
            ],
          },
          {
            kind: 'canvas',
            id: 'video',
            className: 'android.view.SurfaceView',
            desc: t.video,
            height: 220,
            paint: (w, h) => paintVideo(s, w, h, camera),
          },
          {
            kind: 'row',
            padding: 4,
            background: '#202124',
            children: [
              {
                kind: 'text',
                id: 'osd_watermark',
                text: `${s.day} ${hms(s.position + s.watermarkDriftSec)}`,
                size: 'small',
                color: '#ffffff',
              },
            ],
          },
          ...readout,
          {
            kind: 'row',
            height: 28,
            padding: 0,
            children: bubble
              ? [{ kind: 'text', id: 'drag_bubble', text: bubble.text, size: 'small', align: 'center', bold: true }]
              : [],
          },
          {
            kind: 'canvas',
            id: 'timeline',
            desc: t.timeline,
            height: 110,
            paint: (w, h) => paintTimeline(s, w, h),
            onPinch: (scale) => zoomBy(s, scale),
            onDrag: (dx, _dy, size, info) => drag(ctx, s, dx, size.width, info?.durationMs ?? 300),
          },
          {
            kind: 'row',
            padding: 8,
            children: [
              {
                kind: 'button',
                id: 'play_pause',
                text: s.playing ? t.pause : t.play,
                style: 'primary',
                onTap: () => (s.playing ? pause(ctx, s) : startPlayback(ctx, s)),
              },
            ],
          },
          { kind: 'row', padding: 12, children: [{ kind: 'text', id: 'events_title', text: t.events, bold: true }] },
          { kind: 'list', id: 'events', height: 'fill', children: cards },
        ],
      },
    };
  };

  return {
    package: RECORDINGS_PACKAGE,
    label: 'Recordings',
    labelZh: '录像回放',
    iconColor: '#5e35b1',
    glyph: '▶',
    activities: ['.PlaybackActivity'],
    seedWorld: seedRecordings,
    onLaunch(ctx) {
      coastGen++;
      bubble = undefined;
      anchor = undefined;
      const s = recordingsState(ctx.world);
      if (s.playing) startPlayback(ctx, s);
    },
    render(_route, ctx) {
      return screen(ctx);
    },
  };
}
