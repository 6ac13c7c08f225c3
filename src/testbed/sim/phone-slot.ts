import type { Clock } from '../../core/clock.js';
import type { KeyName } from '../../core/types.js';
import type { WireScreen, WireSnapshot } from '../../device/protocol/wire.js';
import type { NodeQuery } from './node-query.js';
import type { VirtualPhone } from './phone.js';
import type {
  DeviceInfo,
  Faults,
  InputResult,
  Latency,
  NodeAction,
  PhoneSurface,
  Screenshot,
  Stroke,
  TouchCheck,
} from './surface.js';

/**
 * One virtual phone's place behind long-lived servers (a bridge, an ADB transport): the phone in it
 * is replaced between tasks — a factory reset to the next task's seed and locale — while the servers,
 * and the serial an adb server knows the phone by, stay. Every call goes to the phone in the slot
 * at the moment of the call, so a server never keeps the previous world.
 */
export class PhoneSlot implements PhoneSurface {
  constructor(private current: VirtualPhone) {}

  /** The phone in the slot now (its world is for the checker, never for the agent). */
  get phone(): VirtualPhone {
    return this.current;
  }

  /** Put a new phone in the slot; the next call any server makes reaches it. */
  replace(phone: VirtualPhone): void {
    this.current = phone;
  }

  get clock(): Clock {
    return this.current.clock;
  }
  get info(): DeviceInfo {
    return this.current.info;
  }
  get faults(): Faults {
    return this.current.faults;
  }
  get latency(): Latency {
    return this.current.latency;
  }
  screen(): WireScreen {
    return this.current.screen();
  }
  readTree(): Promise<WireSnapshot> {
    return this.current.readTree();
  }
  queryNodes(q: NodeQuery): Promise<WireSnapshot> {
    return this.current.queryNodes(q);
  }
  dumpXml(): Promise<string> {
    return this.current.dumpXml();
  }
  screenshot(): Promise<Screenshot> {
    return this.current.screenshot();
  }
  gesture(strokes: Stroke[], guard?: TouchCheck): Promise<InputResult> {
    return this.current.gesture(strokes, guard);
  }
  tap(x: number, y: number, durationMs?: number, guard?: TouchCheck): Promise<InputResult> {
    return this.current.tap(x, y, durationMs, guard);
  }
  swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number, guard?: TouchCheck): Promise<InputResult> {
    return this.current.swipe(x1, y1, x2, y2, durationMs, guard);
  }
  key(key: KeyName | 'delete' | 'search' | 'menu'): Promise<InputResult> {
    return this.current.key(key);
  }
  inputText(text: string): Promise<InputResult> {
    return this.current.inputText(text);
  }
  imeCommit(text: string): Promise<InputResult> {
    return this.current.imeCommit(text);
  }
  nodeAction(seq: number, nodeId: number, action: NodeAction): Promise<InputResult> {
    return this.current.nodeAction(seq, nodeId, action);
  }
  launch(packageOrLabel: string, activity?: string): Promise<InputResult> {
    return this.current.launch(packageOrLabel, activity);
  }
  forceStop(pkg: string): Promise<InputResult> {
    return this.current.forceStop(pkg);
  }
  foreground(): { package: string; activity: string } {
    return this.current.foreground();
  }
  packages(): { package: string; label: string; activities: string[] }[] {
    return this.current.packages();
  }
  installPackage(pkg: string, label: string): void {
    this.current.installPackage(pkg, label);
  }
  installedPackages(): string[] {
    return this.current.installedPackages();
  }
  uninstallPackage(pkg: string): boolean {
    return this.current.uninstallPackage(pkg);
  }
  helperRunning(): boolean {
    return this.current.helperRunning();
  }
  getSetting(namespace: string, key: string): string | undefined {
    return this.current.getSetting(namespace, key);
  }
  putSetting(namespace: string, key: string, value: string): void {
    this.current.putSetting(namespace, key, value);
  }
  readFile(path: string): Buffer | undefined {
    return this.current.readFile(path);
  }
  writeFile(path: string, data: Buffer): void {
    this.current.writeFile(path, data);
  }
  listDir(path: string): string[] | undefined {
    return this.current.listDir(path);
  }
  imes(): { id: string; enabled: boolean; current: boolean }[] {
    return this.current.imes();
  }
  setIme(id: string): boolean {
    return this.current.setIme(id);
  }
  enableIme(id: string, enabled: boolean): boolean {
    return this.current.enableIme(id, enabled);
  }
}
