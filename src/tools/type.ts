import { z } from 'zod';
import type { Element } from '../core/types.js';
import type { DeviceCall } from '../device/device.js';
import { refuse } from '../executor/dispatch.js';
import { ground } from '../executor/grounding.js';
import { enterText } from '../executor/text-input.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/**
 * Text into a field (its target, or the focused one), clearing what was there: the text ladder
 * (set the node's text → IME commit → ask the user), read back to verify (DESIGN §5).
 */
export const type: Tool = {
  name: 'type',
  explore: 'types',
  help: says("type(target_id, text) replaces the field's text"),
  needs: [['set_text'], ['ime_commit'], ['input_text']],
  offeredOn: (t) => t.field,
  parse: (a) => (a.text === undefined ? { ok: false, error: 'type needs text' } : { ok: true, action: {} }),
  typed: () => true,
  entersText: () => true,
  // Typing that ends in a newline submits what the field holds.
  submits: (a) => /\n$/.test(a.text ?? (typeof a.args?.text === 'string' ? a.args.text : '')),
  aim: (a, obs) => {
    if (a.text === undefined) return { ok: false, code: 'INVALID_ARGUMENT', message: 'type needs text' };
    let field: Element | undefined;
    if (a.target_id !== undefined || a.point) {
      const g = ground(a, obs);
      if (!g.ok) return g;
      field = g.element;
    } else field = obs.elements.find((e) => e.flags.editable && e.flags.focused);
    if (!field)
      return {
        ok: false,
        code: 'NOT_FOUND',
        message: 'no field to type into: give the target_id of an editable field, or focus one first',
      };
    if (!field.flags.editable)
      return {
        ok: false,
        code: 'NOT_EDITABLE',
        message: `"${field.text || field.desc || field.role}" is not an editable field; pick a field marked fill`,
      };
    return { ok: true, element: field };
  },
  dispatch: async (ctx, a, target, _req, d) => {
    if (!target.element || a.text === undefined)
      return { call: refuse(d, 'INVALID_ARGUMENT', 'type needs a field and text') };
    const text = await enterText(
      { device: ctx.device, logger: ctx.logger, pacer: ctx.pacer, read: ctx.read },
      target.element,
      a.text,
      d,
    );
    const call: DeviceCall = text.ok
      ? { ok: true, receipt: text.receipt }
      : {
          ok: false,
          code: text.receipt.error?.code ?? 'UNSUPPORTED',
          message: text.message ?? 'text not entered',
          receipt: text.receipt,
        };
    return { call, text };
  },
  mcpDirect: {
    name: 'type_text',
    title: 'Type text',
    description:
      'Type text into a field (element_id or selector; default: the focused field). Any Unicode: set on the node, else IME commit; read back to verify. Pre-filled text is replaced.',
    target: 'element',
    fields: { text: z.string().max(4096) },
    destructive: false,
    call: (args, at) => {
      const field = at.element ?? at.obs.elements.find((e) => e.flags.editable && e.flags.focused);
      if (!field || !field.flags.editable)
        return {
          code: 'NOT_EDITABLE',
          message: field
            ? `element ${field.id} is not an editable field`
            : 'no field is focused: pass the element_id or selector of the field',
        };
      const text = String(args.text);
      return {
        action: { target_id: field.id, text },
        expect: field.flags.password
          ? { kind: 'screen_changes' }
          : { kind: 'element_state', target_id: field.id, state: `text=${text}` },
      };
    },
  },
};
