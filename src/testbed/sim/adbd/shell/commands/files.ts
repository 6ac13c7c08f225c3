import type { PhoneSurface } from '../../../surface.js';
import { type Command, fail, ok, writePhoneFile } from '../command.js';

/** toybox-style file commands over the phone's file system, plus the shell builtins tools send. */

type Removable = PhoneSurface & { removeFile?: (path: string) => boolean };

function isDir(phone: PhoneSurface, path: string): boolean {
  return phone.listDir(path) !== undefined;
}

function join(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

export const echo: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  const noNewline = args[0] === '-n';
  const text = (noNewline ? args.slice(1) : args).join(' ');
  return ok(noNewline ? text : `${text}\n`);
};

export const cat: Command = async (ctx) => {
  const paths = ctx.argv.slice(1).filter((a) => a !== '-');
  if (paths.length === 0) return { stdout: ctx.stdin, code: 0 };
  const out: Buffer[] = [];
  const errs: string[] = [];
  for (const p of paths) {
    const data = ctx.phone.readFile(p);
    if (data) out.push(data);
    else errs.push(isDir(ctx.phone, p) ? `cat: ${p}: Is a directory\n` : `cat: ${p}: No such file or directory\n`);
  }
  return { stdout: Buffer.concat(out), stderr: errs.join(''), code: errs.length ? 1 : 0 };
};

export const ls: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  const long = args.some((a) => /^-[a-zA-Z1]*l/.test(a));
  const paths = args.filter((a) => !a.startsWith('-'));
  if (paths.length === 0) paths.push('/');
  const out: string[] = [];
  const errs: string[] = [];
  const line = (path: string, name: string): string => {
    if (!long) return `${name}\n`;
    const dir = isDir(ctx.phone, path);
    const size = dir ? 4096 : (ctx.phone.readFile(path)?.length ?? 0);
    return `${dir ? 'drwxrws---' : '-rw-rw----'} 1 u0_a123 media_rw ${String(size).padStart(8)} 2024-01-01 00:00 ${name}\n`;
  };
  for (const p of paths) {
    const entries = ctx.phone.listDir(p);
    if (entries) {
      if (paths.length > 1) out.push(`${p}:\n`);
      if (long) out.push(`total ${entries.length}\n`);
      for (const e of [...entries].sort()) out.push(line(join(p, e), e));
    } else if (ctx.phone.readFile(p)) out.push(line(p, p));
    else errs.push(`ls: ${p}: No such file or directory\n`);
  }
  return { stdout: out.join(''), stderr: errs.join(''), code: errs.length ? 1 : 0 };
};

export const rm: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  const force = args.some((a) => /^-[a-zA-Z]*f/.test(a));
  const errs: string[] = [];
  for (const p of args.filter((a) => !a.startsWith('-'))) {
    const phone = ctx.phone as Removable;
    const exists = phone.readFile(p) !== undefined || isDir(phone, p);
    if (!exists) {
      if (!force) errs.push(`rm: ${p}: No such file or directory\n`);
      continue;
    }
    if (!phone.removeFile?.(p)) errs.push(`rm: ${p}: Read-only file system\n`);
  }
  return { stderr: errs.join(''), code: errs.length ? 1 : 0 };
};

export const mkdir: Command = async () => ok(); // directories are implicit on the virtual phone

export const touch: Command = async (ctx) => {
  const errs: string[] = [];
  for (const p of ctx.argv.slice(1).filter((a) => !a.startsWith('-'))) {
    if (ctx.phone.readFile(p) !== undefined || isDir(ctx.phone, p)) continue;
    const err = writePhoneFile(ctx.phone, p, Buffer.alloc(0));
    if (err) errs.push(`touch: '${p}': ${err}\n`);
  }
  return { stderr: errs.join(''), code: errs.length ? 1 : 0 };
};

export const sh: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  if (args[0] === '-c') {
    if (args[1] === undefined) return fail('/system/bin/sh: -c: argument expected\n', 2);
    return ctx.run(args[1]);
  }
  return ctx.run(ctx.stdin.toString('utf8'));
};

