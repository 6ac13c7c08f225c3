import { describe, expect, it } from 'vitest';
import { TASKS } from '../../regression-tasks/index.js';
import { parseSuiteArgs } from '../../regression-tasks/suite-args.js';
import { parseDevices } from '../../src/compose/pool/devices-arg.js';
import { matchesFilters } from '../../src/device/stf/lease.js';

/** `--devices` and the farm's filters: what each value means, and bad ones named with the fix. */

describe('--devices', () => {
  it('reads virtual phones, farm devices, serials and bridges, mixed and in order', () => {
    expect(parseDevices('sim:4')).toEqual([{ kind: 'sim', count: 4 }]);
    expect(parseDevices(' sim-adb:2 , emulator-5554,http://127.0.0.1:7912, stf:3,192.168.1.5:5555')).toEqual([
      { kind: 'sim-adb', count: 2 },
      { kind: 'adb', serial: 'emulator-5554' },
      { kind: 'bridge', url: 'http://127.0.0.1:7912' },
      { kind: 'stf', max: 3 },
      { kind: 'adb', serial: '192.168.1.5:5555' },
    ]);
    expect(parseDevices('stf')).toEqual([{ kind: 'stf' }]);
    expect(parseDevices('sim')).toEqual([{ kind: 'sim', count: 1 }]);
  });

  it('refuses what is not a device, with what to pass instead', () => {
    expect(() => parseDevices('sim:0')).toThrow(/"sim:0" needs a count from 1 to 16 — e\.g\. --devices sim:4/);
    expect(() => parseDevices('sim:x')).toThrow(/needs a count/);
    expect(() => parseDevices('')).toThrow(/--devices is empty/);
    expect(() => parseDevices('a b')).toThrow(/"a b" is not a device/);
    expect(() => parseDevices('sim:2,sim:2')).toThrow(/names sim twice — write one sim:N/);
    expect(() => parseDevices('emulator-5554,emulator-5554')).toThrow(/names emulator-5554 twice/);
  });

  it('in the suite: a usage error, and --interrupt only where the suite owns the phone', () => {
    const bad = parseSuiteArgs(['--model', 'reference', '--devices', 'sim:99'], {}, TASKS);
    expect(bad).toMatchObject({ ok: false, message: expect.stringMatching(/count from 1 to 16/) });
    const foreign = parseSuiteArgs(
      ['--model', 'reference', '--devices', 'emulator-5554', '--interrupt', 'dialog'],
      {},
      TASKS,
    );
    expect(foreign).toMatchObject({
      ok: false,
      message: expect.stringMatching(/--interrupt .* sim:N or sim-adb:N only/),
    });
    const farm = parseSuiteArgs(['--model', 'reference', '--devices', 'stf'], {}, TASKS);
    expect(farm).toMatchObject({ ok: false, message: expect.stringMatching(/needs --stf-url URL \(env STF_URL\)/) });
    const ok = parseSuiteArgs(
      ['--model', 'reference', '--devices', 'stf:2'],
      { STF_URL: 'http://127.0.0.1:1', STF_TOKEN: 't' },
      TASKS,
    );
    expect(ok.ok && ok.args.devices).toEqual([{ kind: 'stf', max: 2 }]);
    expect(ok.ok && typeof ok.args.poolOptions.farm).toBe('function');
  });
});

describe('the farm filters', () => {
  const pixel = { serial: 'A1', model: 'Pixel 7', marketName: 'Google Pixel 7', name: 'panther', sdk: '34' };
  const galaxy = { serial: 'B2', model: 'SM-A515F', marketName: 'Galaxy A51', name: 'a51', sdk: '30' };
  it('match an API level exactly or from N up, and model or name by part, any case', () => {
    expect(matchesFilters(pixel, { sdk: '34' })).toBe(true);
    expect(matchesFilters(galaxy, { sdk: '34' })).toBe(false);
    expect(matchesFilters(galaxy, { sdk: '30+' })).toBe(true);
    expect(matchesFilters(galaxy, { sdk: '31+' })).toBe(false);
    expect(matchesFilters(galaxy, { model: 'galaxy' })).toBe(true);
    expect(matchesFilters(pixel, { model: 'galaxy' })).toBe(false);
    expect(matchesFilters(pixel, { name: 'PANTHER' })).toBe(true);
    expect(matchesFilters(pixel, { name: 'a1', model: 'pixel', sdk: '33+' })).toBe(true);
    expect(matchesFilters(pixel, {})).toBe(true);
  });
});
