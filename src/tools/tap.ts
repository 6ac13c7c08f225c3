import type { Element, Expect } from '../core/types.js';
import { refuse } from '../executor/dispatch.js';
import { aimTouch } from '../executor/targets.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** What a tap on this element should do, when an MCP client does not say. */
function defaultTapExpect(e: Element | undefined): Expect {
  if (e?.flags.checkable) return { kind: 'element_state', target_id: e.id, state: e.flags.checked ? 'off' : 'on' };
  if (e?.flags.editable) return { kind: 'keyboard_shown' };
  return { kind: 'screen_changes' };
}

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
  presses: () => true,
  // A tap on a field focuses it: the page may rightly look the same.
  showsNothing: (_a, target) => !!target?.flags.editable,
  // A tap on a launcher icon opens its app.
  opensApp: () => 'by_icon',
  dispatch: async (ctx, _a, target, _req, d) => {
    if (!target.px) return { call: refuse(d, 'INVALID_ARGUMENT', 'tap has no point') };
    const ms = ctx.pacer.tapMs();
    return { call: await ctx.device.tap(target.px, { durationMs: ms, guard: target.guard }, d), gestureMs: ms };
  },
  mcpDirect: {
    title: 'Tap',
    description:
      'Tap an element (element_id from observe, or an exact selector resolved now) or a point. A tap on Pay/Send/Delete asks the user first (elicitation) or returns needs_confirmation.',
    target: 'any',
    targetRequired: true,
    fields: {},
    destructive: true,
    call: (_args, at) => ({ action: at.aimed, expect: defaultTapExpect(at.element) }),
  },
};
