import { z } from 'zod';
import { FlagsSchema, RectSchema, WindowInfoSchema } from './types.js';

/**
 * The screen snapshot every layer shares — what a device returns and what perception consumes —
 * and the helper's `hello`: the wire schemas of the helper bridge protocol, version 3
 * (helper/PROTOCOL.md). They live in core because both device and perception depend on them;
 * `device/protocol/wire.ts` re-exports them for the protocol side. Bounds on the wire are pixels
 * of the full physical screen. Action schemas live in device/protocol/actions.ts.
 */

export const PROTOCOL_VERSION = 3;

export const WireNodeSchema = z.object({
  /** Index in `nodes`; parents come before children (pre-order). */
  id: z.number().int().nonnegative(),
  parent: z.number().int().min(-1),
  window: z.number().int(),
  /** Fully qualified Android class, e.g. android.widget.Button. */
  className: z.string(),
  package: z.string(),
  text: z.string(),
  desc: z.string(),
  resourceId: z.string(),
  hint: z.string().optional(),
  bounds: RectSchema,
  /** An element's flags (one definition, core/types.ts) and what only the tree has: focusable, visible. */
  flags: FlagsSchema.extend({ focusable: z.boolean(), visible: z.boolean() }),
  /** Seek bars and progress: the real min/max/current. */
  range: z.object({ min: z.number(), max: z.number(), current: z.number() }).optional(),
  /** Editable text: UTF-16 selection indices. */
  selection: z.object({ start: z.number().int(), end: z.number().int() }).optional(),
  /** Native actions the node supports (click, long_click, focus, set_text, set_progress, …). */
  actions: z.array(z.string()).default([]),
});
export type WireNode = z.infer<typeof WireNodeSchema>;

export const ScreenSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  rotation: z.number().int().min(0).max(3),
  density: z.number().int().positive(),
});
export type WireScreen = z.infer<typeof ScreenSchema>;

export const ScreenshotRequestSchema = z
  .object({
    format: z.enum(['png', 'jpeg']).default('png'),
    /** 0 < scale ≤ 1 of the full resolution. */
    scale: z.number().gt(0).max(1).default(1),
    quality: z.number().int().min(1).max(100).default(80),
  })
  .strict();

export const WireScreenshotSchema = z.object({
  format: z.enum(['png', 'jpeg']),
  width: z.number().int(),
  height: z.number().int(),
  /** Pixel rows of the full screen the image covers (a cropped capture starts below the status bar). */
  offsetY: z.number().int().default(0),
  /**
   * The screen revision the picture shows, when the helper knows it: a capture taken while a
   * transition still draws the previous screen differs from the tree's `seq`, and perception
   * then waits a frame instead of pairing a stale picture with a fresh tree.
   */
  seq: z.number().int().optional(),
  base64: z.string(),
});
export type WireScreenshot = z.infer<typeof WireScreenshotSchema>;

export const SnapshotRequestSchema = z
  .object({
    screenshot: ScreenshotRequestSchema.optional(),
  })
  .strict();
export type SnapshotRequest = z.infer<typeof SnapshotRequestSchema>;

export const SnapshotSchema = z.object({
  /** Increases with every change of the screen's content (screen revision). */
  seq: z.number().int(),
  takenAt: z.number(),
  screen: ScreenSchema,
  foreground: z.object({ package: z.string(), activity: z.string() }),
  keyboard: z.object({ shown: z.boolean(), bounds: RectSchema.optional() }),
  windows: z.array(WindowInfoSchema),
  nodes: z.array(WireNodeSchema),
  screenshot: WireScreenshotSchema.optional(),
});
export type WireSnapshot = z.infer<typeof SnapshotSchema>;

export const HelloSchema = z.object({
  protocol: z.literal(PROTOCOL_VERSION),
  helperVersion: z.string(),
  apiLevel: z.number().int(),
  device: z.object({ manufacturer: z.string(), model: z.string(), androidVersion: z.string() }),
  screen: ScreenSchema,
  /** The DESIGN §3 tools / protocol actions this host supports. */
  capabilities: z.array(z.string()),
  /** Limits this host enforces (helper/PROTOCOL.md §3); optional for older hosts. */
  limits: z
    .object({
      maxBodyBytes: z.number().int().positive(),
      maxBurstActions: z.number().int().positive(),
      maxWaitMs: z.number().int().positive(),
      maxScrolls: z.number().int().positive(),
      maxGestureMs: z.number().int().positive(),
      /** HTTP-level bounds (PROTOCOL §3): headers / whole request in time, else 408; JSON nesting, else 400. */
      headerTimeoutMs: z.number().int().positive().optional(),
      bodyTimeoutMs: z.number().int().positive().optional(),
      maxJsonDepth: z.number().int().positive().optional(),
    })
    .optional(),
});
export type Hello = z.infer<typeof HelloSchema>;
