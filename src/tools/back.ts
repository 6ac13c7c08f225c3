import type { Tool } from './tool.js';
import { noArgs, says } from './tool.js';

/** The system back key. */
export const back: Tool = {
  name: 'back',
  explore: 'free',
  help: says('back'),
  needs: [['key']],
  mcpKey: 'back',
  parse: noArgs,
  dispatch: async (ctx, _a, _t, _req, d) => ({ call: await ctx.device.key('back', d) }),
};
