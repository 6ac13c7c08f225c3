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

/** `hello` and `snapshot`: what the host is, and what is on the screen (tree + optional image). */

/** Protocol features beyond the actions themselves. */
export const EXTRA_CAPABILITIES = ['snapshot', 'screenshot', 'screenshot_jpeg', 'cancel', 'compat_action'] as const;

export function hello(phone: PhoneSurface, maxBodyBytes: number): Hello {
  const { info } = phone;
  return {
    protocol: PROTOCOL_VERSION,
    helperVersion: info.helperVersion,
    apiLevel: info.apiLevel,
    device: { manufacturer: info.manufacturer, model: info.model, androidVersion: info.androidVersion },
    screen: phone.screen(),
    // Multi-finger gestures need API 26 (Android 8.0), as on a real helper.
    capabilities: [
      ...ACTION_NAMES.filter((a) => info.apiLevel >= 26 || (a !== 'touch_gesture' && a !== 'pinch')),
      ...EXTRA_CAPABILITIES,
    ],
    limits: {
      maxBodyBytes,
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
