import { Command, type Option } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';

/**
 * Every command that talks to an adb server takes the same --adb-host/--adb-port, and the port
 * follows ANDROID_ADB_SERVER_PORT as adb does (`helper` once defaulted to 5037 whatever the env
 * said, so `helper install` went to another server than `run`).
 */
const saved = process.env.ANDROID_ADB_SERVER_PORT;
afterEach(() => {
  if (saved === undefined) delete process.env.ANDROID_ADB_SERVER_PORT;
  else process.env.ANDROID_ADB_SERVER_PORT = saved;
});

function allCommands(c: Command, path = ''): { path: string; cmd: Command }[] {
  return c.commands.flatMap((s) => [{ path: `${path}${s.name()}`, cmd: s }, ...allCommands(s, `${path}${s.name()} `)]);
}
const opt = (c: Command, flag: string): Option | undefined => c.options.find((o) => o.long === flag);

describe('adb server flags', () => {
  it('the port defaults to ANDROID_ADB_SERVER_PORT on every command that has one', () => {
    process.env.ANDROID_ADB_SERVER_PORT = '5099';
    const program = new Command();
    for (const register of commands) register(program);
    const withPort = allCommands(program).filter(({ cmd }) => opt(cmd, '--adb-port'));
    const names = withPort.map((c) => c.path);
    for (const expected of ['run', 'devices', 'doctor', 'observe', 'mcp', 'verify-device', 'helper install'])
      expect(names).toContain(expected);
    for (const { path, cmd } of withPort) {
      if (path === 'sim' || path === 'resume') continue; // sim serves adb; resume takes the checkpoint's
      expect(opt(cmd, '--adb-port')?.defaultValue, path).toBe('5099');
      expect(opt(cmd, '--adb-host')?.defaultValue, path).toBe('127.0.0.1');
    }
  });
});
