import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { Deadline, RealClock } from '../../core/clock.js';
import { ActionableError } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { AdbDevice } from '../../device/adb/device.js';
import { BridgeDevice } from '../../device/bridge/device.js';
import { encodeFrame } from '../../perception/frame.js';
import { type PerceiveResult, perceive, type SnapshotInput } from '../../perception/perceive.js';
import { loadStateFile } from '../../testbed/replay/state-file.js';
import { VirtualPhone } from '../../testbed/sim/phone.js';
import { adbServer, adbServerFlags } from '../probe.js';

/**
 * `phone-agent observe`: print what perception makes of a screen — a uiautomator dump file, the
 * built-in virtual phone, or a phone over ADB — as the compact view the LLM reads, or as JSON.
 */

interface ObserveOptions {
  xml?: string;
  droidbot?: string;
  device?: string;
  format: string;
  screen?: string;
  screenshot?: string;
  app?: string;
  saveFrame?: string;
  longSide: string;
  adbHost: string;
  adbPort?: string;
  token?: string;
}

function parseSize(s: string): { w: number; h: number } {
  const m = /^(\d{2,5})x(\d{2,5})$/i.exec(s.trim());
  if (!m) throw new ActionableError('BAD_OPTION', `cannot read --screen "${s}"`, 'use WxH, e.g. --screen 1080x2400');
  return { w: Number(m[1]), h: Number(m[2]) };
}

async function readInput(path: string, what: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (e) {
    throw new ActionableError('NOT_FOUND', `cannot read ${what} ${path} (${(e as Error).message})`, 'check the path');
  }
}

async function fromXml(o: ObserveOptions, file: string): Promise<SnapshotInput> {
  const xml = (await readInput(file, 'the dump')).toString('utf8');
  const screenshot = o.screenshot ? await readInput(o.screenshot, 'the screenshot') : undefined;
  return { xml, screen: o.screen ? parseSize(o.screen) : undefined, screenshot };
}

/** A DroidBot state (`states/state_<tag>.json`) with its `screen_<tag>.*` beside it (or --screenshot). */
async function fromDroidbot(o: ObserveOptions, file: string): Promise<{ input: SnapshotInput; notes: string[] }> {
  const { read } = await loadStateFile(file, { image: o.screenshot });
  return { input: { wire: read.snapshot }, notes: read.notes };
}

async function fromSim(o: ObserveOptions): Promise<SnapshotInput> {
  const phone = new VirtualPhone({});
  if (o.app) {
    const r = await phone.launch(o.app);
    if (!r.ok)
      throw new ActionableError('NOT_FOUND', `the virtual phone has no app "${o.app}"`, 'see `phone-agent sim --help`');
    await phone.clock.sleep(1500);
  }
  const wire = await phone.readTree();
  const shot = await phone.screenshot();
  return { wire, screenshot: shot.png, screenshotSeq: shot.seq, screenshotOffsetY: shot.offsetY };
}

async function fromDevice(o: ObserveOptions, target: string): Promise<SnapshotInput> {
  const clock = new RealClock();
  const logger = new Logger('device', { level: 'warn' });
  let dev: AdbDevice | BridgeDevice;
  if (/^https?:\/\//.test(target)) {
    const token = o.token ?? process.env.ANDROID_BRIDGE_TOKEN;
    if (!token)
      throw new ActionableError(
        'USAGE',
        `--device ${target} is a helper bridge, which needs its token`,
        'pass --token T or set ANDROID_BRIDGE_TOKEN',
      );
    dev = new BridgeDevice({ url: target, token, clock, logger });
  } else {
    const { host, port } = adbServer(o);
    dev = new AdbDevice({ serial: target, host, port, clock, logger });
  }
  try {
    const c = await dev.connect(Deadline.after(clock, 15_000));
    if (!c.ok)
      throw new ActionableError(
        'UNAVAILABLE',
        `cannot reach ${target}: ${c.message}`,
        '`phone-agent devices` lists what --device takes; --device sim is the built-in virtual phone',
      );
    const snap = await dev.snapshot({ screenshot: true }, Deadline.after(clock, 30_000));
    if (!snap.ok) throw new ActionableError(snap.code, `snapshot failed: ${snap.message}`, 'retry, or check the phone');
    return { wire: snap.snapshot, screenshot: snap.screenshot?.png, screenshotOffsetY: snap.screenshot?.offsetY };
  } finally {
    await dev.close();
  }
}

export async function observeCommand(o: ObserveOptions): Promise<{ result: PerceiveResult; output: string }> {
  if ([o.xml, o.droidbot, o.device].filter(Boolean).length !== 1) {
    throw new ActionableError(
      'BAD_OPTION',
      o.xml || o.droidbot || o.device ? 'more than one screen to observe' : 'nothing to observe',
      'pass one of --xml FILE, --droidbot STATE.json, or --device sim|URL|SERIAL (`phone-agent devices` lists them)',
    );
  }
  if (o.format !== 'compact' && o.format !== 'json') {
    throw new ActionableError('BAD_OPTION', `unknown --format "${o.format}"`, 'use --format compact or --format json');
  }
  const droidbot = o.droidbot ? await fromDroidbot(o, o.droidbot) : undefined;
  const input = droidbot
    ? droidbot.input
    : o.xml
      ? await fromXml(o, o.xml)
      : o.device === 'sim'
        ? await fromSim(o)
        : await fromDevice(o, o.device ?? '');
  const result = await perceive(input, { longSide: Number(o.longSide) });
  if (!result.ok) return { result, output: `error: ${result.message}` };
  if (o.saveFrame && result.frame) await writeFile(o.saveFrame, await encodeFrame(result.frame.scaled, 'png'));
  const output =
    o.format === 'json'
      ? JSON.stringify({ observation: result.observation, compact: result.compact, timings: result.timings }, null, 2)
      : [
          result.compact,
          ...[...(droidbot?.notes ?? []), ...(result.observation.notes ?? [])].map((n) => `# ${n}`),
        ].join('\n');
  return { result, output };
}

export function register(program: Command): void {
  adbServerFlags(program.command('observe'))
    .description(
      'print the observation of a screen: a uiautomator dump, a DroidBot state, the virtual phone, or a phone over ADB',
    )
    .option('--xml <file>', 'a uiautomator XML dump to read')
    .option(
      '--droidbot <file>',
      "a DroidBot state (states/state_<tag>.json); its screen_<tag>.png|jpg is used when it's there",
    )
    .option('--device <sim|URL|SERIAL>', '"sim" (built-in virtual phone), a helper bridge URL, or an adb serial')
    .option('--token <token>', 'helper bridge token for --device http://… (env ANDROID_BRIDGE_TOKEN)')
    .option('--format <compact|json>', 'output format', 'compact')
    .option('--screen <WxH>', 'the real screen size for an XML dump (inferred from the bounds otherwise)')
    .option('--screenshot <file>', 'a PNG/JPEG screenshot to fuse with the XML dump or DroidBot state')
    .option('--app <package>', 'with --device sim: launch this app first')
    .option('--save-frame <file>', 'write the downscaled frame as PNG')
    .option('--long-side <px>', 'long side of the frame, 720–1080', '720')
    .action(async (o: ObserveOptions) => {
      const { result, output } = await observeCommand(o);
      if (!result.ok) {
        process.stderr.write(`phone-agent observe: ${result.message}\n`);
        process.exitCode = 2;
        return;
      }
      process.stdout.write(`${output}\n`);
    });
}
