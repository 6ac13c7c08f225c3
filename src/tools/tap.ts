import { refuse } from '../executor/dispatch.js';
import { aimTouch } from '../executor/targets.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** A tap on an element (by id) or a point, grounded and re-checked right before it lands. */
export const tap: Tool = {
  name: 'tap',
  explore: 'presses',
  agentUse: 'press',
  help: says('tap(target_id|point)'),
  needs: [['tap']],
  parse: (a) =>
    !a.target_id && !a.point
      ? { ok: false, error: 'tap needs target_id (or a point when no element fits)' }
      : { ok: true, action: {} },
  aim: aimTouch,
  touch: true,
  gesture: true,
  dispatch: async (ctx, _a, target, _req, d) => {
    if (!target.px) return { call: refuse(d, 'INVALID_ARGUMENT', 'tap has no point') };
    const ms = ctx.pacer.tapMs();
    return { call: await ctx.device.tap(target.px, { durationMs: ms, guard: target.guard }, d), gestureMs: ms };
  },
};
