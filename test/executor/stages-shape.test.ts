import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 23's measure of the executor as stages: every function under src/executor/ is small (≤ 60
 * lines, parsed with the TypeScript compiler, so a long arrow inside a call counts too), and the
 * executor imports nothing from the agent — its caller's code reaches it only as ports and events
 * it defines itself.
 */

const ROOT = path.resolve(import.meta.dirname, '../../src/executor');
const MAX_LINES = 60;

function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
}

function nameOf(n: ts.Node): string {
  if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isAccessor(n)) && n.name) return n.name.getText();
  if (ts.isConstructorDeclaration(n)) return 'constructor';
  const p = n.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)))
    return p.name.getText();
  return '(anonymous)';
}

/** `file:line name (n lines)` for every function longer than `max` lines. */
function longFunctions(file: string, max: number): string[] {
  const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const start = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
      const end = src.getLineAndCharacterOfPosition(n.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) out.push(`${path.relative(ROOT, file)}:${start + 1} ${nameOf(n)} (${lines} lines)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe('the executor as stages (issue 23)', () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    expect(files(ROOT).flatMap((f) => longFunctions(f, MAX_LINES))).toEqual([]);
  });

  it('the measure sees a long function (it can fail)', () => {
    const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shape-')), 'long.ts');
    try {
      const body = Array.from({ length: 61 }, (_, i) => `  const v${i} = ${i};`).join('\n');
      fs.writeFileSync(tmp, `export const run = async () => {\n${body}\n};\n`);
      expect(longFunctions(tmp, MAX_LINES)).toEqual([expect.stringMatching(/run \(63 lines\)$/)]);
    } finally {
      fs.rmSync(path.dirname(tmp), { recursive: true, force: true });
    }
  });

  it('imports nothing from the agent', () => {
    const up = files(ROOT).flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)]
        .map((m) => path.resolve(path.dirname(f), m[1] ?? ''))
        .filter((t) => t.startsWith(path.resolve(ROOT, '../agent')))
        .map((t) => `${path.relative(ROOT, f)} → ${path.relative(path.resolve(ROOT, '..'), t)}`),
    );
    expect(up).toEqual([]);
  });
});
