/**
 * `npm run bench:executor`: an 8-step journey on the virtual phone with realistic device latencies,
 * full verification (a fresh read before and after every action, the next step perceiving afresh)
 * against light verification (one post-action observation that is also the next step's perception).
 * Both must reach the same outcomes. Time is the phone's VirtualClock: device latencies and pacing
 * are slept on it, so the numbers are device time, not this machine's speed. Runs via the helper
 * bridge (unit-level, no tools needed) and via ADB through a real adb server when `adb` exists.
 *
 * Writes bench/results/executor.json and bench/results/executor.md.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { composePorts } from '../src/compose/ports.js';
import { Deadline, VirtualClock } from '../src/core/clock.js';
import { Logger } from '../src/core/logger.js';
import type { Decision, Observation } from '../src/core/types.js';
import { AdbDevice } from '../src/device/adb/device.js';
import { BridgeDevice } from '../src/device/bridge/device.js';
import type { Device } from '../src/device/device.js';
import type { PollMode as VerificationMode } from '../src/executor/executor.js';
import { startAdbDevice } from '../src/testbed/sim/adbd/index.js';
import { startBridgeServer } from '../src/testbed/sim/bridge/index.js';
import { VirtualPhone } from '../src/testbed/sim/index.js';
import { PrivateAdbServer } from '../test/adb/support/adb-server.js';

const LATENCY = { treeRead: 150, uiautomatorDump: 1500, helperInput: 50, shellInput: 200, screenshot: 0 };
const RUNS = Number(process.env.BENCH_RUNS ?? 10);

type Step = (o: Observation) => Decision;
/** The actionable element whose label is `label` or starts with it ("Internet" → "Internet HomeNet"). */
const byLabel = (o: Observation, label: string) => {
  const named = (x: Observation['elements'][number]) => x.label ?? (x.text || x.desc);
  const e =
    o.elements.find((x) => x.actionable && named(x) === label) ??
    o.elements.find((x) => x.actionable && named(x).startsWith(`${label} `));
  if (!e) throw new Error(`journey: no "${label}" on ${o.app.package}${o.app.activity}`);
  return e;
};
const d = (action: Decision['action'], expect: Decision['expect']): Decision => ({
  thought: 'journey',
  action,
  expect,
});

/** The journey: what a planner would decide, resolved on the observation at hand. */
const JOURNEY: [string, Step][] = [
  [
    'launch Settings',
    () =>
      d(
        { tool: 'launch_app', package: 'com.android.settings' },
        { kind: 'app_foreground', package: 'com.android.settings' },
      ),
  ],
  [
    'open Network & internet',
    (o) => d({ tool: 'tap', target_id: byLabel(o, 'Network & internet').id }, { kind: 'page_changes' }),
  ],
  ['open Internet', (o) => d({ tool: 'tap', target_id: byLabel(o, 'Internet').id }, { kind: 'page_changes' })],
  [
    'Wi-Fi off',
    (o) =>
      d(
        { tool: 'tap', target_id: byLabel(o, 'Wi-Fi').id },
        { kind: 'element_state', target_id: byLabel(o, 'Wi-Fi').id, state: 'off' },
      ),
  ],
  ['back', () => d({ tool: 'back' }, { kind: 'page_changes' })],
  ['back', () => d({ tool: 'back' }, { kind: 'page_changes' })],
  ['open Display', (o) => d({ tool: 'tap', target_id: byLabel(o, 'Display').id }, { kind: 'page_changes' })],
  ['back', () => d({ tool: 'back' }, { kind: 'page_changes' })],
  ['home', () => d({ tool: 'home' }, { kind: 'app_foreground', package: 'com.android.launcher3' })],
  [
    'launch Acme',
    () => d({ tool: 'launch_app', package: 'com.acme.bank' }, { kind: 'app_foreground', package: 'com.acme.bank' }),
  ],
  [
    'type e-mail',
    // The field's own text is the check (a text only in the field typed into does not count as appearing).
    (o) => {
      const email = byLabel(o, 'Email').id;
      return d(
        { tool: 'type', target_id: email, text: 'alice@acme.test' },
        { kind: 'element_state', target_id: email, state: 'text=alice@acme.test' },
      );
    },
  ],
];

