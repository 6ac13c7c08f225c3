import adbkit from '@devicefarmer/adbkit';

type AdbClass = typeof import('@devicefarmer/adbkit').Adb;

/**
 * Node's ESM loader hands a CommonJS default import the whole `module.exports` (`{ Adb, … }`),
 * while vite's interop (vitest) hands over `exports.default` (the Adb class itself). Accept both.
 */
const loaded = adbkit as unknown as AdbClass & { Adb?: AdbClass };
export const Adb: AdbClass = loaded.Adb ?? loaded;
