import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEVICES_HELP, type PoolEntry, parseDevices } from '../src/compose/pool/devices-arg.js';
import type { PoolOptions } from '../src/compose/pool/pool.js';
import { stfConfig, stfFarm } from '../src/compose/pool/stf-pool.js';
import { ActionableError } from '../src/core/errors.js';
import { Logger } from '../src/core/logger.js';
import { parseRunMode, type RunMode, TASK_MODES } from '../src/core/run-mode.js';
import { resolveLlmConfig } from '../src/planner/llm/config.js';
import { knowledgeDir } from '../src/store/knowledge-store.js';
import { INTERRUPTIONS, type Interruption } from './interruptions.js';
import type { Prices } from './metrics.js';
import type { SuiteModel } from './suite-runner.js';
import type { TaskDef } from './types.js';

/** `npm run suite -- …` flags → suite options, or a usage error (exit 2) that says what to pass. */

export const SUITE_USAGE = `usage: npm run suite -- [--model reference|NAME] [--base-url URL] [--preset NAME] [--noise N]
       [--mode flash|pro] [--seeds 3] [--first-seed 1] [--tasks ID,ID] [--tags t,t] [--out DIR] [--price-in USD] [--price-out USD]
       [--interrupt dialog|banner] [--vision|--no-vision] [--image-format png|jpeg]
       [--devices LIST] [--token T] [--adb-host H] [--adb-port P] [--world sim|replay] [--resume]
       [--knowledge DIR|auto]
       [--stf-url URL --stf-token T] [--stf-sdk N|N+] [--stf-model M] [--stf-name N] [--stf-lease S]
  --model reference   the built-in reference model on loopback (--noise 0..1 perturbs it)
  --model NAME        a real model; endpoint from --base-url/--preset or OPENAI_BASE_URL (key: OPENAI_API_KEY)
  --mode flash|pro    how every run is driven (default pro; README "Modes")
  --tags              runs tasks having any of the tags
  --first-seed N      the seeds run are N..N+seeds-1 (default 1): a fresh world for a model that has seen seed 1
  --price-in/-out     USD per 1M prompt/completion tokens, to report cost
  --vision            the real model reads images: it is shown screenshots (env PHONE_AGENT_VISION=1, or the preset's)
  --image-format F    png | jpeg (default): how the screenshots are encoded (env PHONE_AGENT_IMAGE_FORMAT)
  --interrupt KIND    robustness: a dialog or a notification with a bait arrives mid-task; taking the bait fails it
  --devices LIST      the device pool (default sim:1): ${DEVICES_HELP}
                      one task per device at a time, handed out in order; a device that dies is
                      quarantined and its task retried once on another
  --token T           helper bridge token for URL devices (env ANDROID_BRIDGE_TOKEN)
  --adb-host/--adb-port  the adb server of SERIAL devices (env ANDROID_ADB_SERVER_PORT, else 5037)
  --stf-url/--stf-token  the STF farm of --devices stf[:N] (env STF_URL, STF_TOKEN); its free devices that
                      match --stf-sdk/--stf-model/--stf-name are reserved for the suite, with a lease of
                      --stf-lease seconds idle (default 600), and given back when it ends
  --world replay      the real-app tasks, on recorded DroidBot graphs of real apps served by the replay
                      phone (regression-tasks/real-apps; the graphs are read from ../shared/fixtures)
  --knowledge DIR     every run reads the app knowledge of a knowledge store (what \`phone-agent explore\`
                      wrote, one <package>.json per app; auto: .phone-agent/knowledge or
                      PHONE_AGENT_KNOWLEDGE_DIR); each step gets the front app's lines. Default: none
  --resume            go on with the unfinished run in --out (the same command, --resume added): each
                      finished run is in <out>/runs.jsonl at once; runs that threw are run again
       npm run suite -- --merge a/suite.json,b/suite.json --out DIR   slices run side by side, as one report
Writes <out>/suite.json and <out>/suite.md (default out: runs/suite-<timestamp>). A model that stops
answering (its retries used up) stops the suite: the runs not yet started are not run (exit 3; --resume).`;

