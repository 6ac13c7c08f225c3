import { z } from 'zod';
import type { Action, Element, Expect } from '../core/types.js';
import { parseExpect } from '../planner/expect-dsl.js';
import { back } from '../tools/back.js';
import { home } from '../tools/home.js';
import { launchApp } from '../tools/launch-app.js';
import { longPress } from '../tools/long-press.js';
import { setSlider } from '../tools/set-slider.js';
import { swipe } from '../tools/swipe.js';
import { tap } from '../tools/tap.js';
import { type as typeTool } from '../tools/type.js';
import { act } from './act.js';
import { type Controls, ControlsShape, shape } from './controls.js';
import { type ResolvedOk, resolveOrFail } from './resolve-call.js';
import { TargetShape } from './targets.js';
import { runs, type ToolCall, type ToolDef, type ToolOutput, toolError } from './tool.js';

/**
 * The input tools (tap, long_press, type_text, swipe, press_key, launch_app): each names its
 * target, turns into a planner-level Action with a default expectation (or the client's own, in
 * the planner's one-line form) and goes through `act` — the project's executor under the call's
 * interaction controls, guardrails included.
 */

const ExpectShape = {
  expect: z
    .string()
    .optional()
    .describe(
      'what the action should do, checked in light and full mode: page_changes | screen_changes | element_gone <id> | text_appears <text> | element_state <id> <on|off|filled|empty|text=S> | keyboard_shown | app_foreground <pkg> | no_change',
    ),
  confirmation_id: z
    .string()
    .optional()
    .describe('from a needs_confirmation result, only after your user agreed to this exact action'),
};

/** What a tap on this element should do, when the client does not say. */
function defaultTapExpect(e: Element | undefined): Expect {
  if (e?.flags.checkable) return { kind: 'element_state', target_id: e.id, state: e.flags.checked ? 'off' : 'on' };
  if (e?.flags.editable) return { kind: 'keyboard_shown' };
  return { kind: 'screen_changes' };
}

export function expectOf(line: unknown, fallback: Expect): Expect | string {
  if (typeof line !== 'string' || !line.trim()) return fallback;
  const p = parseExpect(line);
  return p.ok ? p.value : p.error;
}

export interface ActionSpec {
  tool: string;
  action: Action;
  expect: Expect;
  dispatchDefaultMs?: number;
  readOnly?: boolean;
}

/** Resolve, build and run: the shared tail of every action tool. */
export async function runAction(
  args: Record<string, unknown>,
  call: ToolCall,
  build: (r: ResolvedOk) => ActionSpec | ToolOutput,
  opts: { targetRequired?: boolean; targetKeys?: string[] } = {},
): Promise<ToolOutput> {
  const keys = opts.targetKeys;
  const targetArgs = keys ? Object.fromEntries(Object.entries(args).filter(([k]) => keys.includes(k))) : args;
  const r = await resolveOrFail(call.session, targetArgs, { required: opts.targetRequired ?? false });
  if (!('ok' in r)) return r;
  const spec = build(r);
  if ('result' in spec) return spec;
  const expect = expectOf(args.expect, spec.expect);
  if (typeof expect === 'string') return toolError('INVALID_ARGUMENT', expect);
  const controls = args as Controls;
  const res = await act(call.session, {
    tool: spec.tool,
    action: spec.action,
    expect,
    base: r.base,
    element: r.element,
    controls,
    consent: { ...call.consent, confirmationId: args.confirmation_id as string | undefined },
    dispatchDefaultMs: spec.dispatchDefaultMs,
    readOnly: spec.readOnly,
    fresh: r.fresh,
  });
  const out = shape(res, controls.responseMode ?? 'debug');
  return {
    result: out as unknown as Record<string, unknown>,
    isError: !res.success && res.lifecycle_state !== 'needs_confirmation',
  };
}

const aimed = (r: ResolvedOk): Pick<Action, 'target_id' | 'point'> =>
  r.target_id ? { target_id: r.target_id } : r.point ? { point: r.point } : {};

const ACTION = { readOnly: false, usesDevice: true } as const;

