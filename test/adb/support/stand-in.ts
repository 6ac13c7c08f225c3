import sharp from 'sharp';
import { VirtualClock } from '../../../src/core/clock.js';
import type { KeyName } from '../../../src/core/types.js';
import type { WireSnapshot } from '../../../src/device/protocol/wire.js';
import type {
  DeviceInfo,
  Faults,
  InputResult,
  Latency,
  PhoneSurface,
  Screenshot,
  Stroke,
} from '../../../src/sim/surface.js';

/**
 * A tiny PhoneSurface used only until the VirtualPhone engine lands: it records what the shell
 * asked for so transport tests can check it.
 */
export class StandInPhone implements PhoneSurface {
  readonly clock = new VirtualClock();
  readonly info: DeviceInfo = {
    manufacturer: 'Google',
    model: 'Pixel 7',
    product: 'panther',
    device: 'panther',
    serial: 'SIM0001',
    androidVersion: '14',
    apiLevel: 34,
    helperVersion: '3.0.0',
  };
  readonly faults: Faults = {
    helperUnresponsive: false,
    helperDisconnected: false,
    slowTreeMs: 0,
    emptyTree: false,
    dropInput: false,
    dropShortTaps: false,
    cropStatusBar: false,
    overlay: false,
  };
  readonly latency: Latency = { treeRead: 0, uiautomatorDump: 0, screenshot: 0, helperInput: 0, shellInput: 0 };
  readonly log: string[] = [];
  readonly files = new Map<string, Buffer>();
  readonly settings = new Map<string, string>([['global/wifi_on', '1']]);
  fg = { package: 'com.android.launcher3', activity: '.Launcher' };
  typed = '';
  private png?: Buffer;
  private imeList = [
    { id: 'com.android.inputmethod.latin/.LatinIME', enabled: true, current: true },
    { id: 'com.phoneagent.ime/.AgentIme', enabled: false, current: false },
  ];

  screen() {
    return { width: 1080, height: 2400, rotation: 0, density: 420 };
  }
  async readTree(): Promise<WireSnapshot> {
    return {
      seq: 1,
      takenAt: this.clock.now(),
      screen: this.screen(),
      foreground: this.fg,
      keyboard: { shown: false },
      windows: [],
      nodes: [],
    };
  }
  async dumpXml(): Promise<string> {
    if (this.faults.emptyTree) throw new Error('null root node');
    return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node text="${this.fg.package}" /></hierarchy>`;
  }
  async screenshot(): Promise<Screenshot> {
    this.png ??= await sharp({ create: { width: 108, height: 240, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    return { png: this.png, width: 108, height: 240, offsetY: 0 };
  }
  private input(what: string): InputResult {
    if (!this.faults.dropInput) this.log.push(what);
    return { ok: true };
  }
  async gesture(strokes: Stroke[]) {
    return this.input(`gesture ${strokes.length}`);
  }
  async tap(x: number, y: number) {
    return this.input(`tap ${x} ${y}`);
  }
  async swipe(x1: number, y1: number, x2: number, y2: number, d: number) {
    return this.input(`swipe ${x1} ${y1} ${x2} ${y2} ${d}`);
  }
  async key(k: KeyName | 'delete' | 'search' | 'menu') {
    return this.input(`key ${k}`);
  }
  async inputText(text: string): Promise<InputResult> {
    if (!/^[\x00-\x7f]*$/.test(text)) return { ok: false, code: 'INVALID_ARGUMENT', message: 'non-ASCII text' };
    this.typed += text;
    return this.input(`text ${text}`);
  }
  async imeCommit(text: string) {
    this.typed += text;
    return this.input(`ime ${text}`);
  }
  async nodeAction() {
    return { ok: false as const, code: 'UNSUPPORTED' as const, message: 'stand-in' };
  }
  async launch(pkg: string, activity?: string): Promise<InputResult> {
    const p = this.packages().find((x) => x.package === pkg);
    if (!p) return { ok: false, code: 'NOT_FOUND', message: `no ${pkg}` };
    this.fg = { package: pkg, activity: activity ?? (p.activities[0] as string) };
    return this.input(`launch ${pkg}`);
  }
  async forceStop(pkg: string) {
    if (this.fg.package === pkg) this.fg = { package: 'com.android.launcher3', activity: '.Launcher' };
    return this.input(`stop ${pkg}`);
  }
  foreground() {
    return this.fg;
  }
  packages() {
    return [
      { package: 'com.android.launcher3', label: 'Launcher', activities: ['.Launcher'] },
      { package: 'com.android.settings', label: 'Settings', activities: ['.Settings', '.SubSettings'] },
      { package: 'com.foodshop', label: 'FoodShop', activities: ['.MenuActivity'] },
    ];
  }
  getSetting(ns: string, key: string) {
    return this.settings.get(`${ns}/${key}`);
  }
  putSetting(ns: string, key: string, value: string) {
    this.settings.set(`${ns}/${key}`, value);
  }
  readFile(path: string) {
    return this.files.get(path);
  }
  writeFile(path: string, data: Buffer) {
    this.files.set(path, data);
  }
  listDir(path: string) {
    const dir = path.endsWith('/') ? path : `${path}/`;
    if (path === '/sdcard' || path === '/sdcard/' || path === '/data/local/tmp') {
      return [...this.files.keys()].filter((k) => k.startsWith(dir)).map((k) => k.slice(dir.length));
    }
    return undefined;
  }
  imes() {
    return this.imeList.map((i) => ({ ...i }));
  }
  setIme(id: string) {
    if (!this.imeList.some((i) => i.id === id)) return false;
    for (const i of this.imeList) i.current = i.id === id;
    return true;
  }
  enableIme(id: string, enabled: boolean) {
    const i = this.imeList.find((x) => x.id === id);
    if (i) i.enabled = enabled;
    return Boolean(i);
  }
}
