import { beforeAll, describe, expect, it } from 'vitest';
import { loadTaskGraph } from '../../regression-tasks/real-apps/graphs.js';
import { type ExploreResult, explore, labelOf } from '../../src/agent/explore.js';
import { knowledgeLines } from '../../src/agent/knowledge.js';
import { knowledgeOf, saysMore } from '../../src/agent/knowledge-of.js';
import type { AgentDeps } from '../../src/agent/session.js';
import { callbackConfirmation, composeAgent } from '../../src/compose/agent.js';
import type { DeviceSpec } from '../../src/compose/device.js';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import type { Knowledge } from '../../src/store/app-map.js';
import { ReplayPhone } from '../../src/testbed/replay/phone.js';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

/**
 * What the knowledge lines carry (issue 25, the relay's "knowledge did not help"): what the screen
 * does not show — where a control leads and what that page holds, out-of-view rows — never a line
 * that only repeats a label, never the value a label showed when explored, and only the app's own
 * pages, filed under the package their snapshot belongs to. Explore walks the virtual Settings and
 * a real app's DroidBot graph with the reference model as the describer (its words repeat labels).
 */

const logger = new Logger('agent', { sink: () => {} });
const compose = (device: DeviceSpec, clock: VirtualClock) =>
  composeAgent({
    device,
    model: { model: 'reference' },
    confirm: callbackConfirmation('test', () => 'denied'),
    clock,
    logger,
    screenshots: false,
  });

async function explored(device: DeviceSpec, clock: VirtualClock, app: string, actions: number) {
  const agent = await compose(device, clock);
  try {
    return await explore(agent.deps, { app, budget: { actions } });
  } finally {
    await agent.close();
  }
}

/** The screen of `app` just launched on a fresh virtual phone of `seed`, and the agent's ports to go on. */
async function launched(seed: number, app: string) {
  const clock = new VirtualClock();
  const agent = await compose({ kind: 'sim', phone: new VirtualPhone({ seed, clock }) }, clock);
  const { ports, confirm } = agent.deps as AgentDeps;
  const r = await ports.execute({
    decision: { thought: 'test', action: { tool: 'launch_app', package: app }, expect: { kind: 'page_changes' } },
    obs: (await ports.observe()).obs,
    confirm,
    events: async () => {},
    dryRun: false,
    fresh: true,
  });
  return { agent, seen: r.post ?? (await ports.observe()) };
}

let settings: ExploreResult;
let k: Knowledge;
beforeAll(async () => {
  const clock = new VirtualClock();
  settings = await explored({ kind: 'sim', phone: new VirtualPhone({ seed: 1, clock }) }, clock, 'Settings', 60);
  k = knowledgeOf(settings.map);
}, 60_000);

