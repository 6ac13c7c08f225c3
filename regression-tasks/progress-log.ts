import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { ActionableError } from '../src/core/errors.js';

/**
 * A long measurement's progress (the suite's runs, bench:droidtask's steps): one JSON line per
 * finished item, appended the moment it finishes, after a header naming the run (its model…). A run
 * that stops — the model stopped answering, Ctrl-C, a crash — loses nothing and goes on with
 * `--resume`; an unfinished one is never overwritten silently (hours of a relayed model's answers
 * may be in it). The caller removes the file once its report is written.
 */

export type ProgressHeader = Readonly<Record<string, string | number | boolean>>;

export interface ProgressOptions<R> {
  resume: boolean;
  /** An item's identity: a resumed run skips the items with a key already logged. */
  key: (r: R) => string;
  /** What an item is, for messages ("scored step", "run"). */
  noun: string;
}

const describe = (h: ProgressHeader | undefined) =>
  h
    ? Object.entries(h)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : 'no header';

export class ProgressLog<R> {
  private readonly done = new Map<string, R>();

  private constructor(
    readonly file: string,
    /** Items the run resumed from. */
    readonly resumed: number,
    private readonly opts: ProgressOptions<R>,
    items: readonly R[],
  ) {
    for (const r of items) this.done.set(opts.key(r), r);
  }

  static async open<R>(file: string, header: ProgressHeader, opts: ProgressOptions<R>): Promise<ProgressLog<R>> {
    const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (text === undefined) {
      await writeFile(file, `${JSON.stringify(header)}\n`);
      return new ProgressLog<R>(file, 0, opts, []);
    }
    const [first = '', ...rest] = text.split('\n');
    const old = parseLine<ProgressHeader>(first);
    // A line torn by a kill mid-write is the one item that will be done again.
    const items = rest.flatMap((l) => {
      const r = parseLine<R>(l);
      return r === undefined ? [] : [r];
    });
    if (!opts.resume)
      throw new ActionableError(
        'USAGE',
        `${file} holds ${items.length} ${opts.noun}(s) of an unfinished run (${describe(old)})`,
        'go on with the same command and --resume, or delete that file to start over',
      );
    if (describe(old) !== describe(header))
      throw new ActionableError(
        'USAGE',
        `${file} was written by another run (${describe(old)}), not this one (${describe(header)})`,
        'resume with the flags that run had, or give this run another --out',
      );
    // Rewritten without the torn line, so the next append starts on a line of its own.
    await writeFile(file, [first, ...items.map((r) => JSON.stringify(r))].map((l) => `${l}\n`).join(''));
    return new ProgressLog<R>(file, items.length, opts, items);
  }

  get(key: string): R | undefined {
    return this.done.get(key);
  }

  /** Every logged item, resumed or this run's, in the order they were logged. */
  items(): R[] {
    return [...this.done.values()];
  }

  async append(r: R): Promise<void> {
    this.done.set(this.opts.key(r), r);
    await appendFile(this.file, `${JSON.stringify(r)}\n`);
  }

  async remove(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

function parseLine<T>(line: string): T | undefined {
  if (!line.trim()) return undefined;
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined;
  }
}
