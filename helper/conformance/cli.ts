import { parseArgs } from 'node:util';
import { runConformance } from './index.js';

/** `npm run conformance -- --url U --token T`: run the suite against any helper; exit 1 on a failure. */

const { values } = parseArgs({
  options: { url: { type: 'string' }, token: { type: 'string' }, timeout: { type: 'string' } },
});
const url = values.url ?? process.env.BRIDGE_URL;
const token = values.token ?? process.env.BRIDGE_TOKEN;
if (!url || !token) {
  process.stderr.write('usage: npm run conformance -- --url http://127.0.0.1:PORT --token TOKEN [--timeout MS]\n');
  process.exit(2);
}

const results = await runConformance({
  url,
  token,
  ...(values.timeout ? { timeoutMs: Number(values.timeout) } : {}),
  onResult: (r) =>
    process.stdout.write(
      `${r.status === 'pass' ? 'PASS' : 'FAIL'}  ${r.name}${r.detail ? `  — ${r.detail}` : ''}  (${r.ms} ms)\n`,
    ),
});
const failed = results.filter((r) => r.status === 'fail').length;
process.stdout.write(`\n${results.length - failed}/${results.length} checks passed\n`);
process.exit(failed ? 1 : 0);
