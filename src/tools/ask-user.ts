import type { Tool } from './tool.js';
import { says } from './tool.js';

/** A question or report for the person: ends the run until they answer. */
export const askUser: Tool = {
  name: 'ask_user',
  help: says('ask_user(text=question or report) stops for the user'),
  needs: [[]],
  terminal: true,
  parse: (a) =>
    a.text
      ? { ok: true, action: { text: undefined, question: a.text } }
      : { ok: false, error: 'ask_user needs the question in text' },
};
