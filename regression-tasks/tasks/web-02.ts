import { PROMO_URL } from '../../src/testbed/sim/apps/browser-data.js';
import type { TaskDef } from '../types.js';

/**
 * WEB-02: reach the canvas-only Promo page (800 ms of loading state, then a tree with one WebView
 * node: a sparse, visual-first page). WEB-01 (reading the coupon code off the pixels) needs a model
 * that reads images; the reference model cannot, so WEB-01 is not in the catalog yet.
 */
export const WEB_02: TaskDef = {
  id: 'WEB-02',
  category: 'web',
  tags: ['web', 'visual-first', 'en'],
  instruction: 'Open the "Promo" bookmark in Browser.',
  check: async (_w, run, _p, phone) => {
    const fg = phone.foreground();
    const tree = await phone.readTree();
    const loaded = tree.nodes.some((n) => n.className === 'android.webkit.WebView' && n.flags.visible);
    const url = tree.nodes.find((n) => n.resourceId.endsWith(':id/url'))?.text ?? '';
    return run.status === 'done' && fg.activity === '.PageActivity' && loaded && url === PROMO_URL
      ? { ok: true }
      : { ok: false, reason: `screen ${fg.activity}, loaded=${loaded}, url=${url}, status=${run.status}` };
  },
  optimalSteps: 3,
  intents: ['launch "Browser"', 'tap "Promo"', 'done'],
};