describe('knowledge lines say what the screen does not', () => {
  it('a description that only repeats its label (or the screen) is dropped; one that says more is kept', () => {
    expect(saysMore('opens or does "Storage — 37% used - 162 GB free"', ['Storage — 37% used - 162 GB free'])).toBe(
      false,
    );
    expect(saysMore('switches "Airplane mode" on or off', ['Airplane mode'])).toBe(false);
    // A describer cuts long labels: the cut word is still the label's.
    expect(
      saysMore('opens or does "Network & internet — Mobile, Wi-Fi, hot…"', [
        'Network & internet — Mobile, Wi-Fi, hotspot',
      ]),
    ).toBe(false);
    expect(saysMore('lists saved networks; forget one here', ['Internet — HomeNet'])).toBe(true);

    // The reference describer's words are all of that kind: none is kept, and no line repeats a label.
    const described = settings.map.pages.filter((p) => p.description || Object.keys(p.notes).length);
    expect(described.length).toBe(settings.map.pages.length);
    for (const p of k.pages) {
      expect(p.description, p.title).toBeUndefined();
      for (const e of p.elements) expect(e.description, e.label).toBeUndefined();
    }
    // A capable describer's words that say more are kept, and shown after where the control leads.
    const map = structuredClone(settings.map);
    const net = map.pages.find((p) => p.title === 'Network & internet');
    const internet = net?.elements.find((e) => /^Internet/.test(e.label ?? ''));
    if (!net || !internet) throw new Error('the walk found no Network & internet page with an Internet row');
    net.notes[internet.id] = 'lists saved networks; forget one here';
    const kept = knowledgeOf(map)
      .pages.find((p) => p.id === net.id)
      ?.elements.find((e) => e.id === internet.id);
    expect(kept?.description).toBe('lists saved networks; forget one here');
  });

  it('a value is stripped from a recorded label, and never shown on another run', async () => {
    const net = settings.map.pages.find((p) => p.title === 'Network & internet');
    const recorded = net?.elements.find((e) => /^Internet/.test(e.label ?? ''));
    // The screen showed the row with its value; the knowledge keeps its name only.
    expect(recorded?.label).toMatch(/^Internet — \S/);
    const known = k.pages.find((p) => p.id === net?.id)?.elements.find((e) => e.id === recorded?.id);
    expect(known?.label).toBe('Internet');
    const all = k.pages.flatMap((p) => [...p.elements.map((e) => e.label), ...(p.holds ?? [])]);
    for (const label of all) expect(label).not.toMatch(/ — |\d+ ?%|\bGB\b/);

    // On another world's Settings: where its rows lead, the rows named as they are now.
    const { agent, seen } = await launched(2, 'Settings');
    try {
      const lines = knowledgeLines([k], seen.obs, 'Turn on dark theme');
      expect(lines[0]).toBe('Settings › Settings');
      // The goal's line first: the row whose page holds "Dark theme".
      expect(lines[1]).toMatch(/^"Display" opens a page with Dark theme\b/);
      expect(lines.some((l) => /^"Network & internet" opens a page with Internet, /.test(l))).toBe(true);
      expect(lines.length).toBeLessThanOrEqual(6);
      for (const l of lines) expect(l).not.toMatch(/opens or does|HomeNet|— |\d+%/);
      // Two taps away: which page holds the goal's control, and the taps that lead there.
      const wifi = knowledgeLines([k], seen.obs, 'Turn Wi-Fi off');
      expect(wifi[1]).toBe('way to "Wi-Fi": "Network & internet" › "Internet"');
      expect(knowledgeLines([k], seen.obs, '')).not.toContain(wifi[1]);
    } finally {
      await agent.close();
    }
  }, 60_000);
});

describe('filing by package', () => {
  it('a launch that shows another app’s screens files them under that app, named for it', async () => {
    const graph = await loadTaskGraph('01-airunlock-settings-en');
    const clock = new VirtualClock();
    const phone = await ReplayPhone.open({ graph, clock });
    // AirUnlocker's launch shows Settings' own pages: they are Settings' knowledge, not AirUnlocker's.
    const r = await explored({ kind: 'replay', phone }, clock, graph.appPackage, 30);
    expect(graph.appPackage).toBe('tw.qtlin.mac.airunlocker');
    expect(r.map.app).toEqual({ package: 'com.android.settings', label: 'com.android.settings' });
    expect(new Set(r.map.pages.map((p) => p.package))).toEqual(new Set(['com.android.settings']));
    expect(knowledgeOf(r.map).pages.length).toBe(r.map.pages.length);
    // A name asked for is the label; a package asked for and shown is too.
    expect(labelOf('Notes', 'com.android.notes')).toBe('Notes');
    expect(labelOf('org.ligi.ajsha', 'org.ligi.ajsha')).toBe('org.ligi.ajsha');
  }, 60_000);

  it('a launch covered by another app’s prompt files nothing under the app, and says what to do', async () => {
    const clock = new VirtualClock();
    const phone = new VirtualPhone({ seed: 1, clock });
    // Contacts asks for its permission on a first launch: the prompt is the permission controller's.
    const r = await explored({ kind: 'sim', phone }, clock, 'Contacts', 20);
    expect(r.map.pages).toEqual([]);
    expect(r.blocked).toMatch(
      /^a com\.android\.permissioncontroller window \("Allow Contacts to access .*"\) covers Contacts: answer it on the phone, then explore again$/,
    );
    expect(r.guardedTaken).toBe(0);
  }, 60_000);

  it('a page whose snapshot is of another package is not filed under the map’s app', () => {
    const map = structuredClone(settings.map);
    const first = map.pages[0];
    if (!first) throw new Error('no page');
    map.pages.push({ ...first, id: 'foreign1', package: 'com.android.chrome' });
    map.transitions.push({ from: first.id, to: 'foreign1', event: { kind: 'touch', element: 'x' }, step: 999 });
    const filed = knowledgeOf(map);
    expect(filed.app.package).toBe('com.android.settings');
    expect(filed.pages.map((p) => p.id)).not.toContain('foreign1');
    expect(filed.pages.length).toBe(settings.map.pages.length);
  });
});
