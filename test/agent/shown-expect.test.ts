import { describe, expect, it } from 'vitest';
import { shownExpect } from '../../src/agent/step.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { REGISTRY } from '../../src/tools/index.js';

/**
 * The expect a history line shows for a tool that checks itself: relay players over plain adb sent
 * `set_slider … expect element_state value=80` and read back `expect screen_changes (the agent's
 * check: …)` — a kind they cannot write, shown as if they had sent it ("my expect was rewritten").
 */

const ctx = (tools: string[]) => ({ catalog: REGISTRY.catalog, tools, ids: new Set(['5c6d6b76', '4d813507']) });

function planned(raw: Record<string, unknown>, tools: string[]) {
  const r = parseAct(raw, ctx(tools));
  if (!r.ok) throw new Error(r.error);
  return r.value.decision;
}

describe('the history names whose check a self-checking tool ran', () => {
  it('set_slider: the tool reads the thumb, the model’s expect is not used, and no screen_changes is shown', () => {
    const d = planned(
      { thought: 'set', tool: 'set_slider', target_id: '5c6', value: 80, expect: 'element_state value=80' },
      ['set_slider', 'tap'],
    );
    const shown = shownExpect(d);
    expect(shown).toBe("(the tool's own check, your expect is not used: set_slider reads where the thumb rests)");
    expect(shown).not.toMatch(/screen_changes/);
  });

  it('seek_timeline: the readout it steers by is shown, marked as the tool’s own check', () => {
    const d = planned(
      { thought: 'seek', tool: 'seek_timeline', target_id: '5c6', text: '15:21:39', expect: 'text_appears 15:21:39' },
      ['seek_timeline', 'tap'],
    );
    expect(shownExpect(d)).toBe(
      "text_appears 15:21:39 (the tool's own check, your expect is not used: seek_timeline reads its readout)",
    );
  });

  it('a tool that takes the model’s expect shows it as sent, and a terminal tool shows "-"', () => {
    const tap = planned({ thought: 't', tool: 'tap', target_id: '4d8', expect: 'text_appears Saved' }, ['tap']);
    expect(shownExpect(tap)).toBe('text_appears Saved');
    const done = planned({ thought: 'd', tool: 'done', text: 'ok', expect: '-' }, ['tap', 'done']);
    expect(shownExpect(done)).toBe('-');
  });
});
