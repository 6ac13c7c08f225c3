import { z } from 'zod';
import type { Expect } from '../core/types.js';
import { reported, skillStep } from '../executor/skill-step.js';
import { FIELD } from '../planner/act-schema.js';
import { setSlider as drag, sliderReadings, sliderSummary } from './set-slider/drag.js';
import type { Tool } from './tool.js';
import { says } from './tool.js';

/**
 * The skill that sets a slider whose tree carries no value (plain ADB): it drags the thumb to a
 * percent of the track and reads back where it rests (tree or screenshot, ./set-slider/drag.ts).
 */
function expectation(): Expect {
  return { kind: 'screen_changes', note: 'set_slider reads where the thumb rests' };
}

export const setSlider: Tool = {
  name: 'set_slider',
  help: says('set_slider(target_id, value=0..100 % of the track) drags the thumb there, reads back where it rests'),
  fields: { value: FIELD.number },
  // Drags the thumb and reads it back: from the tree's range, else from the screenshot.
  needs: [['snapshot', 'screenshot', 'swipe']],
  offeredOn: (t) => t.slider,
  parse: (a) => {
    const v = typeof a.value === 'number' ? a.value : undefined;
    if (!a.target_id || v === undefined || v < 0 || v > 100)
      return { ok: false, error: 'set_slider needs target_id (the slider) and value=0..100 (percent of its track)' };
    return { ok: true, action: { args: { value: v } } };
  },
  fieldsOf: (a) => ({ value: typeof a.args?.value === 'number' ? a.args.value : undefined }),
  expectation,
  aim: (a, obs) => {
    const e = a.target_id ? obs.elements.find((x) => x.id === a.target_id) : undefined;
    if (e && (e.role === 'SeekBar' || e.range)) return { ok: true, element: e };
    return {
      ok: false,
      code: e ? 'INVALID_ARGUMENT' : 'NOT_FOUND',
      message: e
        ? `"${e.label || e.role}" [${e.id}] is not a slider; set_slider takes a line marked slide`
        : `no slider with id ${a.target_id ?? '(none)'} on this screen: give the id of a line marked slide`,
    };
  },
  // The value read back (tree or frame) is within the tolerance of the one asked.
  summary: sliderSummary,
  readings: sliderReadings,
  skill: (deps, a, obs, slider, d) =>
    skillStep(deps, obs, async () => {
      const r = await drag(
        { device: deps.device, perceive: deps.perceive },
        { slider, percent: Number(a.args?.value), obs },
        d,
      );
      return reported(r, sliderSummary(r.report) ?? `set_slider ${r.report.status}`, ['value_read_back']);
    }),
  mcpDirect: {
    title: 'Set a slider',
    description:
      "Set a slider (SeekBar) to a share of its track by dragging its thumb, then read back where it rests (the tree's value, else the screenshot); says plainly when the value cannot be read. Works on every device, plain adb included.",
    target: 'element',
    targetRequired: true,
    fields: { value: z.number().min(0).max(100).describe('percent of the track, 0..100') },
    destructive: false,
    checksItself: true,
    call: (args, at) => ({ action: { ...at.aimed, args: { value: args.value } }, expect: expectation() }),
  },
};
