import type { Tool } from './tool.js';
import { says } from './tool.js';

/** The goal is reached (with the answer a question asks): ends the run. */
export const done: Tool = {
  name: 'done',
  help: says('done(text=the answer asked for, else what shows the goal reached)'),
  needs: [[]],
  terminal: true,
  completes: true,
  parse: (a) => ({ ok: true, action: { text: undefined, ...(a.text ? { answer: a.text } : {}) } }),
};
