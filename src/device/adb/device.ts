import adbkit from '@devicefarmer/adbkit';
import { type Clock, Deadline } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { PxPoint } from '../../core/geometry.js';
import type { Logger } from '../../core/logger.js';
import type { KeyName } from '../../core/types.js';
import { parseUiautomatorXml } from '../../perception/parse-xml.js';
import {
  type AppsResult,
  CallRecorder,
  type CapturedScreenshot,
  type Device,
  type DeviceCall,
  type DeviceCapabilities,
  type DeviceHealth,
  type DeviceOp,
  type SnapshotResult,
  type TouchOptions,
  unsupported,
} from '../device.js';
import type { ActionRequest, WireScreen } from '../protocol/index.js';
import {
  extractDumpXml,
  IME_B64_ACTION,
  imeBroadcastArgv,
  inputTextArgv,
  KEYCODES,
  parseFocus,
  parseImeList,
  parseImeShown,
  parseWmSize,
  shellCommand,
} from './commands.js';
import { LAUNCHER_QUERY_ARGV, launcherApps, looksLikePackage, MONKEY_ABORTED, parseComponents } from './launcher.js';
import { LauncherNames } from './launcher-names.js';
import { treeToWire } from './tree.js';

type AdbClass = typeof import('@devicefarmer/adbkit').Adb;
/** Node's ESM loader gives the CommonJS exports object, vite's interop its default: accept both. */
const loaded = adbkit as unknown as AdbClass & { Adb?: AdbClass };
const Adb: AdbClass = loaded.Adb ?? loaded;
type AdbDeviceClient = ReturnType<ReturnType<typeof Adb.createClient>['getDevice']>;

/**
 * The ADB backend (adbkit against a real adb server): tree via `uiautomator dump`, `screencap -p`,
 * `input tap/swipe/keyevent`, `input text` for ASCII only, Unicode through the base64 IME broadcast
 * when that IME is installed (refused otherwise), launch via `monkey`/`am start`, focus from
 * `dumpsys window`, size from `wm size`. Everything is async I/O on adbkit's sockets.
 */

export interface AdbDeviceOptions {
  serial: string;
  host?: string;
  /** The adb server port (5037 by default). */
  port?: number;
  clock: Clock;
  logger: Logger;
  /** Upper bound of real time one shell call may take (deadlines may run on a virtual clock). */
  maxRealWaitMs?: number;
  /** IMEs that accept the `ADB_INPUT_B64` broadcast (default: ADBKeyboard and the agent's own IME). */
  base64Imes?: string[];
}

export const BASE64_IMES = ['com.android.adbkeyboard/.AdbIME', 'com.phoneagent.ime/.AgentIme'];

type Shell = { ok: true; out: string } | { ok: false; sent: boolean; timeout: boolean; message: string };

/** Whether a dump shows an app's window (its nodes carry the package): the focus read after it is still that screen. */
function dumpShowsPackage(xml: string, pkg: string): boolean {
  return xml.includes(`package="${pkg}"`);
}

const NOT_SENT = /not found|offline|unauthorized|ECONNREFUSED|no devices/i;
const SHELL_ERROR = /^(Error|Exception|java\.lang\.|Usage: input|\/system\/bin\/sh: .*not found)/m;

export class AdbDevice implements Device {
  readonly name = 'adb';
  private readonly dev: AdbDeviceClient;
  private screen: WireScreen = { width: 0, height: 0, rotation: 0, density: 420 };
  /** The base64 IME to type Unicode with: the current input method, or an installed one selected per typing. */
  private imeB64?: { id: string; current: boolean; enabled: boolean };
  private seq = 0;
  private connected = false;
  /** The launcher's labels, learned from its screens (launcher-names.ts). */
  private readonly names = new LauncherNames();

  constructor(private readonly opts: AdbDeviceOptions) {
    const client = Adb.createClient({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 5037 });
    this.dev = client.getDevice(opts.serial);
  }

