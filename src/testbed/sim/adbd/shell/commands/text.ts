import type { PhoneSurface } from '../../../surface.js';
import { type Command, type CommandContext, fail, ok } from '../command.js';

/**
 * The text tools scripts pipe dumpsys through (`dumpsys window | grep mCurrentFocus`): toybox
 * grep (basic/extended regex as JS regex), head, tail, wc, and a small find.
 */

function inputOf(ctx: CommandContext, files: string[]): { text: string; err?: string } {
  if (files.length === 0) return { text: ctx.stdin.toString('utf8') };
  const parts: string[] = [];
  for (const f of files) {
    const data = ctx.phone.readFile(f);
    if (!data) return { text: '', err: `${ctx.argv[0]}: ${f}: No such file or directory\n` };
    parts.push(data.toString('utf8'));
  }
  return { text: parts.join('') };
}

function lines(text: string): string[] {
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

export const grep: Command = async (ctx) => {
  const flags = new Set<string>();
  const rest: string[] = [];
  const patterns: string[] = [];
  const args = ctx.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-e') patterns.push(args[++i] ?? '');
    else if (/^-[a-zA-Z]+$/.test(a)) for (const c of a.slice(1)) flags.add(c);
    else rest.push(a);
  }
  if (patterns.length === 0) {
    const p = rest.shift();
    if (p === undefined) return fail('usage: grep [-civnoEF] PATTERN [FILE...]\n', 2);
    patterns.push(p);
  }
  const { text, err } = inputOf(ctx, rest);
  if (err) return fail(err, 2);
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Basic regex: \| \( \) are the operators; plain | ( ) are literals.
  const basic = (s: string) =>
    s.replace(/\\\||\\\(|\\\)|[|()]/g, (m) => (m.length === 2 ? (m[1] as string) : `\\${m}`));
  let re: RegExp;
  try {
    const source = patterns.map((p) => (flags.has('F') ? literal(p) : flags.has('E') ? p : basic(p))).join('|');
    re = new RegExp(source, flags.has('i') ? 'i' : '');
  } catch {
    return fail(`grep: bad regex '${patterns.join(' ')}'\n`, 2);
  }
  const out: string[] = [];
  let count = 0;
  lines(text).forEach((line, idx) => {
    if (re.test(line) === flags.has('v')) return;
    count++;
    if (flags.has('o') && !flags.has('v')) {
      const m = new RegExp(re.source, `g${re.flags}`);
      for (const x of line.matchAll(m)) out.push(x[0]);
    } else out.push(flags.has('n') ? `${idx + 1}:${line}` : line);
  });
  if (flags.has('q')) return { code: count ? 0 : 1 };
  const body = flags.has('c') ? `${count}\n` : out.map((l) => `${l}\n`).join('');
  return { stdout: body, code: count ? 0 : 1 };
};

function countArg(ctx: CommandContext): { n: number; files: string[] } {
  const args = ctx.argv.slice(1);
  let n = 10;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-n') n = Number(args[++i]);
    else if (/^-n?\d+$/.test(a)) n = Number(a.replace(/^-n?/, ''));
    else files.push(a);
  }
  return { n: Number.isFinite(n) ? n : 10, files };
}

export const head: Command = async (ctx) => {
  const { n, files } = countArg(ctx);
  const { text, err } = inputOf(ctx, files);
  if (err) return fail(err);
  return ok(
    lines(text)
      .slice(0, n)
      .map((l) => `${l}\n`)
      .join(''),
  );
};

export const tail: Command = async (ctx) => {
  const { n, files } = countArg(ctx);
  const { text, err } = inputOf(ctx, files);
  if (err) return fail(err);
  return ok(
    n === 0
      ? ''
      : lines(text)
          .slice(-n)
          .map((l) => `${l}\n`)
          .join(''),
  );
};

export const wc: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  const files = args.filter((a) => !a.startsWith('-'));
  const { text, err } = inputOf(ctx, files);
  if (err) return fail(err);
  const l = (text.match(/\n/g) ?? []).length;
  const w = text.split(/\s+/).filter(Boolean).length;
  const c = Buffer.byteLength(text);
  if (args.includes('-l')) return ok(`${l}\n`);
  if (args.includes('-w')) return ok(`${w}\n`);
  if (args.includes('-c')) return ok(`${c}\n`);
  return ok(`${l} ${w} ${c}\n`);
};

function walk(phone: PhoneSurface, path: string, out: { path: string; dir: boolean }[], depth = 0): void {
  const entries = phone.listDir(path);
  out.push({ path, dir: entries !== undefined });
  if (!entries || depth > 32) return;
  for (const e of entries) walk(phone, path.endsWith('/') ? `${path}${e}` : `${path}/${e}`, out, depth + 1);
}

export const find: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  const roots: string[] = [];
  let name: RegExp | undefined;
  let type: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-name' || a === '-iname') {
      const glob = (args[++i] ?? '')
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.');
      name = new RegExp(`^${glob}$`, a === '-iname' ? 'i' : '');
    } else if (a === '-type') type = args[++i];
    else if (a.startsWith('-')) return fail(`find: Unknown option '${a}'\n`);
    else roots.push(a);
  }
  if (roots.length === 0) roots.push('.');
  const found: { path: string; dir: boolean }[] = [];
  const errs: string[] = [];
  for (const r of roots) {
    if (ctx.phone.listDir(r) === undefined && ctx.phone.readFile(r) === undefined) {
      errs.push(`find: '${r}': No such file or directory\n`);
      continue;
    }
    walk(ctx.phone, r, found);
  }
  const hits = found.filter(
    (f) =>
      (!name || name.test(f.path.slice(f.path.lastIndexOf('/') + 1))) &&
      (!type || (type === 'd' ? f.dir : type === 'f' ? !f.dir : false)),
  );
  return { stdout: hits.map((h) => `${h.path}\n`).join(''), stderr: errs.join(''), code: errs.length ? 1 : 0 };
};
