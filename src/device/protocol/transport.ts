/**
 * Transport constants of the helper protocol (helper/PROTOCOL.md §1–2): where the on-device helper
 * listens and how requests authenticate.
 */

/** The on-device helper listens on the phone's loopback at this port; reach it with `adb forward`. */
export const HELPER_DEVICE_PORT = 7912;

/** v3 API: `authorization: Bearer <token>`. */
export function bearerHeader(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** The on-device helper app (helper/android): its package, service and input method components. */
export const HELPER_PACKAGE = 'dev.phoneagent.helper';
export const HELPER_SERVICE = `${HELPER_PACKAGE}/.HelperService`;
export const HELPER_IME = `${HELPER_PACKAGE}/.HelperIme`;
/**
 * The per-start token, in the app's private files (never logged): the host reads it with
 * `adb shell run-as dev.phoneagent.helper cat files/token` (the APK is debuggable for run-as).
 */
export const HELPER_TOKEN_FILE = 'files/token';
