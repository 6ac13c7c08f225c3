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
