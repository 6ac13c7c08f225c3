import type { Tool } from './tool.js';
import { says } from './tool.js';

/** The goal cannot be reached on this phone: ends the run with the reason. */
export const infeasible: Tool = {
  name: 'infeasible',
  help: says('infeasible(text=reason)'),
  needs: [[]],
  terminal: true,
  parse: (a) =>
    a.text
      ? { ok: true, action: { text: undefined, reason: a.text } }
      : { ok: false, error: 'infeasible needs the reason in text' },
};
