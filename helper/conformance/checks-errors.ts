import { appNodes, brief, type Check, expect, expectCode, need, uniqueTextNode } from './suite.js';

/** Error codes a black-box client can provoke on any phone (PROTOCOL.md §4, §6). */

export const errorChecks: Check[] = [
  {
    name: 'error NOT_FOUND',
    async run({ client }) {
      const r = await client.action({ action: 'read_control', selector: { text: `no such node ${Math.random()}` } });
      expectCode(r, 'NOT_FOUND', 'read_control of a missing node');
      expect(r.status === 'not_started', `status ${r.status}`);
    },
  },
  {
    name: 'error AMBIGUOUS',
    async run({ client }) {
      const s = await client.snapshot();
      const nodes = appNodes(s);
      const cls = need(
        nodes.map((n) => n.className).find((c) => nodes.filter((n) => n.className === c).length > 1),
        'a class with two nodes',
      );
      const r = await client.action({ action: 'read_control', selector: { class_name: cls } });
      expectCode(r, 'AMBIGUOUS', `read_control of class ${cls}`);
    },
  },
  {
    name: 'error INVALID_ARGUMENT: package/bounds-only selector',
    async run({ client, state }) {
      const r = await client.post('/v3/action', {
        action: 'read_control',
        selector: {
          package_name: state.settingsPackage ?? 'com.android.settings',
          bounds: { left: 0, top: 0, right: 10, bottom: 10 },
        },
      });
      expect(r.status === 400, `got HTTP ${r.status}`);
    },
  },
  {
    name: 'error UNSUPPORTED: set_progress on a control without it',
    async run({ client }) {
      const s = await client.snapshot();
      const n = need(
        uniqueTextNode(s, (m) => !m.actions.includes('set_progress')),
        'a text node',
      );
      const r = await client.action({
        action: 'control_action',
        request: { selector: { text: n.text }, action: 'set_progress', value: 1 },
      });
      expectCode(r, 'UNSUPPORTED', 'set_progress on text');
    },
  },
  {
    name: 'error TIMEOUT: wait_until on a node that never appears',
    async run({ client }) {
      const r = await client.action({
        action: 'wait_until',
        condition: 'appears',
        selector: { text: `never ${Math.random()}` },
        timeout_ms: 500,
      });
      expectCode(r, 'TIMEOUT', 'wait_until');
    },
  },
  {
    name: 'error INVALID_ARGUMENT: bad gestures rejected before input',
    async run({ client, state }) {
      const h = need(state.hello, 'hello');
      const bad = [
        // at_ms not strictly increasing
        {
          frames: [
            { at_ms: 0, points: [{ x: 500, y: 500 }] },
            { at_ms: 0, points: [{ x: 500, y: 600 }] },
          ],
        },
        // finger count changes
        {
          frames: [
            { at_ms: 0, points: [{ x: 300, y: 500 }] },
            {
              at_ms: 100,
              points: [
                { x: 300, y: 600 },
                { x: 700, y: 600 },
              ],
            },
          ],
        },
        // outside the screen (pixels)
        {
          coord_space: 'pixel',
          frames: [
            { at_ms: 0, points: [{ x: 10, y: 10 }] },
            { at_ms: 100, points: [{ x: h.screen.width + 5, y: 10 }] },
          ],
        },
        // two fingers merging
        {
          frames: [
            {
              at_ms: 0,
              points: [
                { x: 300, y: 500 },
                { x: 700, y: 500 },
              ],
            },
            {
              at_ms: 200,
              points: [
                { x: 500, y: 500 },
                { x: 500, y: 500 },
              ],
            },
          ],
        },
        // longer than 10 s
        {
          frames: [
            { at_ms: 0, points: [{ x: 500, y: 500 }] },
            { at_ms: 10_001, points: [{ x: 500, y: 500 }] },
          ],
        },
      ];
      for (const g of bad) {
        const r = await client.post('/v3/action', { action: 'touch_gesture', ...g });
        expect(r.status === 400, `accepted ${brief(g)}: HTTP ${r.status}`);
      }
      const pinch = await client.post('/v3/action', {
        action: 'pinch',
        x: 5,
        y: 500,
        start_distance: 100,
        end_distance: 900,
      });
      expect(pinch.status === 400, `a pinch leaving the screen was accepted: HTTP ${pinch.status}`);
    },
  },
];
