import type { Command } from 'commander';
import { loadCatalog } from '../../compose/reference-catalog.js';
import { startReferenceModel } from '../../testbed/reference-model/server.js';

/**
 * `phone-agent reference-model --port P`: the OpenAI-compatible reference model on loopback, for
 * running the agent (or anything else) against known-good intents with seeded noise.
 */

export function register(program: Command): void {
  program
    .command('reference-model')
    .description('Serve the reference model (OpenAI-compatible, loopback) for the built-in tasks')
    .option('--port <n>', 'port (0 = any free port)', '0')
    .option('--tasks <dir|file.json>', 'task catalog (default: the built-in tasks)')
    .option('--noise <rate>', 'rate of seeded mistakes, 0..1', '0')
    .option('--seed <n>', 'noise seed', '1')
    .action(async (o: { port: string; tasks?: string; noise: string; seed: string }) => {
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
