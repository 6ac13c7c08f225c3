import { CompatScreenshotSchema, READ_SCREEN_LINE } from '../../src/device/protocol/compat.js';
import { pngSize, screenshotDeclared } from './checks-transport.js';
import { type Check, type Ctx, expect, need, settle } from './suite.js';

/** The plugin-compatible `POST /action` endpoint. */

interface Line {
  ref: number;
  cls: string;
  text: string;
  flags: string[];
  x: number;
  y: number;
}

async function readScreen(ctx: Ctx): Promise<Line[]> {
  const r = await ctx.client.compat({ action: 'read_screen' });
  expect(r.ok, `read_screen failed: ${r.ok ? '' : r.summary}`);
  const lines = r.payload.split('\n').filter((l) => l !== '');
  expect(lines.length > 0, 'read_screen returned no lines');
  return lines.map((l) => {
    const m = READ_SCREEN_LINE.exec(l);
    expect(m, `line does not match [ref] Class "text" flags @(x,y): ${l}`);
    return {
      ref: Number(m[1]),
      cls: m[2] ?? '',
      text: m[3] ?? '',
      flags: (m[4] ?? '').trim().split(' ').filter(Boolean),
      x: Number(m[5]),
      y: Number(m[6]),
    };
  });
}

function okOrFail(r: { ok: boolean; summary?: string }, what: string): void {
  expect(r.ok, `${what}: ${r.summary ?? ''}`);
}

export const compatChecks: Check[] = [
  {
    name: 'compat: press home, launch_app, read_screen format',
    async run(ctx) {
      const { client } = ctx;
      okOrFail(await client.compat({ action: 'press', key: 'home' }), 'press home');
      let launched = await client.compat({ action: 'launch_app', query: 'Settings' });
      if (!launched.ok) launched = await client.compat({ action: 'launch_app', query: '设置' });
      okOrFail(launched, 'launch_app Settings');
      await settle(ctx);
      const lines = await readScreen(ctx);
      expect(
        lines.every((l, i) => l.ref === i + 1),
        'refs are not numbered 1..n',
      );
      ctx.note(`${lines.length} lines`);
    },
  },
  {
    name: 'compat: tap_node, unknown ref, tap_point, long_press',
    async run(ctx) {
      const { client } = ctx;
      const lines = await readScreen(ctx);
      const bad = await client.compat({ action: 'tap_node', ref: lines.length + 1000 });
      expect(!bad.ok, 'an unknown ref was accepted');
      const label = lines.find((l) => !l.flags.includes('clickable') && l.text !== '') ?? lines[0];
      const target = need(label, 'a line');
      okOrFail(await client.compat({ action: 'tap_node', ref: target.ref }), 'tap_node');
      okOrFail(await client.compat({ action: 'tap_point', x: target.x, y: target.y }), 'tap_point');
      okOrFail(
        await client.compat({ action: 'long_press', x: target.x, y: target.y, duration_ms: 800 }),
        'long_press x,y',
      );
      const again = await readScreen(ctx);
      const same = again.find((l) => l.text === target.text && l.cls === target.cls) ?? again[0];
      okOrFail(await client.compat({ action: 'long_press', ref: need(same, 'a line').ref }), 'long_press ref');
      const invalid = await client.post('/action', { action: 'tap_point', x: 'left' }, 'compat');
      expect(invalid.status === 400, `bad params accepted: HTTP ${invalid.status}`);
    },
  },
  {
    name: 'compat: swipe up/down/left/right',
    async run({ client }) {
      for (const direction of ['up', 'down', 'left', 'right'])
        okOrFail(await client.compat({ action: 'swipe', direction }), `swipe ${direction}`);
    },
  },
  {
    name: 'compat: type_text into the focused field (Unicode)',
    async run(ctx) {
      const { client } = ctx;
      const edit = need(ctx.state.edit, 'the editable field (found by an earlier check)');
      // Reach the field again: it lives in Settings search.
      const visible = await client.action({
        action: 'wait_until',
        condition: 'appears',
        selector: edit,
        timeout_ms: 300,
      });
      if (visible.status !== 'observed') {
        const lines = await readScreen(ctx);
        const search = need(
          lines.find((l) => /search|搜索/i.test(l.text)),
          'a search entry on the Settings screen',
        );
        okOrFail(await client.compat({ action: 'tap_node', ref: search.ref }), 'tap search');
        await settle(ctx);
      }
      await client.action({ action: 'set_text', selector: edit, text: '' });
      await client.action({ action: 'control_action', request: { selector: edit, action: 'focus' } });
      okOrFail(await client.compat({ action: 'type_text', text: 'héllo 世界' }), 'type_text');
      const r = await client.action({ action: 'read_control', selector: edit });
      expect(r.control?.text === 'héllo 世界', `field holds ${JSON.stringify(r.control?.text)}`);
    },
  },
  {
    name: 'compat: press back (and the press_back alias), recents, home',
    async run(ctx) {
      const { client } = ctx;
      okOrFail(await client.compat({ action: 'press', key: 'back' }), 'press back');
      okOrFail(await client.compat({ action: 'press_back' }), 'press_back');
      okOrFail(await client.compat({ action: 'press', key: 'recents' }), 'press recents');
      await settle(ctx);
      okOrFail(await client.compat({ action: 'press', key: 'home' }), 'press home');
      okOrFail(await client.compat({ action: 'press', key: 'enter' }), 'press enter');
    },
  },
  {
    name: 'compat: screenshot payload',
    async run(ctx) {
      const { client } = ctx;
      const r = await client.compat({ action: 'screenshot' });
      if (!(await screenshotDeclared(ctx, 'screenshot'))) {
        expect(!r.ok && !!r.summary, 'compat screenshot answered ok without the screenshot capability');
        ctx.note(`refused: ${r.summary}`);
        return;
      }
      expect(r.ok, `screenshot: ${r.ok ? '' : r.summary}`);
      const shot = CompatScreenshotSchema.parse(JSON.parse(r.payload));
      expect(shot.mediaType === 'image/png', `mediaType ${shot.mediaType}`);
      const size = pngSize(Buffer.from(shot.base64, 'base64'));
      expect(size.width === shot.width && size.height === shot.height, 'declared size differs from the PNG');
    },
  },
];