  /** Reads the screen size and the installed IMEs; says what to fix when the device is not usable. */
  async connect(d: Deadline): Promise<{ ok: true } | { ok: false; message: string }> {
    const [size, ime, density, all, enabled] = await Promise.all([
      this.sh(['wm', 'size'], d),
      this.sh(['settings', 'get', 'secure', 'default_input_method'], d),
      this.sh(['wm', 'density'], d),
      this.sh(['ime', 'list', '-a', '-s'], d),
      this.sh(['ime', 'list', '-s'], d),
    ]);
    if (!size.ok)
      return {
        ok: false,
        message: `adb device ${this.opts.serial} did not answer: ${size.message}; check \`adb devices\``,
      };
    const wh = parseWmSize(size.out);
    if (!wh) return { ok: false, message: `could not read the screen size from \`wm size\`: ${size.out.slice(0, 80)}` };
    const dens = density.ok ? /(\d+)/.exec(density.out) : null;
    this.screen = { width: wh.width, height: wh.height, rotation: 0, density: dens ? Number(dens[1]) : 420 };
    // The broadcast only reaches a base64 IME while it is the current input method: one that is
    // installed but not current is selected for each Unicode typing and the user's keyboard given back.
    const current = ime.ok ? ime.out.trim() : '';
    const known = this.opts.base64Imes ?? BASE64_IMES;
    const installed = all.ok ? parseImeList(all.out) : [];
    const on = enabled.ok ? parseImeList(enabled.out) : [];
    const id = known.includes(current) ? current : known.find((k) => installed.includes(k));
    this.imeB64 = id ? { id, current: id === current, enabled: on.includes(id) || id === current } : undefined;
    this.connected = true;
    return { ok: true };
  }

  capabilities(): DeviceCapabilities {
    const ops = new Set<DeviceOp>([
      'snapshot',
      'screenshot',
      'tap',
      'long_press',
      'swipe',
      'key',
      'input_text',
      'launch_app',
      'list_apps',
    ]);
    if (this.imeB64) ops.add('ime_commit');
    const ime = this.imeB64;
    return {
      backend: 'adb',
      ops: this.connected ? ops : new Set(),
      screen: this.screen,
      unicodeText: !!ime,
      detail: ime
        ? `adb ${this.opts.serial}, base64 IME ${ime.current ? 'current' : `${ime.id} selected for typing`}`
        : `adb ${this.opts.serial}, ASCII text only (no base64 IME)`,
    };
  }

  async health(d: Deadline): Promise<DeviceHealth> {
    const r = await this.sh(['echo', 'ok'], d);
    return { ok: r.ok, backend: 'adb', failover: false, detail: r.ok ? `adb ${this.opts.serial}` : r.message };
  }

  /** One shell command; the stream is destroyed when the deadline (or the real-time cap) passes. */
  private async sh(argv: string[], d: Deadline, onSent?: () => void): Promise<Shell> {
    if (d.aborted) return { ok: false, sent: false, timeout: true, message: 'cancelled before the command was sent' };
    if (d.expired())
      return { ok: false, sent: false, timeout: true, message: 'deadline passed before the command was sent' };
    const cmd = shellCommand(argv);
    let stream: { destroy(): void } | undefined;
    let sent = false;
    let timer: NodeJS.Timeout | undefined;
    const work = (async (): Promise<Shell> => {
      const s = await this.dev.shell(cmd);
      stream = s;
      sent = true;
      onSent?.();
      const buf = await Adb.util.readAll(s);
      return { ok: true, out: buf.toString('utf8').replace(/\r\n/g, '\n') };
    })();
    const cap = Math.max(1, Math.min(d.remaining(), this.opts.maxRealWaitMs ?? 20_000));
    let onCancel: (() => void) | undefined;
    const expire = new Promise<Shell>((resolve) => {
      const end = (why: string) => {
        stream?.destroy();
        resolve({ ok: false, sent, timeout: true, message: `\`${argv[0]}\` ${why}` });
      };
      timer = setTimeout(() => end('did not finish before the deadline'), cap);
      // A cancelled run ends the command at once.
      onCancel = () => end('was cancelled');
      d.signal?.addEventListener('abort', onCancel, { once: true });
    });
    try {
      return await Promise.race([work, expire]);
    } catch (e) {
      const m = errorMessage(e);
      return { ok: false, sent: sent || !NOT_SENT.test(m), timeout: false, message: m };
    } finally {
      clearTimeout(timer);
      if (onCancel) d.signal?.removeEventListener('abort', onCancel);
    }
  }

