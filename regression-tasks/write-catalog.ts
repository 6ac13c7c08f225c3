import { writeFileSync } from 'node:fs';
import { referenceCatalog } from './index.js';

/** `npm run build` step: the reference model's catalog as JSON, so the compiled CLI needs no sources. */
const out = process.argv[2];
if (!out) {
  process.stderr.write('usage: tsx regression-tasks/write-catalog.ts OUT.json\n');
  process.exit(2);
}
writeFileSync(out, `${JSON.stringify(referenceCatalog(), null, 1)}\n`);
