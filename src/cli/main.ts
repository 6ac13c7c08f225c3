#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { ActionableError } from '../core/errors.js';
import { commands } from './commands/index.js';
import { EXIT_USAGE } from './compose.js';

/** The composition root: the only place that wires concrete backends (and the virtual phone) together. */
const program = new Command();
program
  .name('phone-agent')
  .description('Operate an Android phone from one natural-language sentence')
  .version('0.1.0')
  // Usage errors (unknown option or command, missing argument) exit 2, as the README says;
  // commander has already printed what was wrong. Help and --version exit 0.
  .exitOverride()
  .showSuggestionAfterError();
for (const register of commands) register(program);

const HELP_CODES = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

program.parseAsync(process.argv).catch((e: unknown) => {
  if (e instanceof CommanderError) process.exit(HELP_CODES.has(e.code) ? 0 : EXIT_USAGE);
  if (e instanceof ActionableError) {
    // The message carries its fix ("… — do this").
    process.stderr.write(`phone-agent: ${e.message}\n`);
    process.exit(EXIT_USAGE);
  }
  process.stderr.write(`phone-agent: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