  async snapshot(opts: { screenshot?: boolean }, d: Deadline): Promise<SnapshotResult> {
    const t0 = this.opts.clock.now();
    const fail = (code: 'UNAVAILABLE' | 'READ_FAILED' | 'TIMEOUT', message: string): SnapshotResult => ({
      ok: false,
      code,
      message,
      backend: 'adb',
      failover: false,
    });
    // The picture must show the screen the dump describes (the model reads both as one screen).
    // uiautomator waits for the UI to go idle before it dumps, so the screencap is taken after the
    // dump, never beside it (beside it, it caught the previous page mid-transition), with the
    // focus read at the moment of the picture; a focus that is not the dump's app means the screen
    // moved in between: dump and picture are taken again.
    let read = await this.readPair(opts, d);
    for (let i = 0; read.ok && read.moved && i < 2; i++) read = await this.readPair(opts, d);
    if (!read.ok) return fail(read.code, read.message);
    const { xml, focus, ime, shot } = read;
    const parsed = parseUiautomatorXml(xml ?? read.out, {
      screen: { w: this.screen.width, h: this.screen.height },
      foreground: focus,
      seq: this.seq + 1,
      takenAt: this.opts.clock.now(),
    });
    if (!parsed.ok) return fail('READ_FAILED', parsed.message);
    this.seq++;
    const snapshot = treeToWire(parsed.tree, {
      seq: this.seq,
      takenAt: this.opts.clock.now(),
      density: this.screen.density,
      foreground: focus,
      keyboardShown: ime.ok ? parseImeShown(ime.out) : undefined,
    });
    this.names.read(snapshot);
    if (parsed.tree.emptyReason)
      this.opts.logger.warn('uiautomator returned an empty tree', { reason: parsed.tree.emptyReason });
    return {
      ok: true,
      snapshot,
      screenshot: shot ?? undefined,
      backend: 'adb',
      failover: false,
      tookMs: this.opts.clock.now() - t0,
    };
  }

  /** One dump with the reads that go with it; with a screenshot, the picture right after the dump. */
  private async readPair(
    opts: { screenshot?: boolean },
    d: Deadline,
  ): Promise<
    | {
        ok: true;
        xml?: string;
        out: string;
        focus?: { package: string; activity: string };
        ime: Shell;
        shot?: CapturedScreenshot;
        moved: boolean;
      }
    | { ok: false; code: 'UNAVAILABLE' | 'TIMEOUT'; message: string }
  > {
    const window = () => this.sh(['dumpsys', 'window'], d);
    const [dump, ime, win0] = await Promise.all([
      this.sh(['uiautomator', 'dump', '/dev/tty'], d),
      this.sh(['dumpsys', 'input_method'], d),
      opts.screenshot ? Promise.resolve(undefined) : window(),
    ]);
    if (!dump.ok)
      return {
        ok: false,
        code: dump.timeout ? 'TIMEOUT' : 'UNAVAILABLE',
        message: `uiautomator dump: ${dump.message}`,
      };
    let xml = extractDumpXml(dump.out);
    if (!xml && !/null root node|could not get idle/i.test(dump.out)) {
      // Some builds refuse /dev/tty: dump to a file and read it back.
      const file = '/sdcard/window_dump.xml';
      const again = await this.sh(['uiautomator', 'dump', file], d);
      const cat = again.ok ? await this.sh(['cat', file], d) : again;
      if (cat.ok) xml = extractDumpXml(cat.out);
    }
    const [win, shot] = opts.screenshot ? await Promise.all([window(), this.screencap(d)]) : [win0 as Shell, undefined];
    const focus = win.ok ? parseFocus(win.out) : undefined;
    const moved = !!shot && !!focus && !!xml && !dumpShowsPackage(xml, focus.package);
    return { ok: true, xml, out: dump.out, focus, ime, shot, moved };
  }

  private async screencap(
    d: Deadline,
  ): Promise<{ png: Buffer; width: number; height: number; offsetY: number } | undefined> {
    try {
      const s = await this.dev.screencap();
      const png = await Adb.util.readAll(s);
      if (d.expired() || d.aborted || png.length < 24 || png.readUInt32BE(12) !== 0x49484452) return undefined;
      const width = png.readUInt32BE(16);
      const height = png.readUInt32BE(20);
      // A capture shorter than the screen lacks the status bar at the top.
      const offsetY = width === this.screen.width && height < this.screen.height ? this.screen.height - height : 0;
      return { png, width, height, offsetY };
    } catch (e) {
      this.opts.logger.warn('screencap failed', { error: errorMessage(e) });
      return undefined;
    }
  }

