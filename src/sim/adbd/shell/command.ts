import type { PhoneSurface } from '../../surface.js';

/** What a shell command sees: its argv (argv[0] is the command name), stdin and the phone. */
export interface CommandContext {
  argv: string[];
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
