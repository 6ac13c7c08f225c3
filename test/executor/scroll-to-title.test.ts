import { afterEach, describe, expect, it } from 'vitest';
import type { Observation } from '../../src/core/types.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { REGISTRY } from '../../src/tools/index.js';
import { bridgeRig, makeExecutor, observe } from './helpers.js';

/**
 * Issue 21 item 13: the planner's scroll_to names a row as listed or by its title, and a node may
 * hold the whole row ("Dark theme, font size, brightness", Display's summary in Settings): it is
 * found by its title, the history names the row found, and a row that is not there says whether the
 * list ended. Over the helper's native scroll_to and over swipes and reads (no native scroll).
 */

let rig: Awaited<ReturnType<typeof bridgeRig>> | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const SUMMARY = 'Dark theme, font size, brightness';

async function settings(omitCapabilities: string[]) {
  // Landscape: Display's summary is below the fold.
  rig = await bridgeRig({ seed: 7, screen: 'landscape', omitCapabilities });
  const ex = makeExecutor(rig.device, rig.clock);
  await rig.phone.launch('com.android.settings');
  await rig.clock.sleep(1500);
  return { ex, obs: await observe(ex) };
}

function scrollTo(obs: Observation, text: string, direction?: string) {
  if (!rig) throw new Error('no rig');
  const tools = REGISTRY.plannerTools(REGISTRY.offered(rig.device.capabilities()));
  const act = parseAct(
    { thought: 't', tool: 'scroll_to', text, ...(direction ? { direction } : {}), expect: `text_appears ${text}` },
    { catalog: REGISTRY.catalog, tools, ids: new Set(obs.elements.map((e) => e.id)) },
  );
  if (!act.ok) throw new Error(act.error);
  return act.value.decision;
}

const summary = (v: unknown) => REGISTRY.get('scroll_to')?.summary?.(v);

describe.each([
  ['the helper', []],
  ['swipes and reads', ['scroll_to']],
])('scroll_to by title over %s', (_label, omit) => {
  it('a row held whole by one node is found by its title, and the history names it', async () => {
    const { ex, obs } = await settings(omit);
    expect(obs.elements.some((e) => e.text.startsWith('Dark theme'))).toBe(false);
    const d = scrollTo(obs, 'Dark theme');
    const r = await ex.run({ ...d, expect: { kind: 'text_appears', text: SUMMARY } }, obs);
    expect(r.ok, r.error).toBe(true);
    expect(summary(r.value)).toMatch(new RegExp(`^found "${SUMMARY}" \\(after \\d+ scrolls?\\)$`));
  });

  it('a row already in view is found where it is: nothing had to scroll, and that is no failure', async () => {
    const { ex, obs } = await settings(omit);
    const row = obs.elements.find((e) => e.actionable && /^Network/.test(e.label ?? ''));
    expect(row).toBeDefined();
    const title = (row?.label ?? '').split(/[,—·]/)[0]?.trim() ?? '';
    const r = await ex.run(scrollTo(obs, title), obs);
    expect(r.ok, r.error).toBe(true);
  });

  it('a row that is not there: the list ended, the target is not in it', async () => {
    const { ex, obs } = await settings(omit);
    const r = await ex.run(scrollTo(obs, 'Nothing like this'), obs);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/the list ended there: the target is not in it this way/);
    expect(r.value).toMatchObject({ listEnd: true });
  });
});
