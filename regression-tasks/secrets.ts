import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** SECRET tasks: the credential must not appear anywhere in the run folder (steps, checkpoint). */
export function leaksIn(dir: string, secret: string): string | undefined {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      const hit = leaksIn(p, secret);
      if (hit) return hit;
    } else if (!name.endsWith('.png') && readFileSync(p, 'utf8').includes(secret)) return p;
  }
  return undefined;
}
