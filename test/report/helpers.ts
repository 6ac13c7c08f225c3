import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from '../../src/cli/commands/run.js';
import { LINE_ID_RE } from '../../src/core/element-ref.js';
import type { StepFile } from '../../src/report/index.js';

/** Runs `phone-agent run … --json` through its command function on the virtual phone; returns the result. */
export async function cliRun(
  goal: string,
  dir: string,
  extra: { yes?: boolean; maxSteps?: string } = {},
): Promise<{ status: string; runDir: string; steps: number }> {
  const writes: string[] = [];
  const orig = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => {
    writes.push(String(s));
    return true;
  }) as typeof process.stdout.write;
  try {
    await runCommand(goal, {
      device: 'sim',
      model: 'reference',
      yes: extra.yes ?? true,
      json: true,
      runsDir: path.join(dir, 'runs'),
      memory: path.join(dir, 'memory.json'),
      maxSteps: extra.maxSteps ?? '12',
      seed: '1',
      locale: 'en',
      adbHost: '127.0.0.1',
      adbPort: '5037',
    });
  } finally {
    process.stdout.write = orig;
  }
  return JSON.parse(writes.join(''));
}

/** Captures stdout of an async call. */
export async function captureStdout<T>(fn: () => Promise<T>): Promise<{ value: T; out: string }> {
  const writes: string[] = [];
  const orig = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => {
    writes.push(String(s));
    return true;
  }) as typeof process.stdout.write;
  try {
    const value = await fn();
    return { value, out: writes.join('') };
  } finally {
    process.stdout.write = orig;
  }
}

export async function readSteps(runDir: string): Promise<StepFile[]> {
  const names = (await readdir(path.join(runDir, 'steps'))).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(names.map(async (n) => JSON.parse(await readFile(path.join(runDir, 'steps', n), 'utf8'))));
}

export async function copyRun(src: string, dst: string): Promise<string> {
  await cp(src, dst, { recursive: true });
  return dst;
}

/** The `<article>` of step `n` in a report. */
export function articleOf(html: string, n: number): string {
  const start = html.indexOf(`<article id="step-${n}"`);
  if (start < 0) throw new Error(`no article for step ${n}`);
  return html.slice(start, html.indexOf('</article>', start) + '</article>'.length);
}

/** The element centre `[id] … x,y` in a compact observation (the test's own reading of it). */
/** The line of element `id` (a full id) in a listing that shows ids as their shortest unique prefix. */
export function lineIn(observation: string, id: string): string | undefined {
  const [hex = '', ord] = id.split('~');
  return observation.split('\n').find((l) => {
    const [shown = '', o] = LINE_ID_RE.exec(l)?.[1]?.split('~') ?? [];
    return shown !== '' && hex.startsWith(shown) && o === ord;
  });
}

/** The centre of the step's target: its recorded box (the lean listing places only some lines). */
export function centreOf(step: { target?: { bounds: { left: number; top: number; right: number; bottom: number } } }): {
  x: number;
  y: number;
} {
  const b = step.target?.bounds;
  if (!b) throw new Error('the step recorded no target');
  return { x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 };
}

const VOID = new Set(['meta', 'img', 'br', 'hr', 'input', 'link', 'circle', 'line', 'path']);

/** Tags closed out of order or left open (a cheap well-formedness check; the style block is skipped). */
export function tagProblems(html: string): string[] {
  const body = html.replace(/<style>[\s\S]*?<\/style>/, '');
  const stack: string[] = [];
  const problems: string[] = [];
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/g)) {
    const [, close, name, selfClose] = m;
    const tag = name!.toLowerCase();
    if (VOID.has(tag) || selfClose || tag === 'html' || tag === 'head' || tag === 'body') continue;
    if (!close) stack.push(tag);
    else if (stack.at(-1) === tag) stack.pop();
    else problems.push(`</${tag}> at ${m.index} closes <${stack.at(-1)}>`);
  }
  return [...problems, ...stack.map((t) => `<${t}> left open`)];
}