export interface SuiteArgs {
  model: SuiteModel;
  seeds: number;
  firstSeed: number;
  tasks: TaskDef[];
  outDir: string;
  prices?: Prices;
  interrupt?: Interruption;
  devices: PoolEntry[];
  poolOptions: PoolOptions;
  /** sim: the virtual phone's tasks; replay: the real-app tasks on recorded graphs. */
  world: 'sim' | 'replay';
  /** Go on with the unfinished run in `outDir` (its runs.jsonl). */
  resume: boolean;
  mode: RunMode;
  /** The knowledge store every run reads (`--knowledge DIR|auto`), absolute; none by default. */
  knowledge?: string;
}

export type ParsedArgs = { ok: true; args: SuiteArgs } | { ok: false; message: string; help?: boolean };

function positive(name: string, v: string | undefined, fallback: number, integer: boolean): number | string {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || (integer && (!Number.isInteger(n) || n < 1)))
    return `--${name} must be a ${integer ? 'positive integer' : 'non-negative number'}, got "${v}"`;
  return n;
}

export function parseSuiteArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  catalog: readonly TaskDef[],
  now: Date = new Date(),
): ParsedArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        model: { type: 'string' },
        'base-url': { type: 'string' },
        preset: { type: 'string' },
        noise: { type: 'string' },
        seeds: { type: 'string' },
        'first-seed': { type: 'string' },
        tasks: { type: 'string' },
        tags: { type: 'string' },
        out: { type: 'string' },
        'price-in': { type: 'string' },
        'price-out': { type: 'string' },
        interrupt: { type: 'string' },
        vision: { type: 'boolean' },
        'no-vision': { type: 'boolean' },
        'image-format': { type: 'string' },
        devices: { type: 'string' },
        world: { type: 'string' },
        resume: { type: 'boolean' },
        mode: { type: 'string' },
        knowledge: { type: 'string' },
        token: { type: 'string' },
        'adb-host': { type: 'string' },
        'adb-port': { type: 'string' },
        'stf-url': { type: 'string' },
        'stf-token': { type: 'string' },
        'stf-sdk': { type: 'string' },
        'stf-model': { type: 'string' },
        'stf-name': { type: 'string' },
        'stf-lease': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  if (values.help) return { ok: false, message: '', help: true };
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);

  const seeds = positive('seeds', str('seeds'), 3, true);
  if (typeof seeds === 'string') return { ok: false, message: seeds };
  const firstSeed = positive('first-seed', str('first-seed'), 1, true);
  if (typeof firstSeed === 'string') return { ok: false, message: firstSeed };
  const noise = positive('noise', str('noise'), 0, false);
  if (typeof noise === 'string') return { ok: false, message: noise };
  if (noise > 1) return { ok: false, message: `--noise must be between 0 and 1, got ${noise}` };
  const priceIn = positive('price-in', str('price-in'), Number.NaN, false);
  const priceOut = positive('price-out', str('price-out'), Number.NaN, false);
  if (typeof priceIn === 'string') return { ok: false, message: priceIn };
  if (typeof priceOut === 'string') return { ok: false, message: priceOut };
  if (Number.isNaN(priceIn) !== Number.isNaN(priceOut))
    return { ok: false, message: '--price-in and --price-out go together' };
  const prices = Number.isNaN(priceIn) ? undefined : { inPerM: priceIn, outPerM: priceOut };

  let mode: RunMode;
  try {
    mode = parseRunMode(str('mode'), '--mode');
  } catch (e) {
    if (e instanceof ActionableError) return { ok: false, message: e.message };
    throw e;
  }
  if (mode === 'explore')
    return {
      ok: false,
      message: `--mode explore runs no task (explore: use \`phone-agent explore\`); the suite runs ${TASK_MODES.join(' or ')}`,
    };

  const interrupt = str('interrupt');
  if (interrupt !== undefined && !INTERRUPTIONS.includes(interrupt as Interruption))
    return { ok: false, message: `--interrupt must be one of ${INTERRUPTIONS.join(', ')}, got "${interrupt}"` };

  let devices: PoolEntry[];
  try {
    devices = parseDevices(str('devices') ?? 'sim:1');
  } catch (e) {
    if (e instanceof ActionableError) return { ok: false, message: e.message };
    throw e;
  }
  const adbPort = Number(str('adb-port') ?? env.ANDROID_ADB_SERVER_PORT ?? 5037);
  if (!Number.isInteger(adbPort) || adbPort < 1 || adbPort > 65_535)
    return { ok: false, message: `--adb-port must be a port number, got "${str('adb-port')}"` };
  const foreign = devices.filter((d) => d.kind !== 'sim' && d.kind !== 'sim-adb');
  if (interrupt !== undefined && foreign.length)
    return {
      ok: false,
      message: '--interrupt injects into the virtual phone: use it with --devices sim:N or sim-adb:N only',
    };
  const adb = { host: str('adb-host'), port: adbPort };
  const poolOptions: PoolOptions = { token: str('token') ?? env.ANDROID_BRIDGE_TOKEN, adb };
  if (devices.some((d) => d.kind === 'stf'))
    try {
      const farm = stfConfig(
        {
          stfUrl: str('stf-url'),
          stfToken: str('stf-token'),
          stfSdk: str('stf-sdk'),
          stfModel: str('stf-model'),
          stfName: str('stf-name'),
          stfLease: str('stf-lease'),
        },
        env,
      );
      poolOptions.farm = stfFarm(farm, adb, new Logger('device', { level: 'warn' }));
    } catch (e) {
      if (e instanceof ActionableError) return { ok: false, message: e.message };
      throw e;
    }

  const world = str('world') ?? 'sim';
  if (world !== 'sim' && world !== 'replay')
    return { ok: false, message: `--world must be sim or replay, got "${world}"` };
  // One catalog, two worlds: a real-app task is one with a recorded graph to run on.
  const inWorld = catalog.filter((t) => (world === 'replay') === (t.replay !== undefined));
  let tasks = [...inWorld];
  const ids = str('tasks')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids) {
    const unknown = ids.filter((id) => !inWorld.some((t) => t.id === id));
    if (unknown.length)
      return {
        ok: false,
        message: `unknown task(s) ${unknown.join(', ')} in --world ${world}; known: ${inWorld.map((t) => t.id).join(', ')}`,
      };
    tasks = tasks.filter((t) => ids.includes(t.id));
  }
  const tags = str('tags')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (tags) tasks = tasks.filter((t) => t.tags.some((g) => tags.includes(g)));
  if (tasks.length === 0) return { ok: false, message: 'no task matches --tasks/--tags' };

  let model: SuiteModel;
  if (str('model') === 'reference') model = { kind: 'reference', noise };
  else {
    if (str('noise') !== undefined) return { ok: false, message: '--noise applies only to --model reference' };
    try {
      const vision = values.vision === true ? true : values['no-vision'] === true ? false : undefined;
      const config = resolveLlmConfig(
        {
          model: str('model'),
          baseUrl: str('base-url'),
          preset: str('preset'),
          vision,
          imageFormat: str('image-format'),
        },
        env,
      );
      model = { kind: 'llm', config };
    } catch (e) {
      if (e instanceof ActionableError) return { ok: false, message: e.message };
      throw e;
    }
  }
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const resume = values.resume === true;
  if (resume && !str('out')) return { ok: false, message: '--resume goes on with a run in --out DIR: give its --out' };
  const outDir = path.resolve(str('out') ?? path.join('runs', `suite-${stamp}`));
  const k = str('knowledge');
  const knowledge = k === undefined ? undefined : knowledgeDir(k === 'auto' ? undefined : k, env);
  return {
    ok: true,
    args: {
      model,
      seeds,
      firstSeed,
      tasks,
      outDir,
      prices,
      interrupt: interrupt as Interruption | undefined,
      devices,
      poolOptions,
      world,
      resume,
      mode,
      ...(knowledge ? { knowledge } : {}),
    },
  };
}
