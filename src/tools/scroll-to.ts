import { z } from 'zod';
import { LIMITS, TARGET_MATCHES } from '../device/protocol/index.js';
import { nativeRequest, refuse } from '../executor/dispatch.js';
import { byId, containerSelector, scrollContainer } from '../executor/native-args.js';
import { type ScrollOutcome, scrollOnReads, scrollOutcome } from '../executor/scroll-reads.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** The budget as the tool's text states it: the request's defaults, and the most it may ask. */
const BUDGET = `${LIMITS.defaultScrolls} scrolls / ${LIMITS.defaultScrollMs / 1000} s unless max_scrolls / timeout_ms say more, at most ${LIMITS.maxScrolls} / ${LIMITS.maxScrollMs / 1000} s`;

/**
 * Scroll a list until a row with this title is visible (BUDGET, stops on no progress): the
 * helper's native scroll, or swipes and reads where the device has none. The model names the row
 * as listed or by its title, so its request matches by title (device/protocol/scroll-target.ts);
 * the history names the row found, or says whether the list ended.
 */
export const scrollTo: Tool = {
  name: 'scroll_to',
  explore: 'free',
  help: says(
    'scroll_to(text, target_id?, direction?) scrolls the list until a row with this title is visible (a row as listed works: its title is searched); direction up searches back',
  ),
  needs: [['scroll_to'], ['snapshot', 'swipe']],
  offeredOn: (t) => t.list,
  // The row as listed, or its title; the list is target_id or, when omitted, the one on screen.
  parse: (f) => {
    if (!f.text)
      return { ok: false, error: 'scroll_to needs text: the row to bring into view, as listed or its title' };
    const backward = f.direction === 'up' || f.direction === 'left';
    const args = { target: { text: f.text }, target_match: 'title', direction: backward ? 'backward' : 'forward' };
    return { ok: true, action: { args } };
  },
  fieldsOf: (a) => {
    const target = a.args?.target as { text?: unknown } | undefined;
    return {
      text: typeof target?.text === 'string' ? target.text : undefined,
      direction: a.args?.direction === 'backward' ? 'up' : undefined,
    };
  },
  // The list: the named element when it scrolls, else the one around it, else the page's list.
  bind: (a, obs) => {
    const args = { ...(a.args ?? {}) };
    const el = byId(obs, a.target_id);
    // An action in the planner's shape without protocol args (a replayed one): its text, by title.
    if (!args.target && a.text) Object.assign(args, { target: { text: a.text }, target_match: 'title' });
    if (!args.container) {
      const c = scrollContainer(obs, el);
      if (c) args.container = containerSelector(c, obs);
    }
    return { ...a, args };
  },
  prepare: (a, obs) =>
    a.args?.container
      ? nativeRequest(a, obs)
      : {
          ok: false,
          code: 'NOT_FOUND',
          message:
            'scroll_to: no scrollable list on this screen (none is marked scroll); swipe instead, or give the list as target_id',
        },
  dispatch: async (ctx, _a, _t, req, d) => {
    if (req?.action !== 'scroll_to') return { call: refuse(d, 'INVALID_ARGUMENT', 'scroll_to has no request') };
    if (!ctx.device.capabilities().ops.has('scroll_to')) {
      const r = await scrollOnReads(ctx.device, ctx.pacer, req, d);
      return { call: r.call, value: r.outcome };
    }
    const call = await ctx.device.native(req, d);
    return { call, value: scrollOutcome(call.device) };
  },
  summary: (v) => foundLine(v as ScrollOutcome | undefined),
  mcp: {
    title: 'Scroll to',
    description: `Scroll a list until the target is visible (${BUDGET}; stops on no progress). The list: container, or the one element_id names (a list or a row in it), else the largest list on the screen.`,
    fields: {
      container: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('exact selector of the list (resource_id as listed or in full, class_name, …)'),
      element_id: z.string().optional().describe('an element id from observe: the list, or a row inside it'),
      target: z
        .record(z.string(), z.unknown())
        .describe('selector of what to reveal, e.g. {"text": "Sourdough"}: exact unless target_match is title'),
      target_match: z
        .enum(TARGET_MATCHES)
        .optional()
        .describe(
          'title: a node matching target exactly still wins, else a row whose text has the same title ("Bluetooth" finds "Bluetooth, Connected", "Sourdough ¥18" finds "Sourdough"); default exact',
        ),
      direction: z.enum(['forward', 'backward']).optional(),
      max_scrolls: z
        .number()
        .int()
        .min(1)
        .max(LIMITS.maxScrolls)
        .optional()
        .describe(`scrolls before giving up (default ${LIMITS.defaultScrolls})`),
      timeout_ms: z
        .number()
        .int()
        .min(1)
        .max(LIMITS.maxScrollMs)
        .optional()
        .describe(`ms before giving up (default ${LIMITS.defaultScrollMs})`),
    },
  },
};

/** The history's line for a scroll_to that found its row: which row, so a title that found another is seen. */
function foundLine(v: ScrollOutcome | undefined): string | undefined {
  if (v?.found === undefined) return undefined;
  const how = v.scrolls === 0 ? 'already in view' : `after ${v.scrolls} scroll${v.scrolls === 1 ? '' : 's'}`;
  return `found "${v.found}" (${how})`;
}
