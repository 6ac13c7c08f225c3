import { z } from 'zod';
import type { Action } from '../core/types.js';
import { ground } from '../executor/grounding.js';
import type { Tool } from './tool.js';
import { noArgs, says } from './tool.js';

/** A swipe in the finger's direction, on an element (a banner, a carousel) or the screen's middle. */
export const swipe: Tool = {
  name: 'swipe',
  explore: 'scrolls',
  agentUse: 'dismiss',
  help: says('swipe(direction, target_id?) finger direction: up shows what is below'),
  needs: [['swipe']],
  parse: noArgs,
  aim: (a, obs) => {
    if (a.target_id === undefined && !a.point) return { ok: true };
    const g = ground(a, obs);
    return g.ok ? { ok: true, element: g.element, px: g.px } : g;
  },
  touch: true,
  gesture: true,
  dispatch: async (ctx, a, target, _req, d) => {
    const screen = { w: ctx.obs.screen.w, h: ctx.obs.screen.h };
    const from = target.px ?? { x: Math.round(screen.w / 2), y: Math.round(screen.h / 2) };
    // A third of the screen, but never longer than 80% of the target: a swipe on a small element
    // (a notification banner, a carousel) must start on it, not in whatever lies below.
    const box = target.element?.boundsPx;
    const span = (full: number, size: number | undefined) => Math.min(0.3 * full, size ? 0.8 * size : full);
    const spanX = span(screen.w, box && box.right - box.left);
    const spanY = span(screen.h, box && box.bottom - box.top);
    const dx = { left: -spanX, right: spanX, up: 0, down: 0 }[a.direction ?? 'up'];
    const dy = { left: 0, right: 0, up: -spanY, down: spanY }[a.direction ?? 'up'];
    const clamp = (v: number, max: number) => Math.min(max - 2, Math.max(1, Math.round(v)));
    const start = { x: clamp(from.x - dx / 2, screen.w), y: clamp(from.y - dy / 2, screen.h) };
    const end = { x: clamp(from.x + dx / 2, screen.w), y: clamp(from.y + dy / 2, screen.h) };
    const path = ctx.pacer.curvedPath(start, end);
    const ms = ctx.pacer.swipeMs(start, end, a.ms);
    return { call: await ctx.device.swipe(path, { durationMs: ms, guard: target.guard }, d), gestureMs: ms };
  },
  mcpDirect: {
    title: 'Swipe',
    description:
      'Swipe up/down/left/right (a third of the screen), from an element or point if given, else the centre.',
    target: 'any',
    fields: { direction: z.enum(['up', 'down', 'left', 'right']) },
    destructive: false,
    call: (args, at) => ({
      action: { direction: args.direction as Action['direction'], ...at.aimed },
      expect: { kind: 'screen_changes' },
    }),
  },
};
