import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { observeCommand } from '../../src/cli/commands/observe.js';
import { ObservationSchema } from '../../src/core/types.js';
import { droidbotStateOf } from './droidbot-builder.js';
import { newPhone, open } from './phone.js';

const base = { format: 'compact', longSide: '720', adbHost: '127.0.0.1', adbPort: '5037' };

// Every folder a test makes is removed after the file: `npm test` leaves nothing in the temp dir.
const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'observe-'));
  dirs.push(d);
  return d;
}
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('phone-agent observe', () => {
  it('--xml FILE prints the compact view of a dump (here: the virtual phone’s own uiautomator dump)', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings/.InternetSettings');
    const dir = await tempDir();
    const file = path.join(dir, 'window_dump.xml');
    await writeFile(file, await phone.dumpXml());
    const { result, output } = await observeCommand({ ...base, xml: file, screen: '1080x2400' });
    expect(result.ok).toBe(true);
    expect(output.split('\n')[0]).toBe('app com.android.settings "Internet" · 1080x2400 (0.45)');
    expect(output).toMatch(/^\[[0-9a-f]{8}\] Switch "Wi-Fi" on \d+,\d+$/m);

    const json = await observeCommand({ ...base, xml: file, format: 'json' });
    const parsed = JSON.parse(json.output) as { observation: unknown; compact: string };
    expect(ObservationSchema.safeParse(parsed.observation).success).toBe(true);
    expect(parsed.compact).toContain('"Wi-Fi"');
  });

  it('--device sim observes the live virtual phone, screenshot included', async () => {
    const dir = await tempDir();
    const frame = path.join(dir, 'frame.png');
    const { result, output } = await observeCommand({ ...base, device: 'sim', app: 'com.acme.bank', saveFrame: frame });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.observation.frameHash).toMatch(/^[0-9a-f]{64}$/);
    expect(output).toMatch(/\] EditText "Password" \[password\]/);
    const png = await readFile(frame);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('--droidbot STATE observes a DroidBot state with the screenshot beside it, size corrected', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings/.InternetSettings');
    const dir = await tempDir();
    const tag = '2024-01-01_120000';
    const state = droidbotStateOf(await phone.readTree(), { tag, swapSize: true });
    await writeFile(path.join(dir, `state_${tag}.json`), JSON.stringify(state));
    // DroidBot writes screen_<tag>.png beside the state; here at half size, as the shared graphs keep them.
    const shot = await phone.screenshot();
    await sharp(shot.png)
      .resize(540, 1200)
      .png()
      .toFile(path.join(dir, `screen_${tag}.png`));
    const { result, output } = await observeCommand({ ...base, droidbot: path.join(dir, `state_${tag}.json`) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(output.split('\n')[0]).toMatch(/^app com\.android\.settings\/\S+ .*· 1080x2400 \(0\.45\)/);
    expect(output).toMatch(/^\[[0-9a-f]{8}\] Switch "Wi-Fi" on \d+,\d+$/m);
    expect(output).toContain('# the state says 2400x1080; the screenshot is the other way round: 1080x2400');
    expect(result.observation.screenshot).toEqual({ width: 540, height: 1200 });
    await expect(observeCommand({ ...base, droidbot: path.join(dir, 'nope.json') })).rejects.toThrow(
      /cannot read the DroidBot state/,
    );
    await writeFile(path.join(dir, 'bad.json'), '{"views": []}');
    await expect(observeCommand({ ...base, droidbot: path.join(dir, 'bad.json') })).rejects.toThrow(/state_str/);
    await expect(observeCommand({ ...base, droidbot: path.join(dir, 'bad.json'), device: 'sim' })).rejects.toThrow(
      /more than one screen/,
    );
  });

  it('bad input is a clear error: malformed dump, empty dump without a size, missing file, bad options', async () => {
    const dir = await tempDir();
    const bad = path.join(dir, 'bad.xml');
    await writeFile(bad, '<hierarchy rotation="0"><node bounds="[0,0][10,10]">');
    const r = await observeCommand({ ...base, xml: bad });
    expect(r.result.ok).toBe(false);
    expect(r.output).toMatch(/malformed XML: unclosed element <node>/);
    const empty = path.join(dir, 'empty.xml');
    await writeFile(empty, '<hierarchy rotation="0"/>');
    expect((await observeCommand({ ...base, xml: empty })).output).toMatch(/empty .* pass the screen size/);
    const sized = await observeCommand({ ...base, xml: empty, screen: '1080x2400' });
    expect(sized.output).toMatch(/tree empty/);
    await expect(observeCommand({ ...base, xml: path.join(dir, 'nope.xml') })).rejects.toThrow(/cannot read the dump/);
    await expect(observeCommand({ ...base, xml: bad, format: 'yaml' })).rejects.toThrow(
      /--format compact or --format json/,
    );
    await expect(observeCommand({ ...base })).rejects.toThrow(
      /--xml FILE, --droidbot STATE.json, or --device sim\|URL\|SERIAL/,
    );
    await expect(observeCommand({ ...base, xml: empty, screen: 'big' })).rejects.toThrow(/WxH/);
  });
});
