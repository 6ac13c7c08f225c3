import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { type Clock, RealClock, VirtualClock } from '../../core/clock.js';
import { ActionableError } from '../../core/errors.js';
import { Logger } from '../../core/logger.js';
import { HELPER_DEVICE_PORT } from '../../device/protocol/transport.js';
import type { ReplayPhone } from '../../testbed/replay/phone.js';
import { startBridgeServer } from '../../testbed/sim/bridge/index.js';
import type { ScreenOption } from '../../testbed/sim/engine/screen.js';
import { VirtualPhone } from '../../testbed/sim/phone.js';
import type { PhoneSurface } from '../../testbed/sim/surface.js';

/**
 * `phone-agent sim`: run the virtual phone as a device (the helper bridge over HTTP, optionally ADB
 * over TCP) in real time, or write one app's first screen as a PNG (`--screenshot APP out.png`).
 */

interface SimOptions {
  port: string;
  token?: string;
  screen: string;
  seed: string;
  locale: string;
  adbPort?: string;
  host: string;
  allowRemote?: boolean;
  screenshot?: string;
  verbose?: boolean;
  replay?: string;
  start?: string;
}

const PRESETS = ['phone', 'phone-large', 'foldable', 'landscape'] as const;

export function parseScreen(s: string): ScreenOption {
  if ((PRESETS as readonly string[]).includes(s)) return s as ScreenOption;
  const m = /^(\d{2,5})x(\d{2,5})(?:@(\d{2,4}))?$/i.exec(s);
  if (!m)
    throw new ActionableError(
      'BAD_SCREEN',
      `cannot read screen "${s}"`,
      `use WxH (e.g. 1080x2400, optionally @density) or one of ${PRESETS.join(', ')}`,
    );
  return { width: Number(m[1]), height: Number(m[2]), density: Number(m[3] ?? 420) };
}

function int(name: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ActionableError(
      'BAD_OPTION',
      `--${name} ${v} is not a whole number in ${min}..${max}`,
      `pass e.g. --${name} ${min}`,
    );
  return n;
}

function makePhone(o: SimOptions, clock: Clock): VirtualPhone {
  return new VirtualPhone({
    clock,
    screen: parseScreen(o.screen),
    seed: int('seed', o.seed, 0, 2 ** 31 - 1),
    locale: o.locale === 'zh' ? 'zh' : 'en',
  });
}

/** Launch `app`, let the transition and first loading settle (screen unchanged for 500 ms), write a PNG. */
async function screenshotApp(o: SimOptions, app: string, out: string): Promise<void> {
  const phone = makePhone(o, new VirtualClock());
  const launched = await phone.launch(app);
  if (!launched.ok)
    throw new ActionableError(
      'NO_APP',
      launched.message,
      `installed: ${phone
        .packages()
        .map((p) => p.label)
        .join(', ')}`,
    );
  let last = phone.revision();
  let stableSince = phone.clock.now();
  for (let i = 0; i < 100 && phone.clock.now() - stableSince < 500; i++) {
    await phone.clock.sleep(100);
    const rev = phone.revision();
    if (rev !== last) {
      last = rev;
      stableSince = phone.clock.now();
    }
  }
  const shot = await phone.screenshot();
  await writeFile(out, shot.png);
  const fg = phone.foreground();
  process.stdout.write(`${out}: ${shot.width}x${shot.height} PNG of ${fg.package}/${fg.activity}\n`);
}

/** A recorded DroidBot graph behind the same servers (testbed/replay), in real time. */
async function replayPhone(o: SimOptions & { replay: string }): Promise<{ phone: ReplayPhone; about: string }> {
  const { loadDroidbotGraph } = await import('../../testbed/replay/load-graph.js');
  const { ReplayPhone: Replay } = await import('../../testbed/replay/phone.js');
  const graph = await loadDroidbotGraph(o.replay);
  const start = o.start ? [...graph.states.keys()].filter((id) => id.startsWith(o.start ?? '')) : [graph.first];
  if (start.length !== 1)
    throw new ActionableError(
      'BAD_OPTION',
      `--start ${o.start} names ${start.length === 0 ? 'no state' : `${start.length} states`} of ${graph.name}`,
      `pass a state_str (or a unique prefix) of ${graph.name}; its first state is ${graph.first}`,
    );
  const phone = await Replay.open({ graph, start: start[0], clock: new RealClock() });
  const moving = graph.transitions.filter((t) => t.from !== t.to).length;
  const notes = graph.notes.length ? `; loader notes: ${graph.notes.join('; ')}` : '';
  return {
    phone,
    about: `replay ${graph.name}: ${graph.states.size} states, ${moving} recorded moves, showing ${phone.state}${notes}`,
  };
}

