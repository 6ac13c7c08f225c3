import { AGENT_COMPACT } from '../../src/executor/observe.js';
import { compactView } from '../../src/perception/compact.js';
import { readDroidbotState } from '../../src/perception/droidbot/state.js';
import { perceive } from '../../src/perception/perceive.js';

/** A hand-written DroidBot state's views (a flat list by temp_id, as DroidBot writes them) and its agent listing. */
export type Box = [[number, number], [number, number]];

export const view = (
  temp_id: number,
  parent: number,
  children: number[],
  bounds: Box,
  extra: Record<string, unknown>,
) => ({
  temp_id,
  parent,
  children,
  class: 'android.widget.TextView',
  package: 'org.example',
  resource_id: null,
  text: null,
  content_description: null,
  bounds,
  clickable: false,
  visible: true,
  ...extra,
});

export function stateOf(views: unknown[], activity = 'org.example/.Main') {
  return { state_str: 'abc', foreground_activity: activity, width: 1080, height: 2280, views };
}

/** The agent's listing of a DroidBot state, line by line. */
export async function listingLines(state: unknown): Promise<string[]> {
  const r = readDroidbotState(state);
  if (!r.ok) throw new Error(r.message);
  const p = await perceive({ wire: r.snapshot });
  if (!p.ok) throw new Error(p.message);
  return compactView(p.observation, AGENT_COMPACT).split('\n');
}