interface RunResult {
  totalMs: number;
  stepMs: number[];
  reads: number[];
  outcomes: boolean[];
  world: string;
}

async function runJourney(
  device: Device,
  clock: VirtualClock,
  mode: VerificationMode,
  seed: number,
  phone: VirtualPhone,
): Promise<RunResult> {
  // The executor as the factory composes it for the agent (no screenshots: device time only).
  const ex = composePorts({
    device,
    clock,
    logger: Logger.silent(),
    verification: mode,
    seed,
    screenshots: false,
  }).executor;
  const t0 = clock.now();
  const first = await ex.observe();
  if (!first.ok) throw new Error(first.message);
  let obs: Observation = first.obs;
  let perceptionReads = 1;
  const stepMs: number[] = [];
  const reads: number[] = [];
  const outcomes: boolean[] = [];
  for (const [name, step] of JOURNEY) {
    const s0 = clock.now();
    if (mode === 'full' && stepMs.length > 0) {
      // Full: the next step perceives afresh instead of reusing the post-action read.
      const o = await ex.observe(obs);
      if (!o.ok) throw new Error(o.message);
      obs = o.obs;
      perceptionReads++;
    }
    const r = await ex.run(step(obs), obs, { fresh: true });
    if (!r.ok) throw new Error(`${mode}: step "${name}" failed: ${r.receipt.error?.message ?? r.outcome?.reason}`);
    outcomes.push(r.ok);
    reads.push(r.reads + perceptionReads);
    perceptionReads = 0;
    stepMs.push(clock.now() - s0);
    obs = r.post ?? obs;
  }
  const w = phone.world;
  return {
    totalMs: clock.now() - t0,
    stepMs,
    reads,
    outcomes,
    world: JSON.stringify({ wifi: w.settings.wifi, bt: w.settings.bluetooth, events: w.events.length }),
  };
}

/** A private adb server; its free port can be taken by a parallel process before adb binds it, so retry. */
async function startAdbServer(): Promise<PrivateAdbServer> {
  for (let i = 0; ; i++) {
    try {
      return await PrivateAdbServer.start();
    } catch (e) {
      if (i >= 4) throw e;
    }
  }
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
}

interface ModeStats {
  p50: number;
  p95: number;
  readsPerAction: number;
  runs: number;
  stepP50: number[];
}

async function bench(
  transport: 'bridge' | 'adb',
): Promise<Record<'full' | 'light', ModeStats> & { sameOutcomes: boolean; ratioP50: number }> {
  const out: Partial<Record<'full' | 'light', ModeStats>> = {};
  const signatures = new Set<string>();
  for (const mode of ['full', 'light'] as const) {
    const runs: RunResult[] = [];
    for (let i = 0; i < RUNS; i++) {
      const clock = new VirtualClock();
      const phone = new VirtualPhone({ clock, latency: LATENCY, seed: 1 });
      const logger = Logger.silent();
      let device: Device;
      let cleanup: () => Promise<void>;
      if (transport === 'bridge') {
        const server = await startBridgeServer({ phone, logger });
        const b = new BridgeDevice({ url: server.url, token: server.token, clock, logger });
        const c = await b.connect(Deadline.after(clock, 5_000));
        if (!c.ok) throw new Error(c.message);
        device = b;
        cleanup = () => server.close();
      } else {
        const adbd = await startAdbDevice({ phone, logger });
        const server = await startAdbServer();
        const serial = `127.0.0.1:${adbd.port}`;
        await server.connect(serial);
        const a = new AdbDevice({ serial, port: server.port, clock, logger });
        const c = await a.connect(Deadline.after(clock, 10_000));
        if (!c.ok) throw new Error(c.message);
        device = a;
        cleanup = async () => {
          await server.kill();
          await adbd.close();
        };
      }
      try {
        runs.push(await runJourney(device, clock, mode, 1000 + i, phone));
      } finally {
        await cleanup();
      }
    }
    for (const r of runs) signatures.add(`${r.outcomes.join(',')}|${r.world}`);
    const totals = runs.map((r) => r.totalMs);
    const allReads = runs.flatMap((r) => r.reads);
    out[mode] = {
      p50: pct(totals, 50),
      p95: pct(totals, 95),
      readsPerAction: Math.round((allReads.reduce((a, b) => a + b, 0) / allReads.length) * 100) / 100,
      runs: runs.length,
      stepP50: JOURNEY.map((_, k) =>
        pct(
          runs.map((r) => r.stepMs[k] ?? 0),
          50,
        ),
      ),
    };
  }
  const full = out.full as ModeStats;
  const light = out.light as ModeStats;
  return {
    full,
    light,
    sameOutcomes: signatures.size === 1,
    ratioP50: Math.round((light.p50 / full.p50) * 1000) / 1000,
  };
}

