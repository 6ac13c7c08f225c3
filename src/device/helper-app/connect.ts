import type { Logger } from '../../core/logger.js';
import { AdbCli } from './adb-cli.js';
import { HelperApp, type HelperEndpoint } from './helper-app.js';

/**
 * The helper of an adb serial for one run: found when it is installed, enabled, forwarded and
 * answering; the phone is then switched to the helper keyboard, and `release()` gives the previous
 * one back (a run that crashed leaves a record, restored at the next start).
 */

export interface HelperForRunOptions {
  serial: string;
  adbHost?: string;
  adbPort?: number;
  stateDir: string;
  logger: Logger;
}

export type HelperForRun =
  | { ok: true; endpoint: HelperEndpoint; release(): Promise<void> }
  | { ok: false; reason: string };

export async function helperForRun(o: HelperForRunOptions): Promise<HelperForRun> {
  const app = new HelperApp(new AdbCli({ serial: o.serial, host: o.adbHost, port: o.adbPort }), o.stateDir);
  const recovered = await app.recoverIme();
  if (recovered?.ok) o.logger.warn(`${recovered.detail} (left over from an agent that did not finish)`);
  const found = await app.discover();
  if (!found.ok) return found;
  const ime = await app.useIme();
  if (!ime.ok) o.logger.warn(ime.message);
  return {
    ok: true,
    endpoint: found.endpoint,
    release: async () => {
      const r = await app.restoreIme();
      if (!r.ok) o.logger.warn(r.message);
    },
  };
}
