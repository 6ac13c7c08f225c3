import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { AGENT_COMPACT } from '../../src/executor/observe.js';
import { compactView } from '../../src/perception/compact.js';
import { readDroidbotState } from '../../src/perception/droidbot/state.js';
import { perceive } from '../../src/perception/perceive.js';
import { buildDecideMessages } from '../../src/planner/prompt/builders.js';
import { toolsForScreen } from '../../src/planner/screen-tools.js';
import { nodeActions } from '../../src/testbed/replay/state-cache.js';
import { REGISTRY } from '../../src/tools/index.js';

/**
 * Issue 22, open point 1: ime_enter is offered only for a field whose enter submits (a search box),
 * per field, on real screens (../shared/fixtures, read in place). Android lists ACTION_IME_ENTER on
 * every editable, so the helper's action list alone does not say it; the replay phone, which has no
 * recorded enter, lists none, and Libby's search was offered ime_enter there and told UNSUPPORTED.
 */

const SHARED = path.resolve(import.meta.dirname, '../../../shared/fixtures');
const CALENDAR = path.join(SHARED, 'droidtask/calendar/states');
/** Simple Calendar's search (search_src_text, "Search…") and its event editor (title, location, description). */
const SEARCH = '466a2fa64b6408c33077de33c9df6e8d1848fce42a9a42b53d5109eae9fa7153';
const EDITOR = '2aac1cf23e023e3f33150b637c2122ee06d9cce39c2c0ff03db99dd3f586814f';
const LIBBY = path.join(SHARED, 'droidbot-utg/06-libby-en/states/state_2025-05-31_230708.json');

/** The node actions a helper on Android 11+ lists (ime_enter on every editable), or the replay phone's. */
type Source = 'helper' | 'replay';

async function observe(file: string, source: Source): Promise<Observation> {
  const r = readDroidbotState(JSON.parse(readFileSync(file, 'utf8')));
  if (!r.ok) throw new Error(r.message);
  r.snapshot.nodes = r.snapshot.nodes.map((n) => {
    const a = nodeActions(n.flags);
    return { ...n, actions: source === 'helper' && n.flags.editable ? [...a, 'ime_enter'] : a };
  });
  const p = await perceive({ wire: r.snapshot });
  if (!p.ok) throw new Error(p.message);
  return p.observation;
}

const ALL = [...REGISTRY.catalog.keys()];

function decision(obs: Observation): { listing: string; tools: string[]; system: string } {
  const listing = compactView(obs, AGENT_COMPACT);
  const tools = toolsForScreen(obs, ALL, REGISTRY.catalog);
  const input = { goal: 'g', plan: [], current: 0, screen: listing, screenIsDelta: false, aspect: 0.47 };
  const system = buildDecideMessages({ ...input, history: [], banned: [], tools }, REGISTRY.catalog).system;
  return { listing, tools, system };
}

const fieldLines = (listing: string) => listing.split('\n').filter((l) => /EditText/.test(l));

describe('ime_enter is offered per field, where enter submits', () => {
  it("marks a real search box `submits` and offers ime_enter there, through a helper's action list", async () => {
    const d = decision(await observe(path.join(CALENDAR, `${SEARCH}.json`), 'helper'));
    const lines = fieldLines(d.listing);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => /\ssubmits(\s|$)/.test(l))).toBe(true);
    expect(d.tools).toContain('control_action');
    expect(d.system).toMatch(/control_action\(target_id, op=[^)]*ime_enter/);
  });

  it("marks none of an event editor's fields, and offers no ime_enter there", async () => {
    const d = decision(await observe(path.join(CALENDAR, `${EDITOR}.json`), 'helper'));
    const lines = fieldLines(d.listing);
    // Title, location, description: enter breaks a line or does nothing.
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => /\ssubmits(\s|$)/.test(l))).toBe(false);
    expect(d.tools).toContain('control_action');
    expect(d.system).toMatch(/control_action\(target_id, op=/);
    expect(d.system).not.toContain('ime_enter');
  });

  it('offers no ime_enter on the replay phone, which lists none (Libby: offered, then UNSUPPORTED)', async () => {
    for (const file of [LIBBY, path.join(CALENDAR, `${SEARCH}.json`)]) {
      const d = decision(await observe(file, 'replay'));
      expect(fieldLines(d.listing).length).toBeGreaterThan(0);
      expect(d.listing).not.toMatch(/\ssubmits(\s|$)/m);
      expect(d.system).not.toContain('ime_enter');
    }
  });

  it('refuses ime_enter on a field that does not submit, naming it and what to tap instead', async () => {
    const obs = await observe(path.join(CALENDAR, `${EDITOR}.json`), 'helper');
    const field = obs.elements.find((e) => e.flags.editable);
    if (!field) throw new Error('the editor has no field');
    const prepare = REGISTRY.table.get('control_action')?.prepare;
    const r = prepare?.({ tool: 'control_action', target_id: field.id, args: { action: 'ime_enter' } }, obs);
    expect(r).toMatchObject({ ok: false, code: 'UNSUPPORTED' });
    expect(r && !r.ok ? r.message : '').toContain(`"${field.label}"`);
    const search = await observe(path.join(CALENDAR, `${SEARCH}.json`), 'helper');
    const box = search.elements.find((e) => e.flags.editable);
    const spec = REGISTRY.table.get('control_action');
    const bound = spec?.bind?.(
      { tool: 'control_action', target_id: box?.id, args: { action: 'ime_enter' } },
      search,
      REGISTRY.table,
    );
    const ok = bound && prepare?.(bound, search);
    expect(ok?.ok).toBe(true);
  });
});
