import type { Command } from 'commander';
import { loadCatalog } from '../../compose/reference-catalog.js';

/**
 * `phone-agent tasks`: what the reference model understands — the catalog's phrasings, each with an
 * example that works as it is. The reference model follows known intents; it does not read free text.
 */

export async function tasksCommand(o: { json?: boolean; tasks?: string }): Promise<string> {
  const catalog = await loadCatalog(o.tasks);
  if (o.json)
    return JSON.stringify(
      catalog.map(({ id, instruction, example }) => ({ id, instruction, example })),
      null,
      2,
    );
  const width = Math.max(...catalog.map((e) => e.id.length));
  const lines = catalog.map((e) => {
    const ex = e.example && e.example !== e.instruction ? `\n${' '.repeat(width + 2)}e.g. ${e.example}` : '';
    return `${e.id.padEnd(width)}  ${e.instruction}${ex}`;
  });
  return [
    `The reference model (--model reference) knows these ${catalog.length} phrasings ({…} is a value you choose):`,
    '',
    ...lines,
    '',
    'Any other wording needs a real model: set OPENAI_BASE_URL and PHONE_AGENT_MODEL (see README).',
  ].join('\n');
}

export function register(program: Command): void {
  program
    .command('tasks')
    .description('List the goals the built-in reference model understands (its task catalog)')
    .option('--json', 'print the catalog as JSON')
    .option('--tasks <dir|file.json>', 'task catalog (default: the built-in tasks)')
    .action(async (o: { json?: boolean; tasks?: string }) => {
      process.stdout.write(`${await tasksCommand(o)}\n`);
    });
}
