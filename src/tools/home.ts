import type { Tool } from './tool.js';
import { noArgs, says } from './tool.js';

/** The system home key: the launcher. */
export const home: Tool = {
  name: 'home',
  explore: 'free',
  help: says('home (expect page_changes)'),
  needs: [['key']],
  mcpKey: 'home',
  parse: noArgs,
  dispatch: async (ctx, _a, _t, _req, d) => ({ call: await ctx.device.key('home', d) }),
};
