import { z } from 'zod';
import { LIMITS } from '../device/protocol/index.js';
import { nativeRequest, refuse, sendNative } from '../executor/dispatch.js';
import { byId, containerSelector, rowTitle, scrollContainer } from '../executor/native-args.js';
import { scrollOnReads } from '../executor/scroll-reads.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/** The budget as the tool's text states it: the request's defaults, and the most it may ask. */
const BUDGET = `${LIMITS.defaultScrolls} scrolls / ${LIMITS.defaultScrollMs / 1000} s unless max_scrolls / timeout_ms say more, at most ${LIMITS.maxScrolls} / ${LIMITS.maxScrollMs / 1000} s`;

/**
 * Scroll a list until a row with this title is visible (BUDGET, stops on no progress): the
 * helper's native scroll, or swipes and reads where the device has none.
 */
export const scrollTo: Tool = {
  name: 'scroll_to',
  explore: 'free',
  help: says(
    'scroll_to(text, target_id?, direction?) scrolls the list until a row with this title is visible (a row as listed works: its title is searched); direction up searches back',
  ),
  needs: [['scroll_to'], ['snapshot', 'swipe']],
  offeredOn: (t) => t.list,
  // The item's exact text; the list is target_id or, when omitted, the one on screen.
  parse: (f) => {
    if (!f.text) return { ok: false, error: 'scroll_to needs text: the exact text of the item to bring into view' };
    const backward = f.direction === 'up' || f.direction === 'left';
    return { ok: true, action: { args: { target: { text: f.text }, direction: backward ? 'backward' : 'forward' } } };
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
    const t = args.target;
    // The protocol matches a node's text exactly; the model gives a row as listed.
    if (t && typeof t === 'object' && typeof (t as { text?: unknown }).text === 'string')
      args.target = { ...t, text: rowTitle((t as { text: string }).text) };
    else if (!t && a.text) args.target = { text: rowTitle(a.text) };
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
    if (!req) return { call: refuse(d, 'INVALID_ARGUMENT', 'scroll_to has no request') };
    if (req.action === 'scroll_to' && !ctx.device.capabilities().ops.has('scroll_to'))
      return { call: await scrollOnReads(ctx.device, ctx.pacer, req, d) };
    return sendNative(ctx.device, req, d);
  },
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
        .describe('exact selector of what to reveal, e.g. {"text": "Sourdough"} (a row\'s title as listed)'),
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
    readOnly: false,
  },
};
