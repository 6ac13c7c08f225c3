import { SystemServices } from '../sim/engine/services.js';
import { createWorld } from '../sim/world-seed.js';

/**
 * What adb reaches besides the screen — `settings`, the sdcard for push/pull, packages installed
 * over adb (the helper app), input methods — as the virtual phone keeps them: a recording has none
 * of these, and the helper's install and its token over adb must still work on a replayed phone.
 */
export class ReplaySystem {
  private readonly services = new SystemServices(createWorld(1, []), () => {});

  protected installedApps(): { package: string; label: string; activities: string[] }[] {
    return this.services.installedPackages().map((p) => ({ ...p, activities: [] }));
  }
  installPackage(pkg: string, label: string): void {
    this.services.installPackage(pkg, label);
  }
  installedPackages(): string[] {
    return this.services.installedPackages().map((p) => p.package);
  }
  uninstallPackage(pkg: string): boolean {
    return this.services.uninstallPackage(pkg);
  }
  helperRunning(): boolean {
    return this.services.helperRunning();
  }
  getSetting(namespace: string, key: string): string | undefined {
    return this.services.getSetting(namespace, key);
  }
  putSetting(namespace: string, key: string, value: string): void {
    this.services.putSetting(namespace, key, value);
  }
  readFile(path: string): Buffer | undefined {
    return this.services.readFile(path);
  }
  writeFile(path: string, data: Buffer): void {
    this.services.writeFile(path, data);
  }
  listDir(path: string): string[] | undefined {
    return this.services.listDir(path);
  }
  imes(): { id: string; enabled: boolean; current: boolean }[] {
    return this.services.imes();
  }
  setIme(id: string): boolean {
    return this.services.setIme(id);
  }
  enableIme(id: string, enabled: boolean): boolean {
    return this.services.enableIme(id, enabled);
  }
}
