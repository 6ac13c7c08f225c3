import {
  bearerHeader,
  HELPER_DEVICE_PORT,
  HELPER_IME,
  HELPER_PACKAGE,
  HELPER_SERVICE,
  HELPER_TOKEN_FILE,
} from '../protocol/transport.js';
import { type Hello, HelloSchema } from '../protocol/wire.js';
import type { AdbCli } from './adb-cli.js';
import { alive, clearImeRecord, readImeRecord, writeImeRecord } from './ime-state.js';

/**
 * The helper app on one phone, driven over adb: install, enable its accessibility service and input
 * method, forward its port, read its token (run-as, never logged), check it answers, switch the
 * keyboard for a run and give the previous one back. Every step's failure says what to do next.
 */

export type Step = { ok: true; detail: string } | { ok: false; message: string };

export interface HelperEndpoint {
  url: string;
  token: string;
  hello: Hello;
}

const ok = (detail: string): Step => ({ ok: true, detail });
const bad = (message: string): Step => ({ ok: false, message });

export class HelperApp {
  constructor(
    readonly adb: AdbCli,
    private readonly stateDir: string,
  ) {}

  get serial(): string {
    return this.adb.target.serial;
  }

  async installed(): Promise<boolean> {
    const r = await this.adb.shell(['pm', 'list', 'packages', HELPER_PACKAGE]);
    return r.stdout.split('\n').some((l) => l.trim() === `package:${HELPER_PACKAGE}`);
  }

  async install(apk: string): Promise<Step> {
    const r = await this.adb.run(['install', '-r', apk], 180_000);
    if (r.code === 0 && /Success/.test(r.stdout)) return ok(`installed ${HELPER_PACKAGE}`);
    return bad(`adb install ${apk} failed: ${(r.stdout + r.stderr).trim().slice(-300)}`);
  }

  async uninstallPackage(): Promise<Step> {
    const r = await this.adb.run(['uninstall', HELPER_PACKAGE]);
    return /Success/.test(r.stdout) ? ok('uninstalled') : bad(`adb uninstall failed: ${(r.stdout + r.stderr).trim()}`);
  }

  private async services(): Promise<string[]> {
    const r = await this.adb.shell(['settings', 'get', 'secure', 'enabled_accessibility_services']);
    const v = r.stdout.trim();
    return v === '' || v === 'null' ? [] : v.split(':').filter(Boolean);
  }

  async serviceEnabled(): Promise<boolean> {
    return (await this.services()).includes(HELPER_SERVICE);
  }

  /** Add the helper's service to the enabled ones, keeping the user's other services. */
  async enableService(): Promise<Step> {
    const list = await this.services();
    if (!list.includes(HELPER_SERVICE)) list.push(HELPER_SERVICE);
    const put = await this.adb.shell(['settings', 'put', 'secure', 'enabled_accessibility_services', list.join(':')]);
    await this.adb.shell(['settings', 'put', 'secure', 'accessibility_enabled', '1']);
    return put.code === 0
      ? ok('accessibility service enabled')
      : bad(
          `settings put secure enabled_accessibility_services failed: ${put.stderr.trim()}; enable "phone-agent helper" in Settings → Accessibility`,
        );
  }

  async disableService(): Promise<void> {
    const list = (await this.services()).filter((c) => c !== HELPER_SERVICE);
    await this.adb.shell(['settings', 'put', 'secure', 'enabled_accessibility_services', list.join(':')]);
  }

  async enableIme(): Promise<Step> {
    const r = await this.adb.shell(['ime', 'enable', HELPER_IME]);
    return r.code === 0
      ? ok('input method enabled')
      : bad(`ime enable ${HELPER_IME} failed: ${(r.stdout + r.stderr).trim()}`);
  }

  async disableIme(): Promise<void> {
    await this.adb.shell(['ime', 'disable', HELPER_IME]);
  }

  async currentIme(): Promise<string> {
    return (await this.adb.shell(['settings', 'get', 'secure', 'default_input_method'])).stdout.trim();
  }

  /** `adb forward tcp:0 tcp:7912` (or the forward that already exists): the host's URL of the helper. */
  async forward(): Promise<{ ok: true; url: string } | { ok: false; message: string }> {
    const list = await this.adb.run(['forward', '--list']);
    for (const line of list.stdout.split('\n')) {
      const m = /^(\S+) tcp:(\d+) tcp:(\d+)$/.exec(line.trim());
      if (m && m[1] === this.serial && Number(m[3]) === HELPER_DEVICE_PORT)
        return { ok: true, url: `http://127.0.0.1:${m[2]}` };
    }
    const r = await this.adb.run(['forward', 'tcp:0', `tcp:${HELPER_DEVICE_PORT}`]);
    const port = /^(\d+)\s*$/.exec(r.stdout.trim())?.[1];
    if (r.code !== 0 || !port)
      return { ok: false, message: `adb forward tcp:0 tcp:${HELPER_DEVICE_PORT} failed: ${r.stderr.trim()}` };
    return { ok: true, url: `http://127.0.0.1:${port}` };
  }

  async removeForward(): Promise<void> {
    const list = await this.adb.run(['forward', '--list']);
    for (const line of list.stdout.split('\n')) {
      const m = /^(\S+) (tcp:\d+) tcp:(\d+)$/.exec(line.trim());
      if (m?.[2] && m[1] === this.serial && Number(m[3]) === HELPER_DEVICE_PORT)
        await this.adb.run(['forward', '--remove', m[2]]);
    }
  }

