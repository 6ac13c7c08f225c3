import { createHash } from 'node:crypto';
import type { Deadline } from '../core/clock.js';
import type { Selector } from '../core/types.js';
import { CallRecorder, type Device, type DeviceCall } from '../device/device.js';
import type { ControlInfo, ReadControlRequest, WireNode, WireSnapshot } from '../device/protocol/index.js';
import { nodeMatches } from './wait-reads.js';

/**
 * read_control from a plain screen read, for backends without the helper's native read (ADB). The
 * selector must match exactly one visible node. uiautomator exposes no native actions, so `actions`
 * is empty and nothing can be set natively through it; the token binds to what the read showed.
 */

export function controlFromNode(n: WireNode, snap: WireSnapshot): ControlInfo {
  const b = n.bounds;
  const token = createHash('sha1')
    .update(`${n.className}|${n.resourceId}|${n.text}|${n.desc}|${b.left},${b.top},${b.right},${b.bottom}`)
    .digest('hex')
    .slice(0, 12);
  return {
    node_id: n.id,
    seq: snap.seq,
    window: n.window,
    class_name: n.className,
    package_name: n.package,
    resource_id: n.resourceId,
    text: n.flags.password ? '' : n.text,
    content_desc: n.desc,
    hint: n.hint,
    bounds: b,
    visible_area: Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top),
    flags: {
      clickable: n.flags.clickable,
      long_clickable: n.flags.longClickable,
      editable: n.flags.editable,
      scrollable: n.flags.scrollable,
      checkable: n.flags.checkable,
      checked: n.flags.checked,
      enabled: n.flags.enabled,
      focused: n.flags.focused,
      selected: n.flags.selected,
      password: n.flags.password,
    },
    range: n.range,
    selection: n.selection,
    actions: n.actions,
    token,
  };
}

export async function readControlOnReads(device: Device, req: ReadControlRequest, d: Deadline): Promise<DeviceCall> {
  const rec = new CallRecorder(d.clock, device.capabilities().backend === 'bridge' ? 'bridge' : 'adb');
  const none = (code: 'NOT_FOUND' | 'AMBIGUOUS' | 'READ_FAILED', message: string): DeviceCall => {
    const r = rec.refused(code, message);
    return { ...r, receipt: { ...r.receipt, method: 'none' } };
  };
  const r = await device.snapshot({}, d);
  if (!r.ok || r.snapshot.nodes.length === 0)
    return none(
      'READ_FAILED',
      `the screen could not be read (${r.ok ? 'empty' : r.message}); a failed read says nothing about the control`,
    );
  const hits = r.snapshot.nodes.filter((n) => n.flags.visible && nodeMatches(n, req.selector as Selector));
  if (hits.length === 0)
    return none('NOT_FOUND', 'no visible control matches the selector; copy it exactly from the observation');
  if (hits.length > 1)
    return none('AMBIGUOUS', `${hits.length} controls match the selector; add resource_id, text or class_name`);
  const control = controlFromNode(hits[0] as WireNode, r.snapshot);
  const receipt = { ...rec.receipt('observed', 'not_delivered'), method: 'none' as const };
  return {
    ok: true,
    receipt,
    device: {
      op_id: 'local',
      action: 'read_control',
      status: 'observed',
      delivery: 'not_delivered',
      timings: {
        received_at: receipt.timings.startedAt,
        started_at: receipt.timings.startedAt,
        ended_at: receipt.timings.endedAt,
      },
      control,
    },
  };
}
