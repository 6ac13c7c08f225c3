import type { Command } from 'commander';

/** Each subcommand lives in its own file and registers itself here (one import line each). */
export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [];
