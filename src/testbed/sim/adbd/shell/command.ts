import type { PhoneSurface } from '../../surface.js';

/** What a shell command sees: its argv (argv[0] is the command name), stdin and the phone. */
export interface CommandContext {
  argv: string[];
  /** `NAME=value` given before the command on its line (`CLASSPATH=… app_process …`). */
  env?: Record<string, string>;
  stdin: Buffer;
  phone: PhoneSurface;
  /** Run a nested command line (`sh -c`), returning what it wrote and its exit code. */
  run(line: string): Promise<CommandResult>;
}

export interface CommandResult {
  stdout?: Buffer | string;
  stderr?: Buffer | string;
  code: number;
}

export type Command = (ctx: CommandContext) => Promise<CommandResult>;

export const ok = (stdout = ''): CommandResult => ({ stdout, code: 0 });
export const fail = (stderr: string, code = 1, stdout = ''): CommandResult => ({ stdout, stderr, code });

/** `cmd: usage` style error most Android tools print for bad arguments (exit 1 unless given). */
export function usage(text: string, code = 1): CommandResult {
  return { stderr: text.endsWith('\n') ? text : `${text}\n`, code };
}

/**
 * Write a file on the phone; the phone throws for read-only places (only /sdcard and
 * /data/local/tmp are writable). Returns the errno-style reason on failure.
 */
export function writePhoneFile(phone: PhoneSurface, path: string, data: Buffer): string | undefined {
  try {
    phone.writeFile(path, data);
    return undefined;
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/Read-only file system/i.test(msg)) return 'Read-only file system';
    if (/Is a directory/i.test(msg)) return 'Is a directory';
    return msg;
  }
}
