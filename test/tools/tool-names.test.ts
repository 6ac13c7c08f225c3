import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';

/**
 * A tool has one home (issue 23): its name, as a tool name, is written in its registry file
 * (src/tools/<name>.ts, or its folder), the registry index and tests — nowhere else in src/
 * (src/testbed, the virtual world and the reference model, is outside the product).
 *
 * The rule for "as a tool name" is precise rather than a bare word search, because the same words
 * mean other things: `tap`, `swipe`, `pinch`, `long_press` are also the helper protocol's wire
 * actions (`{ action: 'pinch', … }`, DeviceOp) — the bridge's vocabulary, a different concept that
 * must keep its words; `done` is a run status, `type` a JSON-schema key, `back`/`home` keys. So a
 * mention is a string literal equal to a tool's name in a tool context: on a line that names
 * `tool`/`tools` (`a.tool === 'tap'`, `{ tool: 'done' }`, a set of tools), or a `case` of a
 * `switch` over a `tool`. A protocol request (`action: 'pinch'`) on its own line is not one.
 *
 * The planner and the executor, below the registry (DESIGN §2), decide by what a tool's spec says
 * it does (`presses`, `entersText`, `agentUse`, …), never by its name. The BACKLOG of files that
 * still named tools when this test went in (2026-12-02) emptied in stop 34 and is gone: any
 * mention outside the allowed places fails.
 */

const ROOT = join(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return tsFiles(p);
    return d.name.endsWith('.ts') ? [p] : [];
  });
}

const names = TOOLS.map((t) => t.name);
const literal = new RegExp(`(['"\`])(${names.join('|')})\\1`, 'g');

/** The tool names a file writes as tool names (the rule above). */
function toolNamesIn(text: string): Set<string> {
  const found = new Set<string>();
  let inToolSwitch = false;
  for (const line of text.split('\n')) {
    if (/\bswitch\s*\(/.test(line)) inToolSwitch = /\btool\b/.test(line);
    const context = /\btools?\b/.test(line) || (inToolSwitch && /^\s*case\b/.test(line));
    if (!context) continue;
    for (const m of line.matchAll(literal)) found.add(m[2] as string);
  }
  return found;
}

/** Where a tool's name may be written: its own module (or folder), the registry index. */
function allowed(file: string, tool: string): boolean {
  const own = tool.replaceAll('_', '-');
  return file === 'src/tools/index.ts' || file === `src/tools/${own}.ts` || file.startsWith(`src/tools/${own}/`);
}

/** Per product file (src/testbed excluded), the tool names it writes outside their registry files. */
function mentions(): Map<string, Set<string>> {
  const byFile = new Map<string, Set<string>>();
  for (const path of tsFiles(SRC)) {
    const file = relative(ROOT, path).replaceAll('\\', '/');
    if (file.startsWith('src/testbed/')) continue;
    const found = [...toolNamesIn(readFileSync(path, 'utf8'))].filter((n) => !allowed(file, n)).sort();
    if (found.length) byFile.set(file, new Set(found));
  }
  return byFile;
}

describe('a tool name is written only in its registry file, the registry index and tests', () => {
  const found = mentions();

  it('the rule sees a tool name in a tool context and not a protocol action', () => {
    expect([...toolNamesIn("if (a.tool === 'pinch') return;")]).toEqual(['pinch']);
    expect([...toolNamesIn("switch (a.tool) {\n  case 'swipe':\n    break;\n}")]).toEqual(['swipe']);
    expect([...toolNamesIn("return { action: 'pinch', x, y };")]).toEqual([]);
    expect([...toolNamesIn("status: 'done',")]).toEqual([]);
  });

  it('no file outside the registry names a tool', () => {
    const extra = [...found].flatMap(([file, ns]) => [...ns].map((n) => `${file}: '${n}'`));
    expect(extra, 'decide by a property of the tool spec the registry passes down, not by its name').toEqual([]);
  });

  it('each registry tool module writes its own name', () => {
    for (const t of TOOLS) {
      const own = t.name.replaceAll('_', '-');
      const text = readFileSync(join(SRC, 'tools', `${own}.ts`), 'utf8');
      expect(text, t.name).toContain(`'${t.name}'`);
    }
  });
});
