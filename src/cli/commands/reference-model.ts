import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { ActionableError } from '../../core/errors.js';
import type { CatalogEntry } from '../../planner/reference/intents.js';
import { startReferenceModel } from '../../planner/reference/server.js';

/**
 * `phone-agent reference-model --port P`: the OpenAI-compatible reference model on loopback, for
 * running the agent (or anything else) against known-good intents with seeded noise.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A catalog from `--tasks`: a JSON file of {id, instruction, intents}[], or a task directory with index.ts. */
export async function loadCatalog(dir: string): Promise<CatalogEntry[]> {
  if (dir.endsWith('.json')) {
    const data = JSON.parse(await readFile(dir, 'utf8')) as CatalogEntry[];
    if (!Array.isArray(data) || data.some((e) => typeof e.instruction !== 'string' || !Array.isArray(e.intents)))
      throw new ActionableError('BAD_CATALOG', `${dir} is not a list of {id, instruction, intents}`, 'fix the file');
    return data;
  }
  const file = path.join(path.resolve(dir), 'index.ts');
  try {
    const mod = (await import(pathToFileURL(file).href)) as { referenceCatalog: () => CatalogEntry[] };
    return mod.referenceCatalog();
  } catch (e) {
    throw new ActionableError(
      'NO_CATALOG',
      `cannot load the task catalog ${file} (${(e as Error).message})`,
      'pass --tasks DIR (with index.ts exporting referenceCatalog) or --tasks FILE.json; run through tsx (npm run phone-agent)',
    );
  }
}

export function register(program: Command): void {
  program
    .command('reference-model')
    .description('Serve the reference model (OpenAI-compatible, loopback) for the built-in tasks')
    .option('--port <n>', 'port (0 = any free port)', '0')
    .option('--tasks <dir|file.json>', 'task catalog', path.join(repoRoot, 'regression-tasks'))
    .option('--noise <rate>', 'rate of seeded mistakes, 0..1', '0')
    .option('--seed <n>', 'noise seed', '1')
    .action(async (o: { port: string; tasks: string; noise: string; seed: string }) => {
      const noise = Number(o.noise);
      if (!(noise >= 0 && noise <= 1)) {
        process.stderr.write('phone-agent reference-model: --noise must be between 0 and 1\n');
        process.exit(2);
      }
      const catalog = await loadCatalog(o.tasks);
      const model = await startReferenceModel({ catalog, port: Number(o.port), noise, seed: Number(o.seed) });
      process.stdout.write(
        `reference model on ${model.url} (${catalog.length} tasks, noise ${noise})\n` +
          `  OPENAI_BASE_URL=${model.url} PHONE_AGENT_MODEL=reference phone-agent run "<task>"\n`,
      );
      const stop = async () => {
        await model.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
