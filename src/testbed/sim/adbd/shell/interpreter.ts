import type { PhoneSurface } from '../../surface.js';
import { type Command, type CommandResult, writePhoneFile } from './command.js';
import { parseCommandLine, type SimpleCommand } from './words.js';

/** Where command output goes: fd 1 (stdout) or 2 (stderr), in the order it was produced. */
export type OutputSink = (fd: 1 | 2, data: Buffer) => void;

export interface ShellDeps {
  phone: PhoneSurface;
  commands: ReadonlyMap<string, Command>;
}

const SH = '/system/bin/sh';

function toBuf(x: Buffer | string | undefined): Buffer {
  if (x === undefined) return Buffer.alloc(0);
  return typeof x === 'string' ? Buffer.from(x, 'utf8') : x;
}

/**
 * Runs a command line the way Android's mksh would for the subset phone tools use: lists with
 * `;` `&&` `||`, pipes, redirections. Returns the exit code of the last command run.
 */
export async function runCommandLine(
  line: string,
  deps: ShellDeps,
  sink: OutputSink,
  /** The session's stdin (adb shell's piped input); the first command to read stdin consumes it. */
  input?: Buffer,
): Promise<number> {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) {
    sink(2, Buffer.from(`${SH}: ${parsed.message}\n`));
    return 2;
  }
  let code = 0;
  let skip = false;
  let sessionStdin = input ?? Buffer.alloc(0);
  for (const item of parsed.list) {
    if (!skip) {
      const stdin = sessionStdin;
      sessionStdin = Buffer.alloc(0);
      if (item.next === '&') {
        // A background job: the shell does not wait. Its output is dropped, since the session may
        // have ended by the time it writes (tools that start servers send it to /dev/null anyway).
        void runPipeline(item.pipeline, Buffer.alloc(0), deps, () => {}).catch(() => {});
        code = 0;
      } else code = await runPipeline(item.pipeline, stdin, deps, sink);
    }
    if (item.next === '&&') skip = code !== 0;
    else if (item.next === '||') skip = code === 0;
    else skip = false;
  }
  return code;
}

async function runPipeline(
  pipeline: SimpleCommand[],
  input: Buffer,
  deps: ShellDeps,
  sink: OutputSink,
): Promise<number> {
  let code = 0;
  let stdin = input;
  for (let i = 0; i < pipeline.length; i++) {
    const cmd = pipeline[i] as SimpleCommand;
    const last = i === pipeline.length - 1;
    const out: Buffer[] = [];
    code = await runSimple(cmd, stdin, deps, (fd, data) => {
      if (fd === 1 && !last) out.push(data);
      else sink(fd, data);
    });
    stdin = Buffer.concat(out);
  }
  return code;
}

/** `NAME=value` words before the command name: that command's environment. */
function splitAssignments(argv: string[]): { env: Record<string, string>; argv: string[] } {
  const env: Record<string, string> = {};
  let k = 0;
  for (; k < argv.length; k++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(argv[k] as string);
    if (!m) break;
    env[m[1] as string] = m[2] as string;
  }
  return { env, argv: argv.slice(k) };
}

/**
 * Whether a command line reads the session's stdin (`cat` without files, `sh` without `-c`), so the
 * service must collect stdin before running it, as the real shell would block on it.
 */
export function readsStdin(line: string): boolean {
  const parsed = parseCommandLine(line);
  if (!parsed.ok) return false;
  return parsed.list.some((item) => {
    const first = item.pipeline[0];
    if (!first || item.next === '&' || first.redirects.some((r) => r.op === '<')) return false;
    const [name, ...args] = splitAssignments(first.argv).argv;
    const base = name?.slice(name.lastIndexOf('/') + 1);
    if (base === 'cat') return !args.some((a) => a !== '-' && !a.startsWith('-'));
    if (base === 'sh') return !args.includes('-c');
    return false;
  });
}

/** Capture a command line's output (for `sh -c` and tests). */
export async function captureCommandLine(line: string, deps: ShellDeps): Promise<CommandResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const code = await runCommandLine(line, deps, (fd, d) => (fd === 1 ? out : err).push(d));
  return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), code };
}

async function runSimple(cmd: SimpleCommand, stdin: Buffer, deps: ShellDeps, sink: OutputSink): Promise<number> {
  // fd table: where 1 and 2 go. 'sink1'/'sink2' are the real outputs; others are file paths.
  const target: Record<1 | 2, string> = { 1: '&1', 2: '&2' };
  const append: Record<1 | 2, boolean> = { 1: false, 2: false };
  for (const r of cmd.redirects) {
    if (r.op === '<') {
      // /dev/null exists on every phone (adb's install cleanup runs `rm FILE </dev/null`).
      const data = r.target === '/dev/null' ? Buffer.alloc(0) : deps.phone.readFile(r.target);
      if (!data) {
        sink(2, Buffer.from(`${SH}: can't open '${r.target}': No such file or directory\n`));
        return 1;
      }
      stdin = data;
      continue;
    }
    if (r.fd !== 1 && r.fd !== 2) continue; // other fds: nothing writes to them
    if (r.op === '>&') {
      const src = r.target === '1' || r.target === '2' ? target[Number(r.target) as 1 | 2] : undefined;
      if (!src) {
        sink(2, Buffer.from(`${SH}: ${r.target}: bad file descriptor\n`));
        return 1;
      }
      target[r.fd] = src;
    } else {
      target[r.fd] = r.target;
      append[r.fd] = r.op === '>>';
    }
  }
  const files = new Map<string, Buffer[]>();
  const emit = (fd: 1 | 2, data: Buffer): void => {
    if (data.length === 0) return;
    const to = target[fd];
    if (to === '&1') sink(1, data);
    else if (to === '&2') sink(2, data);
    else if (to === '/dev/null') return;
    else {
      const parts = files.get(to) ?? [];
      parts.push(data);
      files.set(to, parts);
    }
  };
  for (const fd of [1, 2] as const) {
    const to = target[fd];
    if (!to.startsWith('&') && to !== '/dev/null') files.set(to, []);
  }
  let code: number;
  const { env, argv } = splitAssignments(cmd.argv);
  if (argv.length === 0)
    code = 0; // a bare redirection creates/truncates the file; bare assignments set nothing we expand
  else {
    const name = argv[0] as string;
    const base = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    const impl = deps.commands.get(base);
    if (!impl) {
      emit(2, Buffer.from(`${SH}: ${name}: not found\n`));
      code = 127;
    } else {
      let res: CommandResult;
      try {
        res = await impl({
          argv: [base, ...argv.slice(1)],
          env,
          stdin,
          phone: deps.phone,
          run: (line) => captureCommandLine(line, deps),
        });
      } catch (err) {
        // A crashing tool prints its exception and exits 255, as a Java tool on Android does.
        const msg = err instanceof Error ? err.message : String(err);
        res = {
          stderr: `Exception occurred while executing '${base}':\njava.lang.IllegalStateException: ${msg}\n`,
          code: 255,
        };
      }
      emit(1, toBuf(res.stdout));
      emit(2, toBuf(res.stderr));
      code = res.code;
    }
  }
  for (const [path, parts] of files) {
    const fd = target[1] === path ? 1 : 2;
    const prev = append[fd] ? (deps.phone.readFile(path) ?? Buffer.alloc(0)) : Buffer.alloc(0);
    const err = writePhoneFile(deps.phone, path, Buffer.concat([prev, ...parts]));
    if (err) {
      sink(2, Buffer.from(`${SH}: can't create ${path}: ${err}\n`));
      code = 1;
    }
  }
  return code;
}
