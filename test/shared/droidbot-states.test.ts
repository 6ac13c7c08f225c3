import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { perceive } from '../../src/perception/perceive.js';
import { loadStateFile, statesUnder } from '../../src/testbed/replay/state-file.js';

/**
 * Every recorded real-app state in ../shared (DroidBot's UI-transition graphs with their screenshots,
 * and the DroidTask states AutoDroid recorded) through the DroidBot reader and perception: no crash,
 * a screen the size and orientation of its screenshot, a sane observation. Third-party data, read
 * from ../shared and never copied into the repository.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = path.resolve(repoRoot, '../shared/fixtures');

const graphStates = await statesUnder(path.join(fixtures, 'droidbot-utg'), /states\/state_[^/]+\.json$/);
const taskStates = await statesUnder(path.join(fixtures, 'droidtask'), /states\/[0-9a-f]{64}\.json$/);
const rel = (f: string) => path.relative(fixtures, f);

describe('recorded real-app states', () => {
  it('the fixture sets are there', () => {
    expect(graphStates.length).toBeGreaterThanOrEqual(173);
    expect(taskStates.length).toBeGreaterThanOrEqual(391);
  });

  it('every graph state, with its screenshot, becomes an observation of its screen', async () => {
    const problems: string[] = [];
    for (const file of graphStates) {
      const { read, imageFile } = await loadStateFile(file);
      const shot = read.snapshot.screenshot;
      if (!imageFile || !shot) {
        problems.push(`${rel(file)}: no screenshot`);
        continue;
      }
      const { width, height } = read.snapshot.screen;
      // Downscaled or not, the picture is a scale of the display, in the same orientation.
      if (Math.abs(shot.width / width - shot.height / height) > 0.02)
        problems.push(`${rel(file)}: ${shot.width}x${shot.height} screenshot on a ${width}x${height} screen`);
      const r = await perceive({ wire: read.snapshot }, { revalidate: true });
      if (!r.ok) {
        problems.push(`${rel(file)}: ${r.message}`);
        continue;
      }
      problems.push(...sanity(rel(file), r.observation));
      if (!r.observation.frameHash) problems.push(`${rel(file)}: the screenshot gave no frame`);
    }
    expect(problems).toEqual([]);
  });

  it('every DroidTask state becomes an observation, every view reachable by its temp_id', async () => {
    const problems: string[] = [];
    for (const file of taskStates) {
      const { read } = await loadStateFile(file);
      const r = await perceive({ wire: read.snapshot }, { revalidate: true });
      if (!r.ok) {
        problems.push(`${rel(file)}: ${r.message}`);
        continue;
      }
      problems.push(...sanity(rel(file), r.observation));
      if (read.nodeOf.size !== read.snapshot.nodes.length) problems.push(`${rel(file)}: temp_ids lost`);
    }
    expect(problems).toEqual([]);
  });
});

function sanity(
  file: string,
  o: {
    screen: { w: number; h: number };
    app: { package: string };
    pageHash: string;
    elements: { id: string; bounds: { left: number; top: number; right: number; bottom: number } }[];
  },
): string[] {
  const out: string[] = [];
  if (!(o.screen.w > 0 && o.screen.h > 0)) out.push(`${file}: screen ${o.screen.w}x${o.screen.h}`);
  if (o.screen.h < o.screen.w) out.push(`${file}: landscape ${o.screen.w}x${o.screen.h} (all recordings are portrait)`);
  if (!o.app.package) out.push(`${file}: no foreground package`);
  if (!/^[0-9a-f]{8}$/.test(o.pageHash)) out.push(`${file}: page hash ${o.pageHash}`);
  for (const e of o.elements) {
    const b = e.bounds;
    if (!/^[0-9a-f]{8}(~\d+)?$/.test(e.id) || b.left < 0 || b.top < 0 || b.right > 1000 || b.bottom > 1000)
      out.push(`${file}: element ${e.id} at ${JSON.stringify(b)}`);
  }
  if (new Set(o.elements.map((e) => e.id)).size !== o.elements.length) out.push(`${file}: duplicate ids`);
  return out;
}