export const sleep: Command = async (ctx) => {
  const s = Number(ctx.argv[1]);
  if (!Number.isFinite(s) || s < 0) return fail(`sleep: invalid number '${ctx.argv[1] ?? ''}'\n`);
  await ctx.phone.clock.sleep(s * 1000);
  return ok();
};

export const trueCmd: Command = async () => ok();
export const falseCmd: Command = async () => ({ code: 1 });
export const whoami: Command = async () => ok('shell\n');
export const id: Command = async () =>
  ok(
    'uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),3003(inet) context=u:r:shell:s0\n',
  );

/** `test` / `[`: the file and string checks tools use (`[ -e PATH ] && echo __PASS__`). */
export const test: Command = async (ctx) => {
  let args = ctx.argv.slice(1);
  if (ctx.argv[0] === '[') {
    if (args[args.length - 1] !== ']') return fail("[: missing ']'\n", 2);
    args = args.slice(0, -1);
  }
  let negate = false;
  if (args[0] === '!') {
    negate = true;
    args = args.slice(1);
  }
  const phone = ctx.phone;
  const result = ((): boolean | undefined => {
    const [a, b, c] = args;
    if (args.length === 0) return false;
    if (args.length === 1) return (a as string).length > 0;
    if (args.length === 2) {
      const p = b as string;
      switch (a) {
        case '-e':
          return phone.readFile(p) !== undefined || isDir(phone, p);
        case '-f':
          return phone.readFile(p) !== undefined;
        case '-d':
          return isDir(phone, p);
        case '-s':
          return (phone.readFile(p)?.length ?? 0) > 0;
        case '-r':
          return phone.readFile(p) !== undefined || isDir(phone, p);
        case '-w':
          return /^\/(sdcard|data\/local\/tmp)(\/|$)/.test(p);
        case '-z':
          return p.length === 0;
        case '-n':
          return p.length > 0;
      }
      return undefined;
    }
    if (args.length === 3) {
      if (b === '=' || b === '==') return a === c;
      if (b === '!=') return a !== c;
      const x = Number(a);
      const y = Number(c);
      switch (b) {
        case '-eq':
          return x === y;
        case '-ne':
          return x !== y;
        case '-lt':
          return x < y;
        case '-le':
          return x <= y;
        case '-gt':
          return x > y;
        case '-ge':
          return x >= y;
      }
    }
    return undefined;
  })();
  if (result === undefined) return fail(`${ctx.argv[0]}: unknown operand\n`, 2);
  return { code: result !== negate ? 0 : 1 };
};

/** toybox `mv [-fin] SOURCE... DEST`: a file (or a directory's tree) into place; a directory DEST takes them by name. */
export const mv: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  const noClobber = args.some((a) => /^-[a-zA-Z]*n/.test(a));
  const paths = args.filter((a) => !a.startsWith('-'));
  if (paths.length < 2) return fail('usage: mv [-fin] SOURCE... DEST\n\nmv: Need 2 arguments\n');
  const dest = paths.pop() as string;
  const phone = ctx.phone as Removable;
  const destIsDir = isDir(phone, dest);
  if (paths.length > 1 && !destIsDir) return fail(`mv: '${dest}' not directory\n`);
  const errs: string[] = [];
  for (const src of paths) {
    const to = destIsDir ? join(dest, src.slice(src.lastIndexOf('/') + 1)) : dest;
    const err = moveOne(phone, src, to, noClobber);
    if (err) errs.push(`mv: ${err}\n`);
  }
  return { stderr: errs.join(''), code: errs.length ? 1 : 0 };
};

function moveOne(phone: Removable, src: string, to: string, noClobber: boolean): string | undefined {
  if (noClobber && (phone.readFile(to) !== undefined || isDir(phone, to))) return undefined;
  const data = phone.readFile(src);
  if (data === undefined && !isDir(phone, src)) return `'${src}': No such file or directory`;
  if (data !== undefined) {
    const err = writePhoneFile(phone, to, data);
    if (err) return `'${to}': ${err}`;
    return phone.removeFile?.(src) ? undefined : `'${src}': Read-only file system`;
  }
  for (const name of phone.listDir(src) ?? []) {
    const err = moveOne(phone, join(src, name), join(to, name), noClobber);
    if (err) return err;
  }
  return undefined;
}
