import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * DESIGN §2's import rules, checked on every relative import under src/ (in the spirit of
 * Playwright's DEPS lists). A layer may import itself and what its list names; `testbed/…` are
 * the outside world and only the composition roots may reach them.
 */

const ROOT = path.resolve(import.meta.dirname, '../../src');

/** Allowed targets per layer; a target ending in `/` allows only that sub-folder of a layer. */
const ALLOWED: Record<string, string[]> = {
  core: [],
  perception: ['core'],
  // DESIGN §10: the ADB backend reuses perception's pure uiautomator parser.
  device: ['core', 'perception'],
  planner: ['core'],
  executor: ['core', 'device', 'perception'],
  // The tool registry: one module per tool, over the planner's and the executor's specs (DESIGN §2).
  tools: ['core', 'device', 'perception', 'planner', 'executor'],
  // The page-memory file's schema is the planner's memory type.
  store: ['core', 'planner'],
  agent: ['core', 'device', 'perception', 'planner', 'executor', 'tools', 'store'],
  report: ['core', 'store', 'tools', 'agent'],
  'testbed/sim': ['core', 'device/protocol/'],
  // The replay phone serves recorded real-app graphs through the sim's servers; it reads DroidBot's
  // states with perception's pure reader, so there is one reader in the project.
  'testbed/replay': ['core', 'device/protocol/', 'testbed/sim', 'perception/droidbot/'],
  'testbed/reference-model': ['core'],
  // The stand-in STF farm hands out virtual phones' ADB transports; it speaks STF's API schemas.
  'testbed/stf': ['core', 'device/protocol/', 'testbed/sim'],
  compose: [
    'core',
    'device',
    'perception',
    'planner',
    'executor',
    'tools',
    'store',
    'agent',
    'testbed/sim',
    'testbed/replay',
    'testbed/reference-model',
  ],
  mcp: ['core', 'device', 'perception', 'planner', 'executor', 'tools', 'store', 'agent', 'compose'],
  cli: ['*'],
};

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

function layerOf(rel: string): string {
  const parts = rel.split('/');
  return parts[0] === 'testbed' ? `testbed/${parts[1]}` : (parts[0] ?? '');
}

function allowed(from: string, toRel: string): boolean {
  const a = layerOf(from);
  const b = layerOf(toRel);
  if (a === b) return true;
  const list = ALLOWED[a];
  if (!list) return false;
  return list.some((x) => x === '*' || (x.endsWith('/') ? `${toRel}`.startsWith(x) : x === b));
}

function imports(file: string): string[] {
  const src = fs.readFileSync(file, 'utf8');
  return [...src.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1] ?? '');
}

describe('layering (DESIGN §2)', () => {
  it('every file under src/ belongs to a known layer', () => {
    const unknown = walk(ROOT)
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .filter((rel) => !(layerOf(rel) in ALLOWED));
    expect(unknown).toEqual([]);
  });

  it('no import goes upward or into the testbed from an agent layer', () => {
    const bad: string[] = [];
    for (const f of walk(ROOT)) {
      const from = path.relative(ROOT, f).split(path.sep).join('/');
      for (const spec of imports(f)) {
        const to = path
          .relative(ROOT, path.resolve(path.dirname(f), spec))
          .split(path.sep)
          .join('/');
        if (!allowed(from, to)) bad.push(`${from} → ${to}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the rule itself rejects what DESIGN forbids', () => {
    expect(allowed('executor/executor.ts', 'agent/loop.ts')).toBe(false);
    expect(allowed('perception/perceive.ts', 'device/device.ts')).toBe(false);
    expect(allowed('agent/step.ts', 'testbed/sim/phone.ts')).toBe(false);
    expect(allowed('testbed/sim/phone.ts', 'device/bridge/client.ts')).toBe(false);
    expect(allowed('testbed/sim/phone.ts', 'device/protocol/wire.ts')).toBe(true);
    expect(allowed('testbed/reference-model/server.ts', 'planner/planner.ts')).toBe(false);
    expect(allowed('cli/main.ts', 'testbed/sim/phone.ts')).toBe(true);
    expect(allowed('testbed/replay/phone.ts', 'perception/droidbot/state.ts')).toBe(true);
    expect(allowed('testbed/replay/phone.ts', 'perception/perceive.ts')).toBe(false);
    expect(allowed('agent/step.ts', 'testbed/replay/phone.ts')).toBe(false);
    expect(allowed('executor/executor.ts', 'tools/tap.ts')).toBe(false);
    expect(allowed('planner/planner.ts', 'tools/index.ts')).toBe(false);
    expect(allowed('tools/tap.ts', 'executor/dispatch.ts')).toBe(true);
    expect(allowed('tools/tap.ts', 'agent/loop.ts')).toBe(false);
  });
});
