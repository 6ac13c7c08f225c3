import type { Command } from 'commander';
import { startStandInStf } from '../../testbed/stf/server.js';

/**
 * `phone-agent stf-standin --phones N`: the stand-in STF farm on loopback (src/testbed/stf) with N
 * virtual phones, to try `--device stf:any` and `--devices stf` without a farm. It is not STF: it
 * answers the calls phone-agent makes, from STF's API description.
 */

export function register(program: Command): void {
  program
    .command('stf-standin')
    .description('Serve a stand-in STF farm of virtual phones on loopback (to try --device stf:any / --devices stf)')
    .option('--phones <n>', 'how many virtual phones it hands out', '2')
    .option('--port <n>', 'port (0 = any free port)', '0')
    .option('--token <token>', 'the access token it accepts (default: random, printed)')
    .option('--lease <seconds>', "the farm's group timeout: a reservation's idle lease when none is asked for", '900')
    .action(async (o: { phones: string; port: string; token?: string; lease: string }) => {
      const n = Number(o.phones);
      const lease = Number(o.lease);
      if (!Number.isInteger(n) || n < 1 || n > 16 || !(lease > 0)) {
        process.stderr.write('phone-agent stf-standin: --phones must be 1..16 and --lease a number of seconds\n');
        process.exit(2);
      }
      const farm = await startStandInStf({
        phones: Array.from({ length: n }, (_, i) => ({ serial: `STANDIN-${i + 1}`, seed: i + 1 })),
        port: Number(o.port),
        token: o.token,
        groupTimeoutMs: lease * 1000,
      });
      process.stdout.write(
        `stand-in STF farm on ${farm.url} with ${n} virtual phone(s) — not a real STF\n` +
          `  STF_URL=${farm.url} STF_TOKEN=${farm.token} phone-agent run "<task>" --device stf:any\n`,
      );
      const stop = async () => {
        await farm.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
