import { loadCatalog } from '../compose/reference-catalog.js';
import { type CatalogEntry, closestEntries, intentsForGoal } from '../testbed/reference-model/intents.js';

/**
 * `run --model reference` with a goal outside the catalog: the reference model would answer every
 * step with "unknown goal", which reads as an impossible task. Instead the run does not start
 * (exit 2, status `unknown_goal`, no run folder) and the closest phrasings are printed (DESIGN §10).
 */

export interface UnknownGoal {
  status: 'unknown_goal';
  goal: string;
  closest: { id: string; instruction: string; example?: string }[];
  message: string;
}

export async function unknownToReference(goal: string, command: string): Promise<UnknownGoal | undefined> {
  const catalog = await loadCatalog();
  if (intentsForGoal(catalog, goal)) return undefined;
  const closest = closestEntries(catalog, goal).map(({ id, instruction, example }: CatalogEntry) => ({
    id,
    instruction,
    example,
  }));
  const lines = [
    `the reference model does not know the goal "${goal}": it follows only the phrasings of its catalog, word for word (the phone may well be able to do it).`,
    ...(closest.length
      ? [
          'Closest phrasings it knows:',
          ...closest.map(
            (c) => `  ${command} run "${c.example ?? c.instruction}" --model reference   (${c.id}: ${c.instruction})`,
          ),
        ]
      : []),
    `All of them: ${command} tasks. Any wording: a real model (OPENAI_BASE_URL and PHONE_AGENT_MODEL).`,
  ];
  return { status: 'unknown_goal', goal, closest, message: lines.join('\n') };
}