  /** Run an input command with delivery semantics: refused before sending, unknown after. */
  private async input(op: string, argv: string[], d: Deadline, injectedPx?: PxPoint): Promise<DeviceCall> {
    const rec = new CallRecorder(this.opts.clock, 'adb');
    const r = await this.sh(argv, d, () => rec.markDispatched());
    if (!r.ok) {
      if (r.timeout) return d.aborted ? rec.cancelled(op) : rec.timeout(op);
      return r.sent
        ? rec.failed('UNAVAILABLE', `${op}: ${r.message}`, 'unknown')
        : rec.refusedAfterAttempt('UNAVAILABLE', `${op}: ${r.message}`);
    }
    if (SHELL_ERROR.test(r.out.trim()))
      return rec.failed('INTERNAL', `${op}: ${r.out.trim().split('\n')[0]}`, 'unknown');
    return rec.ok({ injectedPx });
  }

  /** `input swipe x y x y ms`: a tap whose contact time we choose (`input tap` is ~0 ms, which some ROMs drop). */
  /** `input` touches blindly: a guard cannot be checked on the phone, so a guarded touch is refused (the executor re-checks by a read). */
  private unguarded(o: TouchOptions, op: string): DeviceCall | undefined {
    return o.guard
      ? unsupported(this.opts.clock, 'adb', op, 'adb cannot check a touch guard on the phone; re-check with a snapshot')
      : undefined;
  }

  async tap(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    const refused = this.unguarded(o, 'tap');
    if (refused) return refused;
    const x = String(Math.round(p.x));
    const y = String(Math.round(p.y));
    this.names.tapped(p);
    return this.input('tap', ['input', 'swipe', x, y, x, y, String(Math.round(o.durationMs))], d, p);
  }
  async longPress(p: PxPoint, o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    const refused = this.unguarded(o, 'long_press');
    if (refused) return refused;
    const x = String(Math.round(p.x));
    const y = String(Math.round(p.y));
    return this.input('long_press', ['input', 'swipe', x, y, x, y, String(Math.round(o.durationMs))], d, p);
  }
  /** `input swipe` is a straight line between the ends; the curve cannot be expressed here. */
  async swipe(path: PxPoint[], o: TouchOptions, d: Deadline): Promise<DeviceCall> {
    const refused = this.unguarded(o, 'swipe');
    if (refused) return refused;
    const a = path[0];
    const b = path[path.length - 1];
    if (!a || !b)
      return new CallRecorder(this.opts.clock, 'adb').refused('INVALID_ARGUMENT', 'a swipe needs two points');
    const n = (v: number) => String(Math.round(v));
    return this.input('swipe', ['input', 'swipe', n(a.x), n(a.y), n(b.x), n(b.y), n(o.durationMs)], d, a);
  }
  key(k: KeyName | 'delete' | 'search' | 'menu', d: Deadline): Promise<DeviceCall> {
    return this.input('key', ['input', 'keyevent', KEYCODES[k] ?? 'KEYCODE_UNKNOWN'], d);
  }
  async setText(): Promise<DeviceCall> {
    return unsupported(
      this.opts.clock,
      'adb',
      'set_text',
      "uiautomator cannot set a node's text; use the IME commit or ASCII input",
    );
  }
  async imeCommit(text: string, d: Deadline): Promise<DeviceCall> {
    const ime = this.imeB64;
    if (!ime)
      return unsupported(
        this.opts.clock,
        'adb',
        'ime_commit',
        `no base64 IME (${IME_B64_ACTION}) is installed; install ADBKeyboard (com.android.adbkeyboard), or type the text yourself`,
      );
    if (ime.current) return this.input('ime_commit', imeBroadcastArgv(text), d);
    return this.withIme(ime, () => this.input('ime_commit', imeBroadcastArgv(text), d), d);
  }

