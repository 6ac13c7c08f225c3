import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeModelImage } from '../../src/perception/model-image.js';
import { plannerAt, SETTINGS_DECIDE } from '../planner/fixtures.js';

/**
 * What the relay's players get (../shared/tools/relay-model.mjs, read, never changed): a request
 * with a screenshot writes the image next to it under the extension its data URL names. With
 * `imageFormat: png` that is an `img-N-k.png` a PNG-only viewer opens; jpeg gives a `.jpg`.
 */

const RELAY = path.resolve('../shared/tools/relay-model.mjs');
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let relay: ChildProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  relay?.kill();
  relay = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function waitFor(file: string): Promise<void> {
  for (let i = 0; i < 200 && !existsSync(file); i++) await sleep(50);
  if (!existsSync(file)) throw new Error(`the relay never wrote ${file}`);
}

async function screenshot(): Promise<Buffer> {
  return sharp({ create: { width: 1080, height: 2400, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

describe('relay images', () => {
  for (const [format, ext] of [
    ['png', 'png'],
    ['jpeg', 'jpg'],
  ] as const) {
    it(`a ${format} screenshot reaches the players as an openable .${ext} file`, { timeout: 30_000 }, async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'relay-img-'));
      const d = dir;
      relay = spawn(process.execPath, [RELAY, 'serve', '--dir', d], { stdio: 'ignore' });
      await waitFor(path.join(d, 'port'));
      const url = `http://127.0.0.1:${(await readFile(path.join(d, 'port'), 'utf8')).trim()}/v1`;
      const shot = await screenshot();
      const obs = { screen: { w: 1080, h: 2400, aspect: 0.45, rotation: 0 }, elements: [] };
      const planner = plannerAt(url, () => encodeModelImage(shot, obs, {}, format));
      const decided = planner.decide({
        ...SETTINGS_DECIDE,
        visualFirst: true,
      });
      // Play the model: answer the one request with the relay's own CLI.
      await waitFor(path.join(d, 'req-0001.txt'));
      const act = { thought: 't', tool: 'tap', target_id: '1a2b3c4d', expect: 'element_state 1a2b3c4d off' };
      await run(process.execPath, [RELAY, 'answer', '--dir', d, '1', JSON.stringify({ tool: 'act', arguments: act })]);
      const r = await decided;
      expect(r.ok).toBe(true);
      const images = (await readdir(d)).filter((f) => f.startsWith('img-'));
      expect(images).toEqual([`img-0001-1.${ext}`]);
      const file = path.join(d, images[0] ?? '');
      expect(await readFile(path.join(d, 'req-0001.txt'), 'utf8')).toContain(`[image attached: ${file}`);
      const meta = await sharp(file).metadata();
      expect(meta.format).toBe(format);
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(512);
    });
  }
});
