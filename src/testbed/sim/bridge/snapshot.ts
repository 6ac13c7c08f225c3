import sharp from 'sharp';
import { ACTION_NAMES, LIMITS } from '../../../device/protocol/actions.js';
import {
  type Hello,
  PROTOCOL_VERSION,
  type SnapshotRequest,
  type WireScreenshot,
  type WireSnapshot,
} from '../../../device/protocol/wire.js';
import type { PhoneSurface } from '../surface.js';
import { MAX_JSON_DEPTH } from './http.js';

/** `hello` and `snapshot`: what the host is, and what is on the screen (tree + optional image). */

/** Protocol features beyond the actions themselves (`guarded_touch`: PROTOCOL.md §7; `list_apps`: §5). */
export const EXTRA_CAPABILITIES = [
  'snapshot',
  'screenshot',
  'screenshot_jpeg',
  'cancel',
  'compat_action',
  'guarded_touch',
  'list_apps',
] as const;

/** What the HTTP layer enforces, announced in `hello.limits` (helper/PROTOCOL.md §3). */
export interface TransportLimits {
  maxBodyBytes: number;
  headerTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** The actions and features this phone's helper supports. */
export function capabilities(phone: PhoneSurface, omit: readonly string[] = []): string[] {
  // Multi-finger gestures need API 26 (Android 8.0), as on a real helper.
  const api = phone.info.apiLevel;
  const all = [
    ...ACTION_NAMES.filter((a) => api >= 26 || (a !== 'touch_gesture' && a !== 'pinch')),
    ...EXTRA_CAPABILITIES,
  ];
  return all.filter((c) => !omit.includes(c));
}

export function hello(phone: PhoneSurface, transport: TransportLimits, omit: readonly string[] = []): Hello {
  const { info } = phone;
  return {
    protocol: PROTOCOL_VERSION,
    helperVersion: info.helperVersion,
    apiLevel: info.apiLevel,
    device: { manufacturer: info.manufacturer, model: info.model, androidVersion: info.androidVersion },
    screen: phone.screen(),
    capabilities: capabilities(phone, omit),
    limits: {
      ...transport,
      maxJsonDepth: MAX_JSON_DEPTH,
      maxBurstActions: LIMITS.maxBurstActions,
      maxWaitMs: LIMITS.maxWaitMs,
      maxScrolls: LIMITS.maxScrolls,
      maxGestureMs: LIMITS.maxGestureMs,
    },
  };
}

async function encode(phone: PhoneSurface, opts: NonNullable<SnapshotRequest['screenshot']>): Promise<WireScreenshot> {
  const shot = await phone.screenshot();
  if (opts.format === 'png' && opts.scale === 1)
    return {
      format: 'png',
      width: shot.width,
      height: shot.height,
      offsetY: shot.offsetY,
      seq: shot.seq,
      base64: shot.png.toString('base64'),
    };
  const width = Math.max(1, Math.round(shot.width * opts.scale));
  const height = Math.max(1, Math.round(shot.height * opts.scale));
  let img = sharp(shot.png);
  if (opts.scale !== 1) img = img.resize(width, height, { fit: 'fill' });
  const buf =
    opts.format === 'jpeg' ? await img.jpeg({ quality: opts.quality }).toBuffer() : await img.png().toBuffer();
  return {
    format: opts.format,
    width: opts.scale === 1 ? shot.width : width,
    height: opts.scale === 1 ? shot.height : height,
    offsetY: shot.offsetY,
    seq: shot.seq,
    base64: buf.toString('base64'),
  };
}

export async function snapshot(phone: PhoneSurface, req: SnapshotRequest): Promise<WireSnapshot> {
  const tree = await phone.readTree();
  if (!req.screenshot) return tree;
  return { ...tree, screenshot: await encode(phone, req.screenshot) };
}
