import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevicePorts } from '../../../src/agent/device-ports.js';
import type { AgentPorts, Perceived } from '../../../src/agent/ports.js';
import { callbackConfirmation } from '../../../src/compose/agent.js';
import { type OpenedDevice, openDevice } from '../../../src/compose/device.js';
import { Deadline } from '../../../src/core/clock.js';
import { rectCenter } from '../../../src/core/geometry.js';
import { Logger } from '../../../src/core/logger.js';
import type { Action, Expect } from '../../../src/core/types.js';
import { parseUiautomatorXml } from '../../../src/perception/parse-xml.js';
import { type ReplayGraph, shortestPath } from '../../../src/testbed/replay/graph.js';
import { loadDroidbotGraph } from '../../../src/testbed/replay/load-graph.js';
import { ReplayPhone } from '../../../src/testbed/replay/phone.js';
import { VirtualPhone } from '../../../src/testbed/sim/phone.js';
import { recordSimRun } from './record-sim.js';

/**
 * The replay phone over a DroidBot graph recorded from the virtual phone (record-sim.ts), driven
 * through the agent's own ports over the sim's bridge server: recorded events move it, anything else
 * is off-graph — unchanged screen, a receipt detail that says so, a log entry.
 */

let dir: string;
let graph: ReplayGraph;
let recorded: string[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'replay-'));
  const r = await recordSimRun(new VirtualPhone({ seed: 3 }), dir, [
    { intent: 'com.android.settings/.Settings' },
    { touch: 'Network & internet' },
    { key: 'BACK' },
    { scroll: 'recycler_view', direction: 'DOWN' },
    { intent: 'com.acme.bank/.LoginActivity' },
    { set_text: 'Email', text: 'ann@acme.test' },
  ]);
  recorded = r.states;
  // Defects of real runs: an empty event file, and an edge to a state that was never saved.
  await writeFile(path.join(dir, 'events', 'event_2024-01-01_999999.json'), '');
  graph = await loadDroidbotGraph(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Rig {
  phone: ReplayPhone;
  ports: AgentPorts;
  opened: OpenedDevice;
}

async function rig(start?: string, screenshots = false): Promise<Rig> {
  const phone = await ReplayPhone.open({ graph, start });
  const logger = Logger.silent();
  const opened = await openDevice({ kind: 'replay', phone }, { clock: phone.clock, logger });
  const ports = createDevicePorts({ device: opened.device, clock: phone.clock, logger, screenshots });
  return { phone, ports, opened };
}

const confirm = callbackConfirmation('test', () => 'denied');

/** A rig on `start`, closed after `body` whatever it does. */
async function onRig(start: string | undefined, body: (r: Rig) => Promise<void>): Promise<void> {
  const r = await rig(start);
  try {
    await body(r);
  } finally {
    await r.opened.close();
  }
}

/** BACK, and what the phone made of it: ok, and the last off-graph input's detail. */
async function pressBack(r: Rig): Promise<{ ok: boolean; offGraph?: string }> {
  const out = await act(r, await r.ports.observe(), { tool: 'back' });
  return { ok: out.ok, offGraph: r.phone.offGraph().at(-1)?.detail };
}

async function act(r: Rig, seen: Perceived, action: Action, expect: Expect = { kind: 'page_changes' }) {
  return r.ports.execute({
    decision: { thought: 'test', action, expect },
    obs: seen.obs,
    confirm,
    events: async () => {},
    dryRun: false,
    fresh: true,
  });
}

function idOf(seen: Perceived, label: RegExp): string {
  const e = seen.obs.elements.find((x) => x.actionable && label.test(x.label ?? ''));
  if (!e) throw new Error(`no ${label} in\n${seen.compact}`);
  return e.id;
}

describe('the replay phone', () => {
  it('loads a DroidBot folder as it is: states, transitions, the first state, the defects noted', () => {
    expect(graph.states.size).toBe(recorded.length);
    expect(graph.first).toBe(recorded[0]);
    expect(graph.transitions.map((t) => t.kind)).toEqual(['intent', 'touch', 'key', 'scroll', 'intent', 'set_text']);
    expect(graph.notes.join()).toMatch(/1 empty event file/);
    const typed = graph.transitions.find((t) => t.kind === 'set_text');
    expect(typed?.kind === 'set_text' && typed.text).toBe('ann@acme.test');
  });

  it('serves the current state over the bridge; a launch follows its recorded intent', async () => {
    const r = await rig(undefined, true);
    try {
      const home = await r.ports.observe();
      expect(home.obs.app.package).toBe('com.android.launcher3');
      expect(r.ports.tools).toContain('tap');
      const out = await act(
        r,
        home,
        { tool: 'launch_app', package: 'com.android.settings' },
        { kind: 'app_foreground', package: 'com.android.settings' },
      );
      expect(out.error).toBeUndefined();
      expect(out.ok).toBe(true);
      expect(r.phone.state).toBe(recorded[1]);
      expect(r.phone.log.at(-1)).toMatchObject({ outcome: 'moved', input: 'launch com.android.settings' });
      const settings = await r.ports.observe();
      expect(settings.compact).toMatch(/"Network & internet/);
      // The screenshot is the recorded one, at its own size.
      expect(settings.png?.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await r.opened.close();
    }
  });

  it('a tap inside a recorded target moves to its destination; back follows the key event', async () => {
    const r = await rig(recorded[1]);
    try {
      const settings = await r.ports.observe();
      const out = await act(r, settings, { tool: 'tap', target_id: idOf(settings, /^Network & internet/) });
      expect(out.ok).toBe(true);
      expect(r.phone.state).toBe(graph.transitions.find((t) => t.kind === 'touch')?.to);
      const internet = await r.ports.observe();
      expect(internet.compact).toMatch(/"Internet/);
      const back = await act(r, internet, { tool: 'back' });
      expect(back.ok).toBe(true);
      expect(r.phone.state).toBe(recorded[1]);
    } finally {
      await r.opened.close();
    }
  });

  it('an action with no recorded outcome changes nothing and is off-graph in the receipt and the log', async () => {
    const r = await rig(recorded[1]);
    try {
      const settings = await r.ports.observe();
      const out = await act(r, settings, { tool: 'tap', target_id: idOf(settings, /^Battery/) });
      expect(out.ok).toBe(false);
      expect(r.phone.state).toBe(recorded[1]);
      const off = r.phone.offGraph();
      expect(off.length).toBeGreaterThanOrEqual(1);
      expect(off.at(-1)?.detail).toMatch(/no recorded tap at \d+,\d+/);
      expect(out.receipt.status).toBe('completed');
      // The step's receipt (its step file, the report) says so.
      expect(out.receipt.detail).toMatch(/^off-graph: no recorded tap at \d+,\d+/);
      // The model is told what the device said, ahead of the validator's guess, so it does not retry.
      expect(out.error).toMatch(
        /^the device said: off-graph: no recorded tap at \d+,\d+ .*repeating it changes nothing; nothing on the page changed/,
      );
      // The device's own receipt says so (the run's call log and report show it).
      const call = await r.opened.device.tap(
        { x: 540, y: 993 },
        { durationMs: 50 },
        Deadline.after(r.phone.clock, 5000),
      );
      expect(call.ok).toBe(true);
      expect(call.device?.detail).toMatch(/^off-graph: no recorded tap at 540,993 in state \w+ of replay-/);
      expect(r.phone.state).toBe(recorded[1]);
      // Back from the top of Settings was never recorded either.
      const back = await act(r, settings, { tool: 'back' });
      expect(back.ok).toBe(false);
      expect(r.phone.offGraph().at(-1)?.detail).toMatch(/no recorded BACK key/);
      expect(back.error).toMatch(/^the device said: off-graph: no recorded BACK key/);
    } finally {
      await r.opened.close();
    }
  });

  it("a BACK the recording lacks returns to the previous activity, as Android's back stack does, said as inferred", () =>
    onRig(undefined, async (r) => {
      const home = await r.ports.observe();
      await act(
        r,
        home,
        { tool: 'launch_app', package: 'com.android.settings' },
        { kind: 'app_foreground', package: 'com.android.settings' },
      );
      expect(r.phone.state).toBe(recorded[1]);
      // Settings' top has no recorded BACK; the launcher was left for it, so back returns there.
      const back = await act(r, await r.ports.observe(), { tool: 'back' });
      expect(back.ok).toBe(true);
      expect(r.phone.state).toBe(recorded[0]);
      expect(r.phone.offGraph()).toEqual([]);
      expect(r.phone.inferred()).toEqual([
        expect.objectContaining({ input: 'key back', to: recorded[0], detail: expect.stringMatching(/^inferred: /) }),
      ]);
      expect(back.receipt.detail).toMatch(
        /^inferred: the recording has no BACK from here; back returns to the previous activity \(com\.android\.launcher3\//,
      );
      // The stack is spent: a second BACK from the launcher has nothing to return to.
      expect(await pressBack(r)).toEqual({ ok: false, offGraph: expect.stringMatching(/no recorded BACK key/) });
    }));

  it('a recorded BACK to the screen left pops it: nothing is left to infer afterwards', () =>
    onRig(recorded[1], async (r) => {
      const settings = await r.ports.observe();
      await act(r, settings, { tool: 'tap', target_id: idOf(settings, /^Network & internet/) });
      // The recorded BACK is followed as recorded…
      expect((await pressBack(r)).ok).toBe(true);
      expect(r.phone.state).toBe(recorded[1]);
      // …and the run started here: a further BACK has no recorded event and no screen to return to.
      expect(await pressBack(r)).toEqual({ ok: false, offGraph: expect.stringMatching(/no recorded BACK key/) });
      expect(r.phone.inferred()).toEqual([]);
    }));

  it('a swipe scrolls where a scroll was recorded, in the direction the content went', async () => {
    const r = await rig(recorded[1]);
    try {
      const settings = await r.ports.observe();
      const list = settings.obs.elements.find((e) => e.role === 'List');
      expect(list).toBeDefined();
      const wrongWay = await act(r, settings, { tool: 'swipe', target_id: list?.id, direction: 'down' });
      expect(wrongWay.ok).toBe(false);
      expect(r.phone.offGraph().at(-1)?.detail).toMatch(/no recorded swipe down at \d+,\d+/);
      const out = await act(r, settings, { tool: 'swipe', target_id: list?.id, direction: 'up' });
      expect(out.ok).toBe(true);
      expect(r.phone.state).toBe(graph.transitions.find((t) => t.kind === 'scroll')?.to);
    } finally {
      await r.opened.close();
    }
  });

  it('typing follows the recorded set_text on the field: the recorded text moves, another text is off-graph', async () => {
    const login = graph.transitions.find((t) => t.kind === 'set_text')?.from as string;
    const r = await rig(login);
    try {
      const seen = await r.ports.observe();
      const email = idOf(seen, /^Email/);
      const wrong = await act(
        r,
        seen,
        { tool: 'type', target_id: email, text: 'bob@acme.test' },
        { kind: 'screen_changes' },
      );
      expect(wrong.ok).toBe(false);
      expect(r.phone.state).toBe(login);
      expect(r.phone.offGraph().at(-1)?.detail).toMatch(/the recording typed "ann@acme.test" into this field/);
      const again = await r.ports.observe();
      const right = await act(
        r,
        again,
        { tool: 'type', target_id: idOf(again, /^Email/), text: 'Ann@acme.test ' },
        { kind: 'screen_changes' },
      );
      expect(right.error).toBeUndefined();
      expect(right.ok).toBe(true);
      expect(r.phone.state).toBe(graph.transitions.find((t) => t.kind === 'set_text')?.to);
    } finally {
      await r.opened.close();
    }
  });

  it('what a twin recorded follows too: one screen the recording saved twice, reached by the same tap', async () => {
    const touch = graph.transitions.find((t) => t.kind === 'touch');
    if (touch?.kind !== 'touch') throw new Error('no touch recorded');
    const network = graph.states.get(touch.to);
    if (!network) throw new Error('no network state');
    // The same tap also reached a copy of the page (as a web page with renumbered ids is saved
    // again), and only from the copy was "SIMs" tapped, back to Settings.
    const sims = network.state.views.find((v) => v.text === 'SIMs');
    if (!sims) throw new Error('no SIMs row');
    const twin = { ...network, id: 'twin-of-network', state: { ...network.state, state_str: 'twin-of-network' } };
    const r = (b: typeof sims.bounds) => ({ left: b[0][0], top: b[0][1], right: b[1][0], bottom: b[1][1] });
    const twinned: ReplayGraph = {
      ...graph,
      states: new Map([...graph.states, [twin.id, twin]]),
      transitions: [
        ...graph.transitions,
        { ...touch, to: twin.id, eventId: 100 },
        {
          kind: 'touch',
          from: twin.id,
          to: touch.from,
          eventStr: 'TouchEvent(SIMs)',
          eventId: 101,
          view: { bounds: r(sims.bounds) },
        },
      ],
    };
    const phone = await ReplayPhone.open({ graph: twinned, start: touch.from });
    const at = rectCenter(touch.view.area ?? touch.view.bounds);
    await phone.tap(Math.round(at.x), Math.round(at.y), 50);
    expect(phone.state).toBe(touch.to);
    const row = rectCenter(r(sims.bounds));
    await phone.tap(Math.round(row.x), Math.round(row.y), 50);
    expect(phone.log.at(-1)).toMatchObject({ outcome: 'moved', to: touch.from, detail: 'recorded: TouchEvent(SIMs)' });
  });

  it('dumps the state as uiautomator XML that parses to the same controls', async () => {
    const phone = await ReplayPhone.open({ graph, start: recorded[1] });
    const xml = await phone.dumpXml();
    const parsed = parseUiautomatorXml(xml, { screen: { w: phone.screen().width, h: phone.screen().height } });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const labels = parsed.tree.nodes.map((n) => n.text).filter(Boolean);
    expect(labels).toContain('Network & internet');
    // An input by pixels lands the same way as over the bridge.
    const tree = await phone.readTree();
    const row = tree.nodes.find((n) => n.text === 'Network & internet');
    const c = rectCenter(row?.bounds ?? { left: 0, top: 0, right: 0, bottom: 0 });
    await phone.tap(Math.round(c.x), Math.round(c.y), 50);
    expect(phone.log.at(-1)?.outcome).toBe('moved');
  });

  it('the shortest recorded path to a state is the optimal step count', () => {
    const target = graph.transitions.find((t) => t.kind === 'set_text')?.to as string;
    const path = shortestPath(graph, graph.first, (s) => s === target);
    expect(path?.map((t) => t.kind)).toEqual(['intent', 'scroll', 'intent', 'set_text']);
    expect(shortestPath(graph, target, (s) => s === graph.first)).toBeUndefined();
  });
});
