import { HELPER_DEVICE_PORT, HELPER_IME, HELPER_PACKAGE, HELPER_SERVICE } from '../../../device/protocol/transport.js';
import type { PhoneSurface } from '../surface.js';

/**
 * The virtual phone's stand-in for the helper app: once `pm install` has installed the helper APK and
 * `settings put secure enabled_accessibility_services` names its service, device port 7912 reaches
 * the phone's own bridge server and `run-as dev.phoneagent.helper cat files/token` prints its token,
 * as the real helper provides them.
 */

export interface HelperBinding {
  /** The bridge server's real loopback port. */
  bridgePort: number;
  token: string;
}

const bindings = new WeakMap<PhoneSurface, HelperBinding>();

export function bindHelperApp(phone: PhoneSurface, binding: HelperBinding): void {
  bindings.set(phone, binding);
}

export function helperBinding(phone: PhoneSurface): HelperBinding | undefined {
  return bindings.get(phone);
}

/** The real loopback port behind device port `port`, when it is the running helper's. */
export function helperTarget(phone: PhoneSurface, port: number): number | undefined {
  const b = bindings.get(phone);
  return b && port === HELPER_DEVICE_PORT && phone.helperRunning() ? b.bridgePort : undefined;
}

/** A phone on which the helper is already installed and enabled (what `phone-agent sim --adb-port` serves). */
export function preinstallHelper(phone: PhoneSurface): void {
  phone.installPackage(HELPER_PACKAGE, 'phone-agent helper');
  phone.putSetting('secure', 'enabled_accessibility_services', HELPER_SERVICE);
  phone.putSetting('secure', 'accessibility_enabled', '1');
  phone.enableIme(HELPER_IME, true);
}
