import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { TASKS } from '../../regression-tasks/index.js';
import { parseSuiteArgs } from '../../regression-tasks/suite-args.js';
import { agentOptions } from '../../src/cli/commands/run.js';
import { type AgentFlags, knowledgeFlagsOf, knowledgeSpec, knowledgeUse, launchRecord } from '../../src/cli/compose.js';
import { DEFAULT_KNOWLEDGE_DIR } from '../../src/store/knowledge-store.js';

/**
 * Which app knowledge a run reads (issue 25): the store by default, `--knowledge FILE` instead of
 * it, none with `--no-knowledge`; the launch record keeps the choice, so `resume` (which merges the
 * record under its own flags) reads the same knowledge; the suite's `--knowledge DIR|auto`.
 */

const parse = (...argv: string[]) =>
  agentOptions(new Command('run').exitOverride(), true).parse(argv, { from: 'user' }).opts() as AgentFlags;

/** As `resume` builds its flags: the run's launch record read back into the flags that chose its knowledge. */
const resumed = (rec: Record<string, string>) => knowledgeUse(knowledgeFlagsOf(rec));

describe('knowledge flags', () => {
  it('default: the store under .phone-agent, or --knowledge-dir; the factory gets the store folder', () => {
    const f = parse();
    expect(knowledgeUse(f)).toEqual({ kind: 'store', dir: path.resolve(DEFAULT_KNOWLEDGE_DIR) });
    expect(knowledgeSpec(knowledgeUse(parse('--knowledge-dir', 'k')))).toEqual({ knowledgeStore: path.resolve('k') });
  });

  it('--no-knowledge turns every knowledge off; --knowledge files replace the store', () => {
    expect(knowledgeUse(parse('--no-knowledge'))).toEqual({ kind: 'off' });
    expect(knowledgeSpec(knowledgeUse(parse('--no-knowledge')))).toEqual({});
    const files = knowledgeUse(parse('--knowledge', 'a.json', '--knowledge', 'b/k.json'));
    expect(files).toEqual({ kind: 'files', files: [path.resolve('a.json'), path.resolve('b/k.json')] });
  });

  it('the launch record keeps the knowledge in use, and resume reads it back the same', () => {
    for (const argv of [['--no-knowledge'], ['--knowledge', 'x.json'], ['--knowledge-dir', '/tmp/store'], []]) {
      const f = parse(...argv);
      expect(resumed(launchRecord(f)), argv.join(' ')).toEqual(knowledgeUse(f));
    }
    // Not what the defaults would say at resume time: the folder the run started with.
    expect(resumed(launchRecord(parse('--knowledge-dir', '/tmp/store')))).toEqual({ kind: 'store', dir: '/tmp/store' });
    // The record's strings stay the record's: the flag is files or false, never a serialized string.
    expect(knowledgeFlagsOf(launchRecord(parse('--knowledge', 'x.json')))).toEqual({
      knowledge: [path.resolve('x.json')],
    });
    expect(knowledgeFlagsOf(launchRecord(parse('--no-knowledge')))).toEqual({ knowledge: false });
    // A checkpoint written before this change (the same strings) reads back the same.
    expect(knowledgeFlagsOf({ device: 'sim', knowledge: '["/k/a.json"]' })).toEqual({ knowledge: ['/k/a.json'] });
  });

  it('the suite: --knowledge DIR or auto (the default store or PHONE_AGENT_KNOWLEDGE_DIR); none by default', () => {
    const suite = (argv: string[], env: Record<string, string> = {}) => {
      const p = parseSuiteArgs(['--model', 'reference', ...argv], env, TASKS);
      if (!p.ok) throw new Error(p.message);
      return p.args.knowledge;
    };
    expect(suite([])).toBeUndefined();
    expect(suite(['--knowledge', 'k'])).toBe(path.resolve('k'));
    expect(suite(['--knowledge', 'auto'])).toBe(path.resolve(DEFAULT_KNOWLEDGE_DIR));
    expect(suite(['--knowledge', 'auto'], { PHONE_AGENT_KNOWLEDGE_DIR: '/tmp/ks' })).toBe('/tmp/ks');
  });
});
