import { z } from 'zod';
import { refuse } from '../executor/dispatch.js';
import { LONG_PRESS_MS } from '../executor/pacing.js';
import { aimTouch } from '../executor/targets.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** A long press (held ≥ 700 ms), offered where something takes one or the screen is drawn. */
export const longPress: Tool = {
  name: 'long_press',
  help: says('long_press(target_id|point)'),
  needs: [['long_press']],
  offeredOn: (t) => t.longPress,
  parse: (a) =>
    !a.target_id && !a.point
      ? { ok: false, error: 'long_press needs target_id (or a point when no element fits)' }
      : { ok: true, action: {} },
  aim: aimTouch,
  touch: true,
  gesture: true,
  presses: () => true,
  dispatch: async (ctx, a, target, _req, d) => {
    if (!target.px) return { call: refuse(d, 'INVALID_ARGUMENT', 'long_press has no point') };
    const ms = Math.max(LONG_PRESS_MS, a.ms ?? 0);
    return { call: await ctx.device.longPress(target.px, { durationMs: ms, guard: target.guard }, d), gestureMs: ms };
  },
  mcpDirect: {
    title: 'Long press',
    description: 'Long-press an element or a point (same targets as tap); ms sets the hold (default ~600 ms).',
    target: 'any',
    targetRequired: true,
    fields: { ms: z.number().int().min(300).max(10_000).optional() },
    destructive: true,
    call: (args, at) => ({
      action: { ...at.aimed, ...(typeof args.ms === 'number' ? { ms: args.ms } : {}) },
      expect: { kind: 'screen_changes' },
    }),
  },
};
