import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { changedKeys, digestWorld } from '../regression-tasks/world-diff.js';
import { type ExploreResult, explore } from '../src/agent/explore.js';
import { callbackConfirmation, composeAgent } from '../src/compose/agent.js';
import { VirtualClock } from '../src/core/clock.js';
import { Logger } from '../src/core/logger.js';
import { foodShopData } from '../src/testbed/sim/apps/foodshop-menu.js';
import { appFactories } from '../src/testbed/sim/apps/registry.js';
import { VirtualPhone } from '../src/testbed/sim/phone.js';

/**
 * `npm run bench:explore` (issue 25): Explore on each virtual app through the product's factory
 * (the virtual phone's bridge, the reference model over HTTP): pages found / pages the app has (its
 * route list: the activities the virtual phone knows), actions spent, guarded actions taken (must be
 * 0), refusals by the executor (the walk should leave none to refuse) and the world unchanged
 * afterwards (the suite's state-diff check, regression-tasks/world-diff.ts). The world is digested
 * after the app's first launch (launch + home): the world records that an app was ever launched,
 * which exploring it cannot avoid. Writes bench/results/explore.{json,md}.
 */

const ACTIONS = Number(process.env.BENCH_EXPLORE_ACTIONS ?? 400);
/** Screenshots with every read (the product's default); `BENCH_EXPLORE_SHOTS=0` for a quicker run. */
const SHOTS = process.env.BENCH_EXPLORE_SHOTS !== '0';
const ONLY = process.env.BENCH_EXPLORE_APPS?.split(',');
const TARGET = 0.9;

interface AppRow {
  app: string;
  world: WorldKind;
  package: string;
  routes: string[];
  found: string[];
  missing: string[];
  pages: number;
  transitions: number;
  actions: number;
  stopped: ExploreResult['stopped'];
  guardedTaken: number;
  refused: string[];
  worldChanged: string[];
  modelCalls: number;
  described: number;
  skipped: string[];
  wallMs: number;
}

/** An installed app's route list, as its factory declares it (read only; the app is not changed). */
interface Routes {
  label: string;
  package: string;
  activities: readonly string[];
}

/**
 * The two phones Explore meets: `fresh` is the virtual phone as seeded; `in use` is one a person
 * already uses — Contacts may read contacts, the cart holds a coffee, today has an event — which
 * opens the pages that only data opens (Explore itself never grants, adds or saves anything).
 */
type WorldKind = 'fresh' | 'in use';
const WORLDS: readonly WorldKind[] = ['fresh', 'in use'];

function putInUse(phone: VirtualPhone, clock: VirtualClock): void {
  const w = phone.world;
  w.permissions.contacts = 'granted';
  const item = foodShopData(w).menu[0];
  if (item) w.cart.push({ itemId: item.id, name: item.en, options: [], qty: 1, unitPrice: item.price });
  const day = new Date(clock.now());
  day.setHours(15, 0, 0, 0);
  w.calendar.push({ id: 1, title: 'Dentist', start: day.getTime(), durationMin: 30 });
}

async function benchApp(app: Routes, world: WorldKind): Promise<AppRow> {
  const label = app.label;
  const clock = new VirtualClock();
  const phone = new VirtualPhone({ seed: 1, clock });
  if (world === 'in use') putInUse(phone, clock);
  await phone.launch(app.package);
  await phone.key('home');
  const before = digestWorld(phone.world);
  const snapshot = structuredClone(phone.world);
  const agent = await composeAgent({
    device: { kind: 'sim', phone },
    model: { model: 'reference' },
    confirm: callbackConfirmation('bench', () => 'denied'),
    clock,
    screenshots: SHOTS,
    logger: new Logger('agent', { sink: () => {} }),
  });
  const t0 = performance.now();
  try {
    const r = await explore(agent.deps, { app: label, budget: { actions: ACTIONS } });
    const own = new Set(r.map.pages.filter((p) => p.package === app.package).map((p) => p.activity));
    return {
      app: label,
      world,
      package: app.package,
      routes: [...app.activities],
      found: app.activities.filter((a) => own.has(a)),
      missing: app.activities.filter((a) => !own.has(a)),
      pages: r.map.pages.length,
      transitions: r.map.transitions.length,
      actions: r.actions,
      stopped: r.stopped,
      guardedTaken: r.guardedTaken,
      refused: r.refused,
      worldChanged: changedKeys(before, digestWorld(phone.world)).map((k) => changedIn(snapshot, phone.world, k)),
      modelCalls: r.modelCalls,
      described: r.map.pages.filter((p) => p.description).length,
      skipped: [...new Set(r.skipped.map((s) => `${s.page} "${s.label}": ${s.why}`))],
      wallMs: Math.round(performance.now() - t0),
    };
  } finally {
    await agent.close();
  }
}

