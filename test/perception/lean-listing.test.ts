import { describe, expect, it } from 'vitest';
import { LINE_ID_RE, resolveRef } from '../../src/core/element-ref.js';
import { AGENT_COMPACT } from '../../src/executor/observe.js';
import { listedForm } from '../../src/executor/page-compare.js';
import { compactView } from '../../src/perception/compact.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { parseScreenLine } from '../../src/testbed/reference-model/read-request.js';
import { REGISTRY } from '../../src/tools/index.js';
import { look, newPhone, open } from './phone.js';

/** Issue 21, "a leaner screen": what the agent's listing drops, and what it keeps. */
describe('the lean listing the agent sends', () => {
  it('lists every control by a short id the planner reads back, verbs only where the class does not imply them', async () => {
    const phone = newPhone();
    await open(phone, 'com.android.settings');
    const { observation } = await look(phone, { screenshot: false });
    const lean = compactView(observation, AGENT_COMPACT);
    const lines = lean.split('\n').filter((l) => LINE_ID_RE.test(l));
    // Ids are bare (brackets cost two tokens a line); the full listing brackets them.
    expect(lines.every((l) => !l.startsWith('['))).toBe(true);
    // The navigation bar's keys are left out: back and home are tools.
    const bars = new Set(observation.windows.filter((w) => w.type === 'navigation_bar').map((w) => w.id));
    const actionable = observation.elements.filter((e) => e.actionable && !bars.has(e.window));
    expect(lines.length).toBe(actionable.length);
    const ids = new Set(observation.elements.map((e) => e.id));
    for (const [i, line] of lines.entries()) {
      const p = parseScreenLine(line);
      if (!p) throw new Error(`unparsed: ${line}`);
      expect(p.id.length).toBeLessThan(8);
      // The shown id names exactly this control among every element of the screen.
      expect(resolveRef(ids, p.id)).toEqual({ ok: true, id: actionable[i]?.id });
      // No line spells out the verb its class implies.
      expect(line).not.toMatch(/^\S+ (toggle Switch|fill EditText|scroll List|tap Button)/);
    }
    // The header leaves the size (the prompt states the aspect) and a hidden keyboard out.
    expect(lean.split('\n')[0]).not.toMatch(/1080x2400|keyboard hidden/);
    // A labelled row is placed by the listing's order; the full listing still has every centre.
    expect(lines.filter((l) => /\d+,\d+$/.test(l)).length).toBeLessThan(lines.length);
    expect(
      compactView(observation)
        .split('\n')
        .filter((l) => l.startsWith('[') && !/\d+,\d+$/.test(l)),
    ).toEqual([]);
    // The planner turns a listed id into the full one.
    const first = parseScreenLine(lines[0] ?? '');
    const act = parseAct(
      { thought: 't', tool: 'tap', target_id: first?.id, expect: 'page_changes' },
      { catalog: REGISTRY.catalog, tools: ['tap'], ids },
    );
    expect(act.ok && act.value.decision.action.target_id).toBe(actionable[0]?.id);
  });

  it('a label copied as listed matches the texts it joins (text_appears)', () => {
    expect(listedForm('Team offsite — 10:00 – 11:00 · 60 minut…')).toBe('team offsite — 10:00 – 11:00 · 60 minut');
    expect(listedForm('Medium Latte ¶ Large Coconut Latte')).toBe(listedForm('Medium Latte\nLarge Coconut Latte'));
  });
});
