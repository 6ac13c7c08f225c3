import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The run as a reducer (DESIGN §1), checked on the source the way test/core/layers.test.ts checks
 * imports: the run's state changes only in `reduce` (applied in one place), and the checkpoint is
 * written in one place, as `serialize(state)`. A new `s.state.plan.push(…)`, a second
 * `store.write(…)` or a hand-patched checkpoint.json anywhere in src/ fails here.
 */

const SRC = path.resolve(import.meta.dirname, '../../src');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return files(p);
    return d.name.endsWith('.ts') ? [p] : [];
  });
}

interface Hit {
  file: string;
  line: number;
  text: string;
}

/** Lines of code (comments dropped) matching `re`, over `paths`. */
function scan(paths: string[], re: RegExp): Hit[] {
  const hits: Hit[] = [];
  for (const file of paths) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((raw, i) => {
      const text = raw.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
      if (re.test(text)) hits.push({ file: path.relative(SRC, file), line: i + 1, text: raw.trim() });
    });
  }
  return hits;
}

const product = files(SRC).filter((f) => !f.includes(`${path.sep}testbed${path.sep}`));
const agent = files(path.join(SRC, 'agent'));
const REDUCER = path.join(SRC, 'agent', 'reduce.ts');
const STATE = path.join(SRC, 'agent', 'run-state.ts');

describe('the run state is written only by reduce', () => {
  it('has exactly one place that replaces the state, and it replaces it with reduce(…)', () => {
    const replaced = scan(product, /\.state\s*=(?!=)/);
    expect(replaced.map((h) => h.file)).toEqual(['agent/session.ts']);
    expect(replaced[0]?.text).toMatch(/^s\.state = reduce\(s\.state, ev\);$/);
  });

  it('writes nothing into a state outside reduce (0 places)', () => {
    // An assignment, an increment, or a mutating call through a state (`s.state.…`, `st.…`,
    // `state.…`) — the shapes the old Session was written with at 52 sites.
    const path_ = String.raw`\b(?:s\.state|st|state)(?:\.[\w$]+|\[[^\]]+\])+`;
    const writes = new RegExp(
      String.raw`${path_}\s*(?:[-+*/]?=(?![=>])|\+\+|--)|${path_}\.(?:push|pop|shift|unshift|splice|sort|reverse|fill|add|delete|set|clear)\(`,
    );
    const outside = scan(
      agent.filter((f) => f !== REDUCER),
      writes,
    );
    expect(outside).toEqual([]);
  });

  it('reduce itself is pure: it writes nothing into the state or the event it is given', () => {
    const path_ = String.raw`\b(?:s|t|ev|e)(?:\.[\w$]+|\[[^\]]+\])+`;
    const writes = new RegExp(
      String.raw`${path_}\s*(?:[-+*/]?=(?![=>])|\+\+|--)|${path_}\.(?:push|pop|shift|unshift|splice|sort|reverse|fill|add|delete|set|clear)\(`,
    );
    expect(scan([REDUCER, STATE], writes)).toEqual([]);
  });

  it('has no Session fields of the old mutable shape left (mem, loop, plan, result on the session)', () => {
    const old = scan(
      agent.filter((f) => f !== REDUCER && f !== STATE),
      /\bs\.(?:mem|loop|plan|current|total|result|cur|checkpoint)\b/,
    );
    expect(old).toEqual([]);
  });
});

describe('the checkpoint is written in one place', () => {
  it('has exactly one checkpoint write in src/, and it writes serialize(state)', () => {
    const writes = scan(product, /\b(?:store|checkpoint|cp)\.(?:write|save)\(/);
    expect(writes.map((h) => h.file)).toEqual(['agent/session.ts']);
    expect(writes[0]?.text).toMatch(/store\.write\(serialize\(s\.state\)\)/);
    const serialized = scan(product, /(?<!function )\bserialize\(/).filter((h) => h.file.startsWith('agent/'));
    expect(serialized).toHaveLength(1);
  });

  it('nothing else in src/ writes checkpoint.json', () => {
    const others = scan(
      product.filter((f) => !f.endsWith(path.join('store', 'checkpoint.ts'))),
      /checkpoint\.json/,
    ).filter((h) => /write|JSONFile|rename|appendFile/.test(h.text));
    expect(others).toEqual([]);
  });
});
