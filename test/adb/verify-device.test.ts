import { access, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APK_PATH } from '../../helper/android/tools/toolchain.js';
import { CONFORMANCE_CHECKS } from '../../helper/conformance/index.js';
import type { VerifyReport } from '../../src/cli/verify/report.js';
import { VERIFY_TASKS } from '../../src/cli/verify/tasks.js';
import { LATIN_IME } from '../../src/testbed/sim/engine/services.js';
import { type HelperPhone, phoneAgent, startHelperPhone } from './support/helper-phone.js';

/**
 * `phone-agent verify-device --device SERIAL` end to end against the virtual phone over the real adb
 * server: its adbd installs the APK and serves the helper once the service is enabled. The whole
 * kit runs — doctor, helper install, the conformance suite, the Settings tasks (the reference model
 * knows them), the tree against `uiautomator dump` — and leaves one masked report folder.
 */

let world: HelperPhone;
let dir: string;

const verify = (args: string[], env: Record<string, string | undefined> = {}) =>
  phoneAgent(['verify-device', '--device', world.serial, '--adb-port', String(world.server.port), ...args], {
    timeout: 600_000,
    env: { PHONE_AGENT_HELPER_STATE: join(dir, 'state'), ...env },
  });

async function report(out: string): Promise<{ json: VerifyReport; files: string }> {
  const json = await readFile(join(out, 'verify.json'), 'utf8');
  const html = await readFile(join(out, 'verify.html'), 'utf8');
  return { json: JSON.parse(json) as VerifyReport, files: json + html };
}

const step = (r: VerifyReport, name: string) => r.steps.find((s) => s.name === name);

beforeAll(async () => {
  await access(APK_PATH).catch(() => {
    throw new Error(`${APK_PATH} is missing: run \`npm run helper:build\` first`);
  });
  dir = await mkdtemp(join(tmpdir(), 'pa-verify-'));
  world = await startHelperPhone(7);
}, 120_000);

afterAll(async () => {
  await world?.close();
});

describe('verify-device on the virtual phone over real adb', () => {
  it('installs the helper, passes conformance, the tasks and the tree check, and writes a masked report', async () => {
    const out = join(dir, 'first');
    const r = await verify(['--model', 'reference', '--out', out, '--runs-dir', join(dir, 'runs')]);
    expect(r.code, r.out).toBe(0);
    const { json, files } = await report(out);
    expect(step(json, 'helper')?.detail).toMatch(/^installed now: protocol 3/);
    expect(step(json, 'doctor')?.status).not.toBe('fail');
    const conf = step(json, 'conformance');
    expect(conf?.status, JSON.stringify(conf?.items?.filter((i) => i.status !== 'pass'))).toBe('pass');
    expect(conf?.items?.length).toBe(CONFORMANCE_CHECKS.length);
    const tasks = step(json, 'tasks');
    expect(tasks?.items?.map((i) => `${i.name} ${i.status}`)).toEqual(VERIFY_TASKS.map((t) => `${t.id} pass`));
    expect(step(json, 'tree')?.status, step(json, 'tree')?.detail).toBe('pass');
    expect(json.tree?.foreground).toBe('com.android.settings');
    expect(json.tree?.matched).toBeGreaterThan(5);
    // The dark theme is off again, and the user's keyboard is back.
    expect(world.phone.world.settings.darkMode).toBe(false);
    expect(world.phone.getSetting('secure', 'default_input_method')).toBe(LATIN_IME);
    expect(files).not.toContain(world.bridge.token);
    expect(r.out).not.toContain(world.bridge.token);
    expect(files).toContain(world.serial);
  }, 600_000);

  it('with the helper installed and no model: uses it, skips the tasks and says why', async () => {
    const out = join(dir, 'second');
    const r = await verify(['--no-install', '--out', out], {
      OPENAI_BASE_URL: undefined,
      PHONE_AGENT_MODEL: undefined,
      OPENAI_API_KEY: undefined,
    });
    expect(r.code, r.out).toBe(0);
    const { json } = await report(out);
    expect(step(json, 'helper')?.detail).toMatch(/^the installed helper/);
    expect(step(json, 'tasks')).toMatchObject({
      status: 'skip',
      detail: expect.stringContaining('no model configured'),
    });
    expect(step(json, 'conformance')?.status).toBe('pass');
    expect(r.out).toMatch(/wrote .*verify\.json/);
  }, 600_000);
});
