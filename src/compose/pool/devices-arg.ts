import { ActionableError } from '../../core/errors.js';

/**
 * `--devices` (suite, MCP): a comma-separated list of what the pool holds —
 *   `sim:N`      N virtual phones in this process, each behind its own helper bridge server;
 *   `sim-adb:N`  N virtual phones served over their ADB transport and driven as plain serials (no
 *                helper) through a private adb server the pool starts;
 *   `stf[:N]`    devices reserved from an STF farm (all free ones that match the filters, or at most N);
 *   `http(s)://…` helper bridges (one `--token` for all); anything else is an adb serial.
 * Entries mix: `sim:2,emulator-5554`.
 */

export type PoolEntry =
  | { kind: 'sim'; count: number }
  | { kind: 'sim-adb'; count: number }
  | { kind: 'stf'; max?: number }
  | { kind: 'bridge'; url: string }
  | { kind: 'adb'; serial: string };

export const DEVICES_HELP =
  'sim:N (virtual phones, bridge) | sim-adb:N (virtual phones as plain adb serials) | stf[:N] (an STF farm) | SERIAL,… | URL,… — comma-separated, mixed';

const MAX_SIMS = 16;

function count(entry: string, digits: string | undefined): number {
  const n = Number(digits);
  if (!Number.isInteger(n) || n < 1 || n > MAX_SIMS)
    throw new ActionableError(
      'USAGE',
      `--devices entry "${entry}" needs a count from 1 to ${MAX_SIMS}`,
      'e.g. --devices sim:4 or --devices sim-adb:2',
    );
  return n;
}

export function parseDevices(value: string): PoolEntry[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new ActionableError('USAGE', '--devices is empty', `pass one or more of: ${DEVICES_HELP}`);
  const entries: PoolEntry[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const sim = /^(sim|sim-adb):(.*)$/.exec(item);
    const stf = /^stf(?::(.*))?$/.exec(item);
    let entry: PoolEntry;
    if (sim) entry = { kind: sim[1] === 'sim' ? 'sim' : 'sim-adb', count: count(item, sim[2]) };
    else if (stf) entry = stf[1] === undefined ? { kind: 'stf' } : { kind: 'stf', max: count(item, stf[1]) };
    else if (item === 'sim' || item === 'sim-adb') entry = { kind: item, count: 1 };
    else if (/^https?:\/\//.test(item)) {
      try {
        new URL(item);
      } catch {
        throw new ActionableError('USAGE', `--devices entry "${item}" is not a URL`, 'e.g. http://127.0.0.1:7912');
      }
      entry = { kind: 'bridge', url: item };
    } else if (/^[\w.:@-]+$/.test(item)) entry = { kind: 'adb', serial: item };
    else
      throw new ActionableError(
        'USAGE',
        `--devices entry "${item.slice(0, 40)}" is not a device`,
        `pass one or more of: ${DEVICES_HELP}`,
      );
    const key = entry.kind === 'bridge' ? entry.url : entry.kind === 'adb' ? entry.serial : entry.kind;
    if (seen.has(key))
      throw new ActionableError(
        'USAGE',
        `--devices names ${key} twice`,
        entry.kind === 'sim' || entry.kind === 'sim-adb' ? `write one ${entry.kind}:N` : 'name each device once',
      );
    seen.add(key);
    entries.push(entry);
  }
  return entries;
}
