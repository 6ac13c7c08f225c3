import type { World } from '../src/testbed/sim/world.js';

/**
 * Which top-level parts of the virtual phone's world a run changed (AndroidWorld's integrity check:
 * a task may touch only the objects it is about). The world holds Maps and Buffers, so each key is
 * reduced to a canonical string that compares by content.
 */

export type WorldDigest = Record<string, string>;

function canonical(value: unknown): unknown {
  if (value instanceof Map)
    return {
      $map: [...value.entries()]
        .map(([k, v]) => [String(k), canonical(v)] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    };
  if (value instanceof Set)
    return {
      $set: [...value]
        .map(canonical)
        .map((v) => JSON.stringify(v))
        .sort(),
    };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export function digestWorld(world: World): WorldDigest {
  const d: WorldDigest = {};
  for (const [k, v] of Object.entries(world)) d[k] = JSON.stringify(canonical(v)) ?? 'undefined';
  return d;
}

/** Keys whose content differs between two digests (including keys added or removed). */
export function changedKeys(before: WorldDigest, after: WorldDigest): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).sort();
}