const haveAdb = spawnSync('adb', ['version'], { stdio: 'ignore' }).status === 0;
const results: Record<string, Awaited<ReturnType<typeof bench>>> = {};
results.bridge = await bench('bridge');
if (haveAdb) results.adb = await bench('adb');

let sha = 'unknown';
const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
if (git.status === 0) sha = git.stdout.trim();
const report = {
  commit: sha,
  clock: 'virtual (device latencies and pacing slept on the phone clock)',
  latencyMs: LATENCY,
  runsPerMode: RUNS,
  journey: JOURNEY.map(([n]) => n),
  target: 'light p50 ≤ 45% of full p50, same outcomes',
  results,
};
writeFileSync('bench/results/executor.json', `${JSON.stringify(report, null, 2)}\n`);

const lines = [
  '# Executor benchmark: full vs light verification',
  '',
  `Commit ${sha}. ${RUNS} runs per mode, seeded pacing jitter (150–400 ms) differing per run. Virtual phone clock:`,
  `helper tree read ${LATENCY.treeRead} ms, uiautomator dump ${LATENCY.uiautomatorDump} ms, helper input ${LATENCY.helperInput} ms, \`input\` ${LATENCY.shellInput} ms.`,
  '',
  `Journey (8 steps): ${JOURNEY.map(([n]) => n).join(' → ')}.`,
  '',
  '- **full**: the step perceives with a fresh read, the executor reads again right before injecting (pre evidence + target re-check), then reads until the expectation holds on two identical consecutive reads.',
  "- **light**: the previous step's post-action read is the perception; the re-check is skipped when that read is the executor's own and under 1 s old (no model thinks between steps here; in a live loop, where one does, light re-checks too: +1 read per touch whose expectation compares screens — on a helper with guarded_touch the phone checks the target of the others, executor/verify.ts `comparesScreens`); reads after the action stop at the first one that satisfies the expectation.",
  "- Both: the same seeded 150–400 ms gap between dispatches (reads made inside the gap are not added to it). ADB runs through a real adb server; its device time is still the phone's virtual clock.",
  '',
  '| transport | mode | journey p50 ms | journey p95 ms | device reads / action | light/full p50 | same outcomes |',
  '|---|---|---:|---:|---:|---:|---|',
];
for (const [t, r] of Object.entries(results)) {
  lines.push(`| ${t} | full | ${r.full.p50} | ${r.full.p95} | ${r.full.readsPerAction} | | |`);
  lines.push(
    `| ${t} | light | ${r.light.p50} | ${r.light.p95} | ${r.light.readsPerAction} | **${Math.round(r.ratioP50 * 100)}%** | ${r.sameOutcomes ? 'yes' : 'NO'} |`,
  );
}
lines.push(
  '',
  'Per-step p50 (ms):',
  '',
  `| transport | mode | ${JOURNEY.map(([n]) => n).join(' | ')} |`,
  `|---|---|${JOURNEY.map(() => '---:').join('|')}|`,
);
for (const [t, r] of Object.entries(results))
  for (const m of ['full', 'light'] as const) lines.push(`| ${t} | ${m} | ${r[m].stepP50.join(' | ')} |`);
if (!haveAdb) lines.push('', '`adb` is not installed here: the adb rows are missing.');
lines.push(
  '',
  'Target: light ≤ 45% of full (p50). Pass: ' +
    Object.entries(results)
      .map(([t, r]) => `${t} ${r.ratioP50 <= 0.45 && r.sameOutcomes ? 'yes' : 'no'}`)
      .join(', ') +
    '.',
);
writeFileSync('bench/results/executor.md', `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