  /** The token from the app's private files; it goes into memory only, never into a message or log. */
  async readToken(): Promise<{ ok: true; token: string } | { ok: false; message: string }> {
    const r = await this.adb.shell(['run-as', HELPER_PACKAGE, 'cat', HELPER_TOKEN_FILE]);
    const token = r.stdout.trim();
    if (r.code === 0 && /^[0-9a-f]{32,128}$/.test(token)) return { ok: true, token };
    const why = r.stderr.trim() || 'no token';
    return {
      ok: false,
      message: `cannot read the helper's token (${why}); is its accessibility service on? run \`phone-agent helper status\``,
    };
  }

  async hello(
    url: string,
    token: string,
    timeoutMs = 5_000,
  ): Promise<{ ok: true; hello: Hello } | { ok: false; message: string }> {
    try {
      const res = await fetch(`${url}/v3/hello`, {
        method: 'POST',
        headers: { ...bearerHeader(token), 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.status !== 200) return { ok: false, message: `the helper at ${url} answered HTTP ${res.status}` };
      const hello = HelloSchema.safeParse(await res.json());
      return hello.success
        ? { ok: true, hello: hello.data }
        : { ok: false, message: `the helper at ${url} sent a malformed hello` };
    } catch (e) {
      return {
        ok: false,
        message: `the helper at ${url} did not answer: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
  }

  /** Switch to the helper's keyboard for a run, recording the previous one first (phone-agent restores it). */
  async useIme(): Promise<Step> {
    await this.recoverIme();
    const current = await this.currentIme();
    if (current === HELPER_IME) return ok('the helper keyboard is already current');
    await writeImeRecord(this.stateDir, {
      serial: this.serial,
      previous: current,
      pid: process.pid,
      at: new Date().toISOString(),
    });
    const r = await this.adb.shell(['ime', 'set', HELPER_IME]);
    if (r.code !== 0) {
      await clearImeRecord(this.stateDir, this.serial);
      return bad(`ime set ${HELPER_IME} failed: ${(r.stdout + r.stderr).trim()}`);
    }
    return ok(`keyboard switched from ${current}`);
  }

  /** Give back the keyboard recorded before the switch (no record: nothing to do). */
  async restoreIme(): Promise<Step> {
    const rec = await readImeRecord(this.stateDir, this.serial);
    if (!rec) return ok('no keyboard to restore');
    const r = await this.adb.shell(['ime', 'set', rec.previous]);
    await clearImeRecord(this.stateDir, this.serial);
    return r.code === 0
      ? ok(`keyboard restored to ${rec.previous}`)
      : bad(`ime set ${rec.previous} failed: ${(r.stdout + r.stderr).trim()}`);
  }

  /** After a crash: a record left by a process that is gone → restore its keyboard now. */
  async recoverIme(): Promise<Step | undefined> {
    const rec = await readImeRecord(this.stateDir, this.serial);
    if (!rec || (rec.pid !== process.pid && alive(rec.pid))) return undefined;
    return this.restoreIme();
  }

  /** The service writes its token when Android binds it: give it a few seconds. */
  async tokenWhenReady(tries = 20, gapMs = 250): Promise<{ ok: true; token: string } | { ok: false; message: string }> {
    let last: { ok: true; token: string } | { ok: false; message: string } = { ok: false, message: 'not tried' };
    for (let i = 0; i < tries; i++) {
      last = await this.readToken();
      if (last.ok) return last;
      await new Promise((r) => setTimeout(r, gapMs));
    }
    return last;
  }

  /**
   * `helper install`: the APK installed, its accessibility service and keyboard enabled, its port
   * forwarded, its token read and its hello answered. `say` gets one line per step done; the first
   * step that fails ends it with what to do.
   */
  async setUp(
    apk: string,
    say: (line: string) => void,
  ): Promise<{ ok: true; endpoint: HelperEndpoint } | { ok: false; message: string }> {
    for (const step of [() => this.install(apk), () => this.enableService(), () => this.enableIme()]) {
      const r = await step();
      if (!r.ok) return r;
      say(r.detail);
    }
    const fwd = await this.forward();
    if (!fwd.ok) return fwd;
    say(`forwarded ${fwd.url} → device tcp:${HELPER_DEVICE_PORT}`);
    const token = await this.tokenWhenReady();
    if (!token.ok) return token;
    const hello = await this.hello(fwd.url, token.token);
    if (!hello.ok) return hello;
    return { ok: true, endpoint: { url: fwd.url, token: token.token, hello: hello.hello } };
  }

  /** The endpoint when the helper is installed, enabled, forwarded and answering; else why not. */
  async discover(): Promise<{ ok: true; endpoint: HelperEndpoint } | { ok: false; reason: string }> {
    if (!(await this.installed()))
      return { ok: false, reason: `the helper app is not installed on ${this.serial} (phone-agent helper install)` };
    if (!(await this.serviceEnabled()))
      return {
        ok: false,
        reason: `the helper's accessibility service is off on ${this.serial} (phone-agent helper install)`,
      };
    const fwd = await this.forward();
    if (!fwd.ok) return { ok: false, reason: fwd.message };
    const token = await this.readToken();
    if (!token.ok) return { ok: false, reason: token.message };
    const hello = await this.hello(fwd.url, token.token);
    if (!hello.ok) return { ok: false, reason: hello.message };
    return { ok: true, endpoint: { url: fwd.url, token: token.token, hello: hello.hello } };
  }
}

/** The helper of `serial` over adb, when it is healthy: `{url, token}`, or the reason it cannot be used. */
export async function discoverHelper(
  adb: AdbCli,
  stateDir: string,
): Promise<{ ok: true; endpoint: HelperEndpoint } | { ok: false; reason: string }> {
  return new HelperApp(adb, stateDir).discover();
}
