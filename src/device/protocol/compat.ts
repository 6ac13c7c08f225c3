import { z } from 'zod';

/**
 * The plugin-compatible bridge contract (helper/PROTOCOL.md §8): `POST /action` with header
 * `x-android-bridge-token`, body `{ action, ...params }`, answer `{ ok: true, payload }` or
 * `{ ok: false, summary }`. Extra keys are ignored, as plugins may send them.
 */

export const COMPAT_TOKEN_HEADER = 'x-android-bridge-token';

export const COMPAT_ACTIONS = [
  'read_screen',
  'tap_node',
  'tap_point',
  'long_press',
  'type_text',
  'press',
  'launch_app',
  'swipe',
  'screenshot',
  'press_back',
] as const;
export type CompatActionName = (typeof COMPAT_ACTIONS)[number];

const Int = z.number().int();

export const CompatRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('read_screen') }),
  z.object({ action: z.literal('tap_node'), ref: Int.min(0) }),
  z.object({ action: z.literal('tap_point'), x: Int.min(0), y: Int.min(0) }),
  z
    .object({
      action: z.literal('long_press'),
      ref: Int.min(0).optional(),
      x: Int.min(0).optional(),
      y: Int.min(0).optional(),
      duration_ms: Int.min(300).max(2000).default(700),
    })
    .refine((v) => v.ref !== undefined || (v.x !== undefined && v.y !== undefined), {
      message: 'long_press needs ref, or x and y',
    }),
  z.object({ action: z.literal('type_text'), text: z.string().max(16_384) }),
  z.object({ action: z.literal('press'), key: z.enum(['back', 'home', 'recents', 'enter']) }),
  z.object({ action: z.literal('press_back') }),
  z.object({ action: z.literal('launch_app'), query: z.string().min(1) }),
  z.object({ action: z.literal('swipe'), direction: z.enum(['up', 'down', 'left', 'right']) }),
  z.object({ action: z.literal('screenshot') }),
]);
export type CompatRequest = z.infer<typeof CompatRequestSchema>;

export const CompatResponseSchema = z.union([
  z.object({ ok: z.literal(true), payload: z.string() }),
  z.object({ ok: z.literal(false), summary: z.string() }),
]);
export type CompatResponse = z.infer<typeof CompatResponseSchema>;

/** The screenshot payload, itself a JSON string. */
export const CompatScreenshotSchema = z.object({
  mediaType: z.string(),
  width: Int,
  height: Int,
  base64: z.string(),
});

/** One `read_screen` line: `[ref] Class "text" flags @(x,y)`. */
export const READ_SCREEN_LINE = /^\[(\d+)\] (\S+) "((?:[^"\\]|\\.)*)"((?: [a-z-]+)*) @\((-?\d+),(-?\d+)\)$/;
