import { HELPER_IME, HELPER_PACKAGE, HELPER_SERVICE } from '../../../device/protocol/transport.js';
import type { World } from '../world.js';

/**
 * The phone's system services as adb reaches them: `settings get|put`, the file system for push/pull
 * (only /sdcard and /data/local/tmp are writable), and the input method manager.
 */

export const LATIN_IME = 'com.android.inputmethod.latin/.LatinIME';
export const AGENT_IME = 'com.phoneagent.ime/.AgentIme';

const WRITABLE = ['/sdcard/', '/data/local/tmp/'];
/** Directories that exist on every phone even when empty (the Files app lists them too). */
export const BASE_DIRS = [
  '/',
  '/sdcard',
  '/sdcard/Download',
  '/sdcard/DCIM',
  '/sdcard/Pictures',
  '/sdcard/Documents',
  '/data',
  '/data/local',
  '/data/local/tmp',
  '/storage',
  '/storage/emulated',
];

export function normalizePath(p: string): string {
  let s = p.trim().replace(/\/+/g, '/');
  if (s.startsWith('/storage/emulated/0')) s = `/sdcard${s.slice('/storage/emulated/0'.length)}`;
  if (s.startsWith('/storage/self/primary')) s = `/sdcard${s.slice('/storage/self/primary'.length)}`;
  if (s.length > 1 && s.endsWith('/')) s = s.slice(0, -1);
  return s || '/';
}

export class SystemServices {
  private readonly extra = new Map<string, string>([
    ['system/screen_off_timeout', '60000'],
    ['global/airplane_mode_on', '0'],
    ['secure/android_id', 'a1b2c3d4e5f60718'],
  ]);
  private readonly imeList = [
    { id: LATIN_IME, enabled: true },
    { id: AGENT_IME, enabled: false },
  ];
  private currentIme = LATIN_IME;
  /** Packages installed over adb (the helper, or inert apps that never run): package → label. */
  private readonly installed = new Map<string, string>();

  constructor(
    private readonly world: World,
    private readonly changed: () => void,
  ) {}

  getSetting(namespace: string, key: string): string | undefined {
    const s = this.world.settings;
    const k = `${namespace}/${key}`;
    switch (k) {
      case 'system/screen_brightness':
        return String(s.brightness);
      case 'global/wifi_on':
        return s.wifi ? '1' : '0';
      case 'global/bluetooth_on':
        return s.bluetooth ? '1' : '0';
      case 'secure/ui_night_mode':
        return s.darkMode ? '2' : '1';
      case 'secure/default_input_method':
        return this.currentIme;
      case 'secure/enabled_input_methods':
        return this.imeList
          .filter((i) => i.enabled)
          .map((i) => i.id)
          .join(':');
      default:
        return this.extra.get(k);
    }
  }

  putSetting(namespace: string, key: string, value: string): void {
    const s = this.world.settings;
    const k = `${namespace}/${key}`;
    const on = value.trim() === '1' || value.trim() === 'true';
    switch (k) {
      case 'system/screen_brightness': {
        const n = Number.parseInt(value, 10);
        if (Number.isFinite(n)) s.brightness = Math.min(255, Math.max(0, n));
        break;
      }
      case 'global/wifi_on':
        s.wifi = on;
        break;
      case 'global/bluetooth_on':
        s.bluetooth = on;
        break;
      case 'secure/ui_night_mode':
        s.darkMode = value.trim() === '2';
        break;
      case 'secure/default_input_method':
        this.setIme(value.trim());
        break;
      default:
        this.extra.set(k, value);
    }
    this.changed();
  }

  readFile(path: string): Buffer | undefined {
    return this.world.files.get(normalizePath(path));
  }

  writeFile(path: string, data: Buffer): void {
    const p = normalizePath(path);
    if (!WRITABLE.some((w) => p.startsWith(w))) {
      throw new Error(`${path}: Read-only file system (only /sdcard and /data/local/tmp are writable)`);
    }
    if (this.isDir(p)) throw new Error(`${path}: Is a directory`);
    this.world.files.set(p, Buffer.from(data));
    // Apps that show files (Files) redraw, as a MediaStore content observer makes them.
    this.changed();
  }

  removeFile(path: string): boolean {
    const p = normalizePath(path);
    if (!WRITABLE.some((w) => p.startsWith(w))) return false;
    const removed = this.world.files.delete(p);
    if (removed) this.changed();
    return removed;
  }

  isDir(path: string): boolean {
    const p = normalizePath(path);
    if (BASE_DIRS.includes(p)) return true;
    const prefix = `${p}/`;
    for (const f of this.world.files.keys()) if (f.startsWith(prefix)) return true;
    return false;
  }

  listDir(path: string): string[] | undefined {
    const p = normalizePath(path);
    if (!this.isDir(p)) return undefined;
    const prefix = p === '/' ? '/' : `${p}/`;
    const names = new Set<string>();
    for (const d of BASE_DIRS) if (d.startsWith(prefix) && d !== p) names.add(d.slice(prefix.length).split('/')[0]);
    for (const f of this.world.files.keys()) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]);
    return [...names].filter(Boolean).sort();
  }

  /** `pm install`: the helper brings its input method; any other APK is an inert package. */
  installPackage(pkg: string, label: string): void {
    this.installed.set(pkg, label);
    if (pkg === HELPER_PACKAGE && !this.imeList.some((i) => i.id === HELPER_IME))
      this.imeList.push({ id: HELPER_IME, enabled: false });
    this.changed();
  }

  /** `pm uninstall`: false for packages not installed over adb (built-in apps stay). */
  uninstallPackage(pkg: string): boolean {
    if (!this.installed.delete(pkg)) return false;
    const i = this.imeList.findIndex((x) => x.id.startsWith(`${pkg}/`));
    if (i >= 0) {
      if (this.currentIme === this.imeList[i]?.id) this.currentIme = LATIN_IME;
      this.imeList.splice(i, 1);
    }
    const services = this.extra.get('secure/enabled_accessibility_services');
    if (services !== undefined)
      this.extra.set(
        'secure/enabled_accessibility_services',
        services
          .split(':')
          .filter((c) => c && !c.startsWith(`${pkg}/`))
          .join(':'),
      );
    this.changed();
    return true;
  }

  installedPackages(): { package: string; label: string }[] {
    return [...this.installed].map(([p, label]) => ({ package: p, label }));
  }

  /** The helper's service runs once it is installed and listed in enabled_accessibility_services. */
  helperRunning(): boolean {
    const list = (this.extra.get('secure/enabled_accessibility_services') ?? '').split(':');
    return this.installed.has(HELPER_PACKAGE) && list.includes(HELPER_SERVICE);
  }

  imes(): { id: string; enabled: boolean; current: boolean }[] {
    return this.imeList.map((i) => ({ ...i, current: i.id === this.currentIme }));
  }

  current(): string {
    return this.currentIme;
  }

  setIme(id: string): boolean {
    const ime = this.imeList.find((i) => i.id === id);
    if (!ime?.enabled) return false;
    this.currentIme = id;
    this.changed();
    return true;
  }

  enableIme(id: string, enabled: boolean): boolean {
    const ime = this.imeList.find((i) => i.id === id);
    if (!ime) return false;
    ime.enabled = enabled;
    if (!enabled && this.currentIme === id) this.currentIme = LATIN_IME;
    if (!this.imeList.some((i) => i.enabled)) ime.enabled = true;
    this.changed();
    return true;
  }
}
