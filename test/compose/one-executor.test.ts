import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One executor configuration (issue 23): the product builds an Executor in one place, the device
 * ports (src/agent/device-ports.ts), which the factory composes (src/compose/ports.ts) for the
 * agent and for MCP's direct tools alike. A second `new Executor(` elsewhere in src/ (the testbed
 * aside) is a second configuration — other defaults, another perceiver — and fails here.
 */

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return p === join(SRC, 'testbed') ? [] : sources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('one executor configuration', () => {
  it('only the device ports construct an Executor; compose hands them to the agent and to MCP', () => {
    const builders = sources(SRC)
      .filter((f) => /\bnew Executor\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(builders).toEqual(['src/agent/device-ports.ts']);
    const mcp = readFileSync(join(SRC, 'cli/commands/mcp.ts'), 'utf8');
    expect(mcp).toMatch(/composePorts\(/);
  });
});
