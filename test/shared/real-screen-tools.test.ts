import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { perceive } from '../../src/perception/perceive.js';
import { toolsForScreen } from '../../src/planner/screen-tools.js';
import { loadStateFile } from '../../src/testbed/replay/state-file.js';
import { REGISTRY } from '../../src/tools/index.js';

/**
 * Issue 22, item 7: which tools a real screen is offered. Libby is a web app: its pages are a
 * full-screen WebView whose texts and buttons the tree lists (DroidBot's recording, read from ../shared).
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const libby = path.resolve(repoRoot, '../shared/fixtures/droidbot-utg/06-libby-en/states');
const ALL = [...REGISTRY.catalog.keys()];

async function offered(state: string): Promise<string[]> {
  const { read } = await loadStateFile(path.join(libby, `state_${state}.json`), { imageBytes: false });
  const r = await perceive({ wire: read.snapshot });
  if (!r.ok) throw new Error(`${state}: ${r.message}`);
  return toolsForScreen(r.observation, ALL, REGISTRY.catalog);
}

describe('tools offered on a web page the tree lists (Libby)', () => {
  it('the welcome page with two buttons is offered no fingers, zoom or bursts', async () => {
    const tools = await offered('2025-05-31_230704');
    expect(tools).toContain('tap');
    for (const t of ['pinch', 'touch_gesture', 'action_sequence']) expect(tools).not.toContain(t);
  });

  it('the search page, a field among its buttons, is offered typing but no fingers', async () => {
    const tools = await offered('2025-05-31_230708');
    expect(tools).toContain('type');
    for (const t of ['pinch', 'touch_gesture']) expect(tools).not.toContain(t);
  });
});
