import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { heldTaps } from '../../src/agent/held-taps.js';
import { checkGuard } from '../../src/executor/guardrails/guard.js';
import { perceive } from '../../src/perception/perceive.js';
import { loadStateFile } from '../../src/testbed/replay/state-file.js';
import { REGISTRY } from '../../src/tools/index.js';

/**
 * Issue 22: the held marks on DroidTask's and DroidBot's recorded screens (third-party data, read from
 * ../shared, never copied) say what a control does. A settings row is not a delete for the word
 * "Remove" in its title; a contact page's "Send SMS" opens the composer; the SMS confirmation's Send
 * sends; a call to 911 is held; a dialog's OK beside its own DELETE button is not the delete.
 */
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures');
const droidtask = (app: string, hash: string) => path.join(fixtures, 'droidtask', app, 'states', `${hash}.json`);

/** Every held control of a recorded state, as `Role "label" categories`. */
async function observe(file: string) {
  const { read } = await loadStateFile(file, { imageBytes: false });
  const r = await perceive({ wire: read.snapshot });
  if (!r.ok) throw new Error(`${file}: ${r.message}`);
  return r.observation;
}

async function marks(file: string): Promise<string[]> {
  const o = await observe(file);
  return Object.entries(heldTaps(o)).map(([id, cats]) => {
    const e = o.elements.find((x) => x.id === id);
    return `${e?.role} "${e?.label}" ${cats.join('/')}`;
  });
}

describe('held marks on recorded real screens', () => {
  it('a messenger settings row cut at the screen edge is not a delete', async () => {
    const m = await marks(droidtask('messenger', '2c5664b27094d5b399cec3fa113aa97a1464ec8b9af968fa8018c436587674e6'));
    expect(m).toEqual([]);
  });

  it("a contact's Send SMS / Send email open a composer; its Share and Delete are held", async () => {
    const m = await marks(droidtask('contacts', '34669a31d746a7e7130140e51a5d747d6e1a1e92df4603fb990dd3cf131d40c9'));
    expect(m).toEqual(['Button "Share" send', 'Button "Delete" delete']);
    const group = await marks(
      droidtask('contacts', '051742655a58384ac361146aafdef9d391b553733a17646cea51bcaa3c8c57c3'),
    );
    expect(group).toEqual([]);
  });

  it('the Send that confirms an SMS is held', async () => {
    const m = await marks(droidtask('messenger', '4633ee21ca009b8a0db6e9e35a0991f6ffa85b7fb3b58a1c741c952d89ba51a5'));
    expect(m).toEqual(['Button "Send" send']);
  });

  it('calling 911 from the dialpad is held as an emergency call', async () => {
    const m = await marks(droidtask('dialer', '61444d28fa06213579ad7b8eb786851ab97338ef053e54e1709d6b4905b7d9c1'));
    expect(m).toEqual(['Image "Call number" emergency_call']);
  });

  it("A2DP's profile dialog: DELETE is held, the OK beside it is not", async () => {
    const m = await marks(
      path.join(fixtures, 'droidbot-utg', '04-a2dp-volume-en', 'states', 'state_2018-06-05_105950.json'),
    );
    expect(m).toEqual(['Button "DELETE" delete']);
  });

  it('scrolling a list that holds a held row needs no consent, aimed at the list or at nothing', async () => {
    const o = await observe(droidtask('calendar', '72b9118f038d2fed5d6bd657cb33cdc94704c73779faf260ddeecd2250c285ba'));
    const held = Object.values(heldTaps(o)).flat();
    expect(held).toContain('delete');
    const list = o.elements.find((e) => e.actionable && e.flags.scrollable);
    expect(list).toBeDefined();
    const scroll = { tool: 'scroll_to' as const, text: 'Font size' };
    expect(checkGuard(REGISTRY.table, { ...scroll, target_id: list?.id }, o, list).needsConfirmation).toBe(false);
    expect(checkGuard(REGISTRY.table, scroll, o, undefined).needsConfirmation).toBe(false);
  });
});
