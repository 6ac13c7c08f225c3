import { createHash } from 'node:crypto';
import type { Deadline } from '../core/clock.js';
import type { Selector } from '../core/types.js';
import { CallRecorder, type Device, type DeviceCall } from '../device/device.js';
import { findGuarded, guardForNode } from '../device/protocol/guard.js';
import type { ControlInfo, ReadControlRequest, WireNode, WireSnapshot } from '../device/protocol/index.js';
import { roleOf } from '../perception/roles.js';
import { readSliderInScreenshot } from '../perception/slider-frame.js';
import { nodeMatches } from './wait-reads.js';

/**
 * read_control from a plain screen read, for backends without the helper's native read (ADB). The
 * selector must match exactly one visible node. uiautomator exposes no native actions, so `actions`
 * is empty and nothing can be set natively through it; the token binds to what the read showed.
 * A slider's dump carries no progress: its value is read off a screenshot (a percent of the track,
 * `range_source: frame`), or the answer says plainly that it cannot be read (`value_unreadable`).
 */

/** What read_control answers from plain reads: the protocol's control, and where its value came from. */
export interface ReadControl extends ControlInfo {
  range_source?: 'tree' | 'frame';
  /** Why the control's value could not be read (a slider with no value in the tree nor a thumb in the picture). */
  value_unreadable?: string;
}

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

/** A slider's value from a screenshot of it: the tree has none. */
async function sliderValue(device: Device, node: WireNode, d: Deadline): Promise<Partial<ReadControl>> {
  const r = await device.snapshot({ screenshot: true }, d);
  if (!r.ok || !r.screenshot)
    return {
      value_unreadable: `no value in the tree, and no screenshot to read it from (${r.ok ? 'none taken' : r.message})`,
    };
  const now = findGuarded(r.snapshot, guardForNode(node));
  if (!now) return { value_unreadable: 'no value in the tree, and the slider moved before its screenshot was taken' };
  const read = await readSliderInScreenshot(r.screenshot.png, now.bounds, r.screenshot.offsetY);
  if (!read.ok) return { value_unreadable: `no value in the tree, and ${read.reason}` };
  const current = Math.round(read.reading.fraction * 100);
  return { range: { min: 0, max: 100, current }, range_source: 'frame' };
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
  const node = hits[0] as WireNode;
  const control: ReadControl = controlFromNode(node, r.snapshot);
  if (node.range) control.range_source = 'tree';
  else if (roleOf(node.className) === 'SeekBar') Object.assign(control, await sliderValue(device, node, d));
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