export const directTools: ToolDef[] = [
  {
    ...ACTION,
    name: tap.name,
    offered: runs(tap.name),
    title: 'Tap',
    description:
      'Tap an element (element_id from observe, or an exact selector resolved now) or a point. A tap on Pay/Send/Delete asks the user first (elicitation) or returns needs_confirmation.',
    shape: { ...TargetShape, ...ControlsShape, ...ExpectShape },
    destructive: true,
    run: (args, call) =>
      runAction(
        args,
        call,
        (r) => ({ tool: tap.name, action: { tool: tap.name, ...aimed(r) }, expect: defaultTapExpect(r.element) }),
        { targetRequired: true },
      ),
  },
  {
    ...ACTION,
    name: longPress.name,
    offered: runs(longPress.name),
    title: 'Long press',
    description: 'Long-press an element or a point (same targets as tap); ms sets the hold (default ~600 ms).',
    shape: { ...TargetShape, ms: z.number().int().min(300).max(10_000).optional(), ...ControlsShape, ...ExpectShape },
    destructive: true,
    run: (args, call) =>
      runAction(
        args,
        call,
        (r) => ({
          tool: longPress.name,
          action: { tool: longPress.name, ...aimed(r), ...(typeof args.ms === 'number' ? { ms: args.ms } : {}) },
          expect: { kind: 'screen_changes' },
        }),
        { targetRequired: true },
      ),
  },
  {
    ...ACTION,
    name: 'type_text',
    offered: runs(typeTool.name),
    title: 'Type text',
    description:
      'Type text into a field (element_id or selector; default: the focused field). Any Unicode: set on the node, else IME commit; read back to verify. Pre-filled text is replaced.',
    shape: {
      element_id: TargetShape.element_id,
      selector: TargetShape.selector,
      text: z.string().max(4096),
      ...ControlsShape,
      ...ExpectShape,
    },
    destructive: false,
    run: (args, call) =>
      runAction(args, call, (r) => {
        const field = r.element ?? r.base.obs.elements.find((e) => e.flags.editable && e.flags.focused);
        if (!field || !field.flags.editable)
          return toolError(
            'NOT_EDITABLE',
            field
              ? `element ${field.id} is not an editable field`
              : 'no field is focused: pass the element_id or selector of the field',
          );
        const text = String(args.text);
        return {
          tool: 'type_text',
          action: { tool: typeTool.name, target_id: field.id, text },
          expect: field.flags.password
            ? { kind: 'screen_changes' }
            : { kind: 'element_state', target_id: field.id, state: `text=${text}` },
        };
      }),
  },
  {
    ...ACTION,
    name: swipe.name,
    offered: runs(swipe.name),
    title: 'Swipe',
    description:
      'Swipe up/down/left/right (a third of the screen), from an element or point if given, else the centre.',
    shape: { direction: z.enum(['up', 'down', 'left', 'right']), ...TargetShape, ...ControlsShape, ...ExpectShape },
    destructive: false,
    run: (args, call) =>
      runAction(args, call, (r) => ({
        tool: swipe.name,
        action: { tool: swipe.name, direction: args.direction as Action['direction'], ...aimed(r) },
        expect: { kind: 'screen_changes' },
      })),
  },
  {
    ...ACTION,
    name: setSlider.name,
    offered: runs(setSlider.name),
    title: 'Set a slider',
    description:
      "Set a slider (SeekBar) to a share of its track by dragging its thumb, then read back where it rests (the tree's value, else the screenshot); says plainly when the value cannot be read. Works on every device, plain adb included.",
    shape: {
      element_id: TargetShape.element_id,
      selector: TargetShape.selector,
      value: z.number().min(0).max(100).describe('percent of the track, 0..100'),
      ...ControlsShape,
      confirmation_id: ExpectShape.confirmation_id,
    },
    destructive: false,
    run: (args, call) =>
      runAction(
        args,
        call,
        (r) => ({
          tool: setSlider.name,
          action: { tool: setSlider.name, ...aimed(r), args: { value: args.value } },
          expect: { kind: 'screen_changes', note: 'set_slider reads where the thumb rests' },
        }),
        { targetRequired: true },
      ),
  },
  {
    ...ACTION,
    name: 'press_key',
    offered: runs(back.name),
    title: 'Press a key',
    description: 'Press back or home.',
    shape: { key: z.enum(['back', 'home']), ...ControlsShape, ...ExpectShape },
    destructive: false,
    run: (args, call) =>
      runAction(args, call, () => {
        // The key names the tool it presses (the enum above lists exactly the two).
        const key = args.key === 'home' ? home : back;
        return { tool: 'press_key', action: { tool: key.name }, expect: { kind: 'screen_changes' } };
      }),
  },
  {
    ...ACTION,
    name: launchApp.name,
    offered: runs(launchApp.name),
    title: 'Launch an app',
    description:
      'Open an app by its package (com.android.settings) or its label as the launcher shows it (Settings, 设置). A label the device cannot resolve by itself (adb reads no labels) is found on the home screen or in the app drawer and tapped.',
    shape: { package: z.string().optional(), label: z.string().optional(), ...ControlsShape, ...ExpectShape },
    destructive: false,
    run: (args, call) =>
      runAction(args, call, () => {
        const pkg = typeof args.package === 'string' ? args.package : undefined;
        const label = typeof args.label === 'string' ? args.label : undefined;
        if (!pkg === !label) return toolError('INVALID_ARGUMENT', 'give exactly one of package or label');
        // The planner's own shape (a name in `package`): one launch_app, whoever calls it.
        const name = (pkg ?? label ?? '').trim();
        return {
          tool: launchApp.name,
          action: { tool: launchApp.name, package: name },
          expect: { kind: 'app_foreground', package: name },
          dispatchDefaultMs: 10_000,
        };
      }),
  },
];
