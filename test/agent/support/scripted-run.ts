import { runAgent } from '../../../src/agent/loop.js';
import type { RunResult } from '../../../src/agent/types.js';
import { type ScriptedReply, scriptedEndpoint } from '../../planner/fixtures.js';
import { startRig } from './agent-rig.js';

/**
 * One run of the agent as the CLI composes it, on a fresh virtual phone, against a scripted model
 * over real HTTP: what each request said (`seen`) and how the run ended.
 */

export type SeenRequest = { messages: { role: string; content: unknown }[] };

export async function runScripted(
  replies: ScriptedReply[],
  goal: string,
  opts: { runsDir: string; maxSteps?: number; vision?: boolean },
): Promise<{ run: RunResult; seen: SeenRequest[] }> {
  const model = await scriptedEndpoint(replies);
  const rig = await startRig({ modelUrl: model.url, vision: opts.vision });
  try {
    const a = await rig.agent({ confirm: () => 'approved' });
    const run = await runAgent(a.deps, { goal, maxSteps: opts.maxSteps ?? 5, runsDir: opts.runsDir });
    await a.close();
    return { run, seen: model.seen as SeenRequest[] };
  } finally {
    await rig.close();
    await model.close();
  }
}

/** The text of the n-th request's user message (its text parts, when it carries an image). */
export function userPrompt(seen: SeenRequest[], n: number): string {
  return (seen[n]?.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content as { type: string; text?: string }[]).map((p) => p.text ?? '').join('\n'),
    )
    .join('\n');
}
