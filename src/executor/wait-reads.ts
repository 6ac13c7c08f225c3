import type { Deadline } from '../core/clock.js';
import type { Selector } from '../core/types.js';
import { CallRecorder, type Device, type DeviceCall } from '../device/device.js';
import type { WaitUntilRequest, WireNode, WireSnapshot } from '../device/protocol/index.js';
import { resourceIdMatches } from './native-args.js';
import { POLL } from './pacing.js';

/**
 * wait_until over plain screen reads, for backends without the helper's native wait (ADB): poll
 * every ~120 ms within the request's timeout (≤ 30 s). A read that fails or comes back empty never
 * proves that something disappeared; only reliable reads count, and `stable_ms` must hold across
 * consecutive reliable reads. Ambiguity is an immediate error, not a reason to wait.
 */

/** A selector on a node of a screen read (the adb backends' native tools); a resource id as listed or in full. */
export function nodeMatches(n: WireNode, s: Selector): boolean {
  if (s.resource_id !== undefined && !resourceIdMatches(n.resourceId, s.resource_id)) return false;
  if (s.text !== undefined && n.text !== s.text) return false;
  if (s.content_desc !== undefined && n.desc !== s.content_desc) return false;
  if (s.class_name !== undefined && n.className !== s.class_name) return false;
  if (s.package_name !== undefined && n.package !== s.package_name) return false;
  if (s.bounds !== undefined) {
    const b = n.bounds;
    if (
      b.left !== s.bounds.left ||
      b.top !== s.bounds.top ||
      b.right !== s.bounds.right ||
      b.bottom !== s.bounds.bottom
    )
      return false;
  }
  return true;
}

type Verdict = { holds: boolean; key: string } | { error: 'AMBIGUOUS'; message: string };

function judge(req: WaitUntilRequest, snap: WireSnapshot): Verdict {
  const hits = req.selector
    ? snap.nodes.filter((n) => n.flags.visible && nodeMatches(n, req.selector as Selector))
    : [];
  if (req.condition === 'appears') return { holds: hits.length > 0, key: String(hits.length) };
  if (req.condition === 'disappears') return { holds: hits.length === 0, key: String(hits.length) };
  if (req.condition === 'stable') {
    const scope = req.selector ? hits : snap.nodes;
    return {
      holds: true,
      key: JSON.stringify(scope.map((n) => [n.text, n.bounds, n.flags.checked, n.range?.current])),
    };
  }
  if (hits.length > 1)
    return { error: 'AMBIGUOUS', message: `${hits.length} controls match the selector; make it exact` };
  const n = hits[0];
  if (!n) return { holds: false, key: 'none' };
  const f = n.flags;
  const holds =
    req.condition === 'enabled'
      ? f.enabled
      : req.condition === 'disabled'
        ? !f.enabled
        : req.condition === 'checked'
          ? f.checked
          : req.condition === 'unchecked'
            ? !f.checked
            : req.condition === 'selected'
              ? f.selected
              : req.condition === 'text_equals'
                ? n.text === req.text
                : req.condition === 'value_equals'
                  ? n.range?.current === req.value
                  : false;
  return { holds, key: `${holds}` };
}

export async function waitOnReads(device: Device, req: WaitUntilRequest, d: Deadline): Promise<DeviceCall> {
  const rec = new CallRecorder(d.clock, device.capabilities().backend === 'bridge' ? 'bridge' : 'adb');
  const w = d.child(req.timeout_ms);
  const stableMs = req.stable_ms ?? (req.condition === 'stable' ? 500 : 0);
  let since: number | undefined;
  let lastKey: string | undefined;
  let lastError: string | undefined;
  let polls = 0;
  for (;;) {
    polls++;
    const r = await device.snapshot({}, w);
    if (!r.ok || r.snapshot.nodes.length === 0) {
      // Unreadable is not absent: forget any stability run and keep polling.
      lastError = r.ok ? 'the screen read came back empty' : `${r.code}: ${r.message}`;
      since = undefined;
    } else {
      const v = judge(req, r.snapshot);
      if ('error' in v) {
        const r = rec.refused(v.error, v.message);
        return { ...r, receipt: { ...r.receipt, method: 'none' } };
      }
      const holds = v.holds && (req.condition !== 'stable' || v.key === lastKey);
      if (holds) since ??= d.clock.now();
      else since = undefined;
      lastKey = v.key;
      if (since !== undefined && d.clock.now() - since >= stableMs) {
        const receipt = { ...rec.receipt('observed', 'not_delivered'), method: 'none' as const };
        return { ok: true, receipt };
      }
    }
    if (w.remaining() <= 0) break;
    await w.sleep(Math.min(POLL.intervalMs, w.remaining()));
  }
  const message = `wait_until ${req.condition} did not hold within ${req.timeout_ms} ms after ${polls} reads${lastError ? ` (last read error: ${lastError})` : ''}`;
  const r = rec.refused('TIMEOUT', message);
  return { ...r, receipt: { ...r.receipt, method: 'none' } };
}