/** A changed world key with the fields of it that changed (`foodshop.productId`), for the report. */
function changedIn(before: object, after: object, key: string): string {
  const a = (before as Record<string, unknown>)[key];
  const b = (after as Record<string, unknown>)[key];
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a)) return key;
  const fields = Object.keys({ ...a, ...b }).filter(
    (f) => JSON.stringify((a as Record<string, unknown>)[f]) !== JSON.stringify((b as Record<string, unknown>)[f]),
  );
  return fields.length ? fields.map((f) => `${key}.${f}`).join(', ') : key;
}

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);

function summary(rows: AppRow[], world: WorldKind): string[] {
  const found = rows.reduce((n, r) => n + r.found.length, 0);
  const routes = rows.reduce((n, r) => n + r.routes.length, 0);
  const guarded = rows.reduce((n, r) => n + r.guardedTaken, 0);
  const changed = rows.filter((r) => r.worldChanged.length > 0);
  return [
    `## ${world === 'fresh' ? 'A fresh phone (the seeded world)' : 'A phone in use (Contacts may read contacts, a coffee in the cart, an event today)'}`,
    '',
    `**Pages found: ${found}/${routes} (${pct(found, routes)})** · guarded actions taken: ${guarded} · apps whose world changed: ${changed.length}/${rows.length}${changed.length ? ` (${changed.map((r) => `${r.app}: ${r.worldChanged.join(', ')}`).join('; ')})` : ''}`,
    '',
    '| app | pages found / has | page hashes | transitions | actions | stopped | guarded taken | executor refusals | world changed | model calls | wall s | missing |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.app} | ${r.found.length}/${r.routes.length} (${pct(r.found.length, r.routes.length)}) | ${r.pages} | ${r.transitions} | ${r.actions} | ${r.stopped} | ${r.guardedTaken} | ${r.refused.length} | ${r.worldChanged.join(', ') || 'no'} | ${r.modelCalls} | ${(r.wallMs / 1000).toFixed(1)} | ${r.missing.join(', ') || '—'} |`,
    ),
    '',
  ];
}

function markdown(all: AppRow[], commit: string): string {
  const lines = [
    '# bench:explore — Explore on the virtual apps (issue 25)',
    '',
    `Main at ${commit}; reference model over HTTP, virtual phone seed 1, budget ${ACTIONS} actions per app, screenshots ${SHOTS ? 'on' : 'off'}.`,
    `"Pages the app has" is its route list (the activities the virtual phone declares); a page found is an activity the walk reached in the app's own package. Target ≥ ${TARGET * 100}% of pages, 0 guarded actions, the world unchanged.`,
    '',
    ...WORLDS.flatMap((w) =>
      summary(
        all.filter((r) => r.world === w),
        w,
      ),
    ),
    '## What the walk left alone (a phone in use; per app, deduplicated)',
    '',
    ...all
      .filter((r) => r.world === 'in use')
      .flatMap((r) => [
        `- **${r.app}**: ${r.skipped.slice(0, 10).join(' · ') || 'nothing'}${r.skipped.length > 10 ? ` · (+${r.skipped.length - 10} more)` : ''}`,
      ]),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const apps: Routes[] = appFactories.map((f) => f()).filter((a) => !ONLY || ONLY.includes(a.label));
  const rows: AppRow[] = [];
  for (const world of WORLDS)
    for (const app of apps) {
      const label = app.label;
      const row = await benchApp(app, world);
      rows.push(row);
      process.stderr.write(
        `${world} · ${label}: ${row.found.length}/${row.routes.length} pages, ${row.actions} actions, guarded ${row.guardedTaken}, world changed: ${row.worldChanged.join(', ') || 'no'} (${(row.wallMs / 1000).toFixed(1)} s)\n`,
      );
    }
  const { execSync } = await import('node:child_process');
  const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  const dir = path.join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'explore.json'), `${JSON.stringify({ commit, actions: ACTIONS, rows }, null, 2)}\n`);
  await writeFile(path.join(dir, 'explore.md'), markdown(rows, commit));
  process.stdout.write(`${markdown(rows, commit)}\n`);
}

await main();
