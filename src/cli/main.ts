#!/usr/bin/env node
import { Command } from 'commander';
import { commands } from './commands/index.js';

/** The composition root: the only place that wires concrete backends (and the virtual phone) together. */
const program = new Command();
program.name('phone-agent').description('Operate an Android phone from one natural-language sentence').version('0.1.0');
for (const register of commands) register(program);

program.parseAsync(process.argv).catch((e: unknown) => {
  process.stderr.write(`phone-agent: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