async function serve(o: SimOptions): Promise<void> {
  // Request lines (method, path, action, status) only at --verbose; never their content.
  const logger = new Logger('cli', { level: o.verbose ? 'debug' : 'info' });
  const replay = o.replay ? await replayPhone({ ...o, replay: o.replay }) : undefined;
  const phone: PhoneSurface = replay?.phone ?? makePhone(o, new RealClock());
  const bridge = await startBridgeServer({
    phone,
    port: int('port', o.port, 0, 65535),
    host: o.host,
    allowRemote: o.allowRemote === true,
    ...(o.token !== undefined ? { token: o.token } : {}),
    logger,
  });
  const closers: (() => Promise<void>)[] = [bridge.close];
  const out = [`bridge  ${bridge.url}`, `token   ${bridge.token}`];
  if (o.adbPort !== undefined) {
    // Loaded on demand: the ADB transport is a separate part of the virtual phone.
    const { startAdbDevice } = await import('../../testbed/sim/adbd/index.js');
    const { preinstallHelper } = await import('../../testbed/sim/adbd/helper-app.js');
    // The helper app comes installed and enabled; `phone-agent helper install` reinstalls it.
    preinstallHelper(phone);
    const adb = await startAdbDevice({
      phone,
      port: int('adb-port', o.adbPort, 0, 65535),
      host: o.host,
      logger,
      helper: { bridgePort: bridge.port, token: bridge.token },
    });
    closers.push(adb.close);
    out.push(
      `adb     ${o.host}:${adb.port}   (adb connect ${o.host}:${adb.port}; helper at device tcp:${HELPER_DEVICE_PORT})`,
    );
  }
  out.push(`plugins ANDROID_BRIDGE_URL=${bridge.url} ANDROID_BRIDGE_TOKEN=${bridge.token}`);
  const s = phone.screen();
  out.push(`screen  ${s.width}x${s.height} · ${phone.info.model} · Android ${phone.info.androidVersion}`);
  if (replay) out.push(`world   ${replay.about}`);
  process.stdout.write(`${out.join('\n')}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await Promise.all(closers.map((c) => c()));
}

export function register(program: Command): void {
  program
    .command('sim')
    .description('Run the virtual phone as a device (helper bridge + optional ADB), or screenshot an app')
    .argument('[out]', 'with --screenshot: the PNG file to write')
    .option('--port <port>', 'bridge port (0 = any free port)', '0')
    .option('--token <token>', 'bridge token (default: random per start)')
    .option('--screen <screen>', 'WxH[@density] | phone | phone-large | foldable | landscape', 'phone')
    .option('--seed <n>', 'world seed', '1')
    .option('--locale <locale>', 'en | zh', 'en')
    .option('--adb-port <port>', 'also serve ADB on this TCP port (0 = any free port)')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--allow-remote', 'allow a non-loopback --host')
    .option('--verbose', 'log every request (method, path, action, status — never content)')
    .option('--screenshot <app>', "write the app's first screen as PNG to [out] and exit")
    .option('--replay <dir>', 'serve a recorded DroidBot graph (utg.js, states/, events/) instead of the virtual phone')
    .option(
      '--start <state>',
      'with --replay: the state to start in (a state_str or a unique prefix; default the first)',
    )
    .action(async (outPath: string | undefined, o: SimOptions) => {
      if (o.start !== undefined && o.replay === undefined)
        throw new ActionableError('BAD_OPTION', '--start goes with --replay', 'pass --replay DIR too, or drop --start');
      if (o.screenshot !== undefined) {
        await screenshotApp(o, o.screenshot, outPath ?? `${o.screenshot.replace(/[^\w.-]+/g, '_')}.png`);
        return;
      }
      await serve(o);
    });
}
