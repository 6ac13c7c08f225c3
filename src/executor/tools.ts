import type { ToolName } from '../core/types.js';
import type { DeviceCapabilities, DeviceOp } from '../device/device.js';

/**
 * Which planner tools the connected device can perform (DESIGN §3: tools are offered only when the
 * device declares the capability). Calling one that is not offered is an UNSUPPORTED error.
 */

const NEEDS: Record<ToolName, DeviceOp[][]> = {
  tap: [['tap']],
  long_press: [['long_press']],
  swipe: [['swipe']],
  type: [['set_text'], ['ime_commit'], ['input_text']],
  back: [['key']],
  home: [['key']],
  launch_app: [['launch_app']],
  wait: [[]],
  done: [[]],
  ask_user: [[]],
  infeasible: [[]],
  read_control: [['read_control'], ['snapshot']],
  control_action: [['control_action', 'read_control']],
  // Without the helper's native wait, the executor waits on plain reads.
  wait_until: [['wait_until'], ['snapshot']],
  scroll_to: [['scroll_to'], ['snapshot', 'swipe']],
  pinch: [['pinch']],
  touch_gesture: [['touch_gesture']],
  action_sequence: [['action_sequence']],
  // Drags and reads; it zooms too when the device can pinch.
  seek_timeline: [['snapshot', 'swipe', 'tap']],
  // Drags the thumb and reads it back: from the tree's range, else from the screenshot.
  set_slider: [['snapshot', 'screenshot', 'swipe']],
};

export function offeredTools(caps: DeviceCapabilities): ToolName[] {
  return (Object.keys(NEEDS) as ToolName[]).filter((t) => NEEDS[t].some((all) => all.every((op) => caps.ops.has(op))));
}

export function isOffered(tool: ToolName, caps: DeviceCapabilities): boolean {
  return NEEDS[tool].some((all) => all.every((op) => caps.ops.has(op)));
}