  /**
   * Run `fn` with the base64 IME selected, then give the user's keyboard back (and disable the IME
   * again if it was off). The keyboard window changes under the focused field for that moment only.
   */
  private async withIme(
    ime: { id: string; enabled: boolean },
    fn: () => Promise<DeviceCall>,
    d: Deadline,
  ): Promise<DeviceCall> {
    const rec = new CallRecorder(this.opts.clock, 'adb');
    const before = await this.sh(['settings', 'get', 'secure', 'default_input_method'], d);
    if (!before.ok)
      return before.timeout ? rec.timeout('ime_commit') : rec.refused('UNAVAILABLE', `ime_commit: ${before.message}`);
    const previous = before.out.trim();
    if (!ime.enabled) await this.sh(['ime', 'enable', ime.id], d);
    const set = await this.sh(['ime', 'set', ime.id], d);
    if (!set.ok || !/selected/i.test(set.out))
      return rec.refused(
        'UNSUPPORTED',
        `ime_commit: could not select ${ime.id} (${set.ok ? set.out.trim() : set.message}); nothing was typed`,
      );
    try {
      return await fn();
    } finally {
      // Given back even when the deadline has passed: the user's keyboard matters more than the budget.
      const back = Deadline.after(this.opts.clock, 5_000);
      if (previous && previous !== ime.id) await this.sh(['ime', 'set', previous], back);
      if (!ime.enabled) await this.sh(['ime', 'disable', ime.id], back);
    }
  }
  async inputText(text: string, d: Deadline): Promise<DeviceCall> {
    const argv = inputTextArgv(text);
    if (!argv)
      return new CallRecorder(this.opts.clock, 'adb').refused(
        'UNSUPPORTED',
        '`input text` types printable ASCII only; this text needs set_text or the IME commit (nothing was typed)',
      );
    return this.input('input_text', argv, d);
  }
  async launchApp(t: { package?: string; label?: string; activity?: string }, d: Deadline): Promise<DeviceCall> {
    const rec = new CallRecorder(this.opts.clock, 'adb');
    const named = t.package && looksLikePackage(t.package) ? undefined : (t.label ?? t.package)?.trim();
    let pkg = named ? undefined : t.package;
    if (named) {
      // A label: the launcher's apps from the package manager, matched by their own words.
      const q = await this.sh(LAUNCHER_QUERY_ARGV, d);
      if (!q.ok) return q.timeout ? rec.timeout('launch_app') : rec.refused('UNAVAILABLE', `launch_app: ${q.message}`);
      const m = this.names.resolve(named, parseComponents(q.out));
      if (!m.ok) return rec.refused('NOT_FOUND', m.message);
      pkg = m.component.package;
    }
    if (!pkg) return rec.refused('INVALID_ARGUMENT', "launch_app needs the app's name or package");
    const argv = t.activity
      ? ['am', 'start', '-n', `${pkg}/${t.activity}`]
      : ['monkey', '-p', pkg, '-c', 'android.intent.category.LAUNCHER', '1'];
    const r = await this.sh(argv, d, () => rec.markDispatched());
    if (!r.ok) {
      if (r.timeout) return rec.timeout('launch_app');
      return r.sent
        ? rec.failed('UNAVAILABLE', `launch_app: ${r.message}`, 'unknown')
        : rec.refusedAfterAttempt('UNAVAILABLE', `launch_app: ${r.message}`);
    }
    // monkey exits 252 with this line when the package has no launcher activity: nothing started.
    if (MONKEY_ABORTED.test(r.out))
      return rec.failed(
        'NOT_FOUND',
        `launch_app: ${pkg} has no launcher activity (monkey aborted); check the package name`,
        'not_delivered',
      );
    if (SHELL_ERROR.test(r.out.trim()))
      return rec.failed('INTERNAL', `launch_app: ${r.out.trim().split('\n')[0]}`, 'unknown');
    return rec.ok();
  }
  /**
   * The launcher list `launchApp` matches labels against, each named by the launcher's label when a
   * launcher screen read here showed one that resolves to it, else by a package word it accepts
   * (app-label.ts); `labels` is `package` while any name is package words.
   */
  async listApps(d: Deadline): Promise<AppsResult> {
    const q = await this.sh(LAUNCHER_QUERY_ARGV, d);
    if (!q.ok)
      return {
        ok: false,
        code: q.timeout ? 'TIMEOUT' : 'UNAVAILABLE',
        message: `list_apps: ${q.message}`,
        backend: 'adb',
        failover: false,
      };
    const all = parseComponents(q.out);
    let words = false;
    const apps = launcherApps(q.out).map((a) => {
      const seen = this.names.labelOf(a, all);
      if (!seen) words = true;
      return seen ? { ...a, label: seen } : a;
    });
    return { ok: true, apps, labels: words ? 'package' : 'launcher', backend: 'adb', failover: false };
  }
  async native(req: ActionRequest): Promise<DeviceCall> {
    return unsupported(this.opts.clock, 'adb', req.action, 'native control actions need the helper app');
  }
  async close(): Promise<void> {}
}
