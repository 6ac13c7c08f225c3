import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasTimeline } from '../../src/perception/timeline.js';
import { actArgsSchema, actJsonSchema, fieldNames, REQUIRED_FIELDS } from '../../src/planner/act-schema.js';
import { parseAct } from '../../src/planner/act-tool.js';
import { toStrictSchema } from '../../src/planner/llm/strict-schema.js';
import { systemPrompt } from '../../src/planner/prompt/builders.js';
import { toolsForScreen } from '../../src/planner/screen-tools.js';
import { MAPS_PACKAGE } from '../../src/testbed/sim/apps/maps.js';
import { RECORDINGS_PACKAGE } from '../../src/testbed/sim/apps/recordings.js';
import { SETTINGS_PACKAGE } from '../../src/testbed/sim/apps/settings.js';
import { SEQUENCE_EXAMPLE } from '../../src/tools/action-sequence.js';
import { REGISTRY } from '../../src/tools/index.js';
import { look, newPhone, open, type Perceived } from '../perception/phone.js';

/**
 * Tools are offered per screen (planner/screen-tools.ts) and the act schema is rendered from one
 * field table with its parser (planner/act-schema.ts): real screens of the virtual phone, the real
 * prompt builder, the real parser.
 */

const ALL = [...REGISTRY.catalog.keys()];

async function screen(pkg: string): Promise<Perceived> {
  const phone = newPhone();
  await open(phone, pkg);
  return look(phone, { screenshot: false });
}
const offer = (p: Perceived) =>
  toolsForScreen(p.observation, ALL, REGISTRY.catalog, { timeline: hasTimeline(p.observation) });
/** The member schema of `steps` in a compact act schema's properties. */
const member = (p: Record<string, unknown>) =>
  (p.steps as { items: { properties: Record<string, { enum?: string[] }>; required: string[] } }).items;

describe('tools per screen', () => {
  it('a list of settings rows: no fingers, no zoom, no control tools; scroll_to, since it is a list', async () => {
    const p = await screen(SETTINGS_PACKAGE);
    const tools = offer(p);
    for (const t of ['tap', 'swipe', 'back', 'home', 'launch_app', 'wait', 'done', 'note', 'read', 'scroll_to'])
      expect(tools).toContain(t);
    for (const t of [
      'pinch',
      'touch_gesture',
      'control_action',
      'read_control',
      'action_sequence',
      'wait_until',
      'seek_timeline',
    ])
      expect(tools).not.toContain(t);
    const system = systemPrompt(tools, REGISTRY.catalog);
    expect(system).not.toMatch(/frame_changes|pinch|touch_gesture|set_progress/);
  });

  it('the Display page has a slider: set_progress and read_control are offered there', async () => {
    const p = await screen(`${SETTINGS_PACKAGE}/.DisplaySettings`);
    expect(p.observation.elements.some((e) => e.range)).toBe(true);
    const tools = offer(p);
    expect(tools).toEqual(expect.arrayContaining(['control_action', 'read_control', 'action_sequence']));
    expect(tools).not.toContain('pinch');
    expect(systemPrompt(tools, REGISTRY.catalog)).toMatch(/set_progress takes the control's own range/);
  });

  it("a field: type, and control_action for ime_enter (a real keyboard's keys are not in the tree)", async () => {
    const p = await screen(`${SETTINGS_PACKAGE}/.SearchSettings`);
    expect(p.observation.elements.some((e) => e.flags.editable)).toBe(true);
    const tools = offer(p);
    expect(tools).toEqual(expect.arrayContaining(['type', 'control_action']));
    expect(systemPrompt(tools, REGISTRY.catalog)).toMatch(/op=[a-z_|]*ime_enter/);
    // With the screen's listing, control_action names only the ops its controls take: no slider here.
    const listed = systemPrompt(tools, REGISTRY.catalog, { screen: p.compact });
    expect(listed).toMatch(/op=[a-z_|]*ime_enter/);
    expect(listed).not.toMatch(/set_progress/);
    // A field's sequence is one call per op: action_sequence is for sliders and drawn screens.
    expect(tools).not.toContain('action_sequence');
  });

  it('a drawn map: pinch, touch_gesture and frame_changes are offered, and a pinch parses', async () => {
    const p = await screen(MAPS_PACKAGE);
    const tools = offer(p);
    expect(tools).toEqual(expect.arrayContaining(['pinch', 'touch_gesture']));
    expect(systemPrompt(tools, REGISTRY.catalog)).toMatch(/\| frame_changes \(screenshot only/);
    const map = p.observation.elements.find((e) => /Map|地图/.test(e.desc));
    expect(map).toBeDefined();
    const r = parseAct(
      { thought: 'zoom', tool: 'pinch', target_id: map?.id, scale: 2, expect: 'frame_changes' },
      { catalog: REGISTRY.catalog, tools: tools as never, ids: new Set(p.observation.elements.map((e) => e.id)) },
    );
    expect(r.ok).toBe(true);
  });

  it('a recording timeline: seek_timeline, and a drag by hand (touch_gesture) since it is drawn in pixels', async () => {
    const p = await screen(RECORDINGS_PACKAGE);
    const tools = offer(p);
    expect(tools).toEqual(expect.arrayContaining(['seek_timeline', 'touch_gesture', 'pinch']));
    // The seek's help says how to drag by hand, on this screen only.
    expect(systemPrompt(tools, REGISTRY.catalog)).toMatch(/seek_timeline\([^;]*; a drag by hand is a touch_gesture/);
  });

  it('a tool not offered on this screen is refused with the list of those that are', async () => {
    const p = await screen(SETTINGS_PACKAGE);
    const tools = offer(p);
    const r = parseAct(
      { thought: 'zoom', tool: 'pinch', point: { x: 500, y: 500 }, scale: 2, expect: 'frame_changes' },
      { catalog: REGISTRY.catalog, tools: tools as never, ids: new Set() },
    );
    expect(r.ok ? '' : r.error).toMatch(/available tools: tap, .*scroll_to/);
  });
});

describe('the act schema and its parser agree', () => {
  it('requires thought, tool and expect in the JSON schema, and the parser refuses an action without expect', () => {
    const schema = actJsonSchema(['tap', 'done'], REGISTRY.catalog);
    expect(schema.required).toEqual([...REQUIRED_FIELDS]);
    expect(schema.required).toContain('expect');
    const noExpect = parseAct(
      { thought: 't', tool: 'tap', point: { x: 1, y: 2 } },
      { catalog: REGISTRY.catalog, tools: ['tap'], ids: new Set() },
    );
    expect(noExpect.ok ? '' : noExpect.error).toMatch(/expect is missing/);
    // done, ask_user and infeasible take "-" (the prompt says so) and need nothing else.
    const done = parseAct(
      { thought: 't', tool: 'done', expect: '-' },
      { catalog: REGISTRY.catalog, tools: ['done'], ids: new Set() },
    );
    expect(done.ok).toBe(true);
  });

  it("is compact: no $schema, no descriptions, nested shapes once, only the offered tools' fields", () => {
    const schema = actJsonSchema(['tap', 'swipe', 'done'], REGISTRY.catalog);
    const text = JSON.stringify(schema);
    expect(text).not.toContain('$schema');
    expect(text).not.toContain('description');
    const props = schema.properties as Record<string, unknown>;
    for (const f of ['scale', 'frames', 'steps', 'op']) expect(props).not.toHaveProperty(f);
    const rich = actJsonSchema(['tap', 'touch_gesture', 'action_sequence', 'pinch'], REGISTRY.catalog);
    const richProps = rich.properties as Record<string, unknown>;
    expect(richProps.frames).toEqual({ type: 'array', items: { type: 'object' } });
    // A sequence's members are spelled out, field by field, as the act call's own fields.
    expect(Object.keys(member(richProps).properties)).toEqual([
      'tool',
      'target_id',
      'label',
      'state',
      'op',
      'value',
      'frames',
      'text',
    ]);
    expect(member(richProps).properties.tool?.enum).toEqual(['control_action', 'wait_until', 'touch_gesture']);
    expect(member(richProps).required).toEqual(['tool']);
    // Without gestures on the screen, no gesture member and no frames.
    const plain = member(
      actJsonSchema(['tap', 'action_sequence'], REGISTRY.catalog).properties as Record<string, unknown>,
    );
    expect(plain.properties.tool?.enum).toEqual(['control_action', 'wait_until']);
    expect(plain.properties).not.toHaveProperty('frames');
    expect(JSON.stringify(rich).match(/at_ms/g)).toBeNull();
    // Strict-mode providers get the nested shapes spelled out (frames, and frames inside steps).
    const full = JSON.stringify(
      actJsonSchema(['tap', 'touch_gesture', 'action_sequence'], REGISTRY.catalog, { full: true }),
    );
    expect(full).toContain('"at_ms"');
    expect(full).toContain('"points"');
  });

  it("the help's sequence example is a valid call on a slider screen, every member as the schema spells it", async () => {
    const p = await screen(`${SETTINGS_PACKAGE}/.DisplaySettings`);
    const tools = offer(p);
    expect(systemPrompt(tools, REGISTRY.catalog)).toContain(
      `action_sequence(steps) runs them in one go; a control_action step takes any op (click, set_text+text, set_progress+value): ${SEQUENCE_EXAMPLE}`,
    );
    const slider = p.observation.elements.find((e) => e.range);
    const steps = JSON.parse(SEQUENCE_EXAMPLE.replaceAll('…', slider?.id ?? '')) as Record<string, unknown>[];
    const members = member(actJsonSchema(tools, REGISTRY.catalog).properties as Record<string, unknown>).properties;
    for (const m of steps) for (const k of Object.keys(m)) expect(members).toHaveProperty(k);
    const r = parseAct(
      { thought: 'set and settle', tool: 'action_sequence', steps, expect: 'screen_changes' },
      { catalog: REGISTRY.catalog, tools: tools as never, ids: new Set(p.observation.elements.map((e) => e.id)) },
    );
    expect(r.ok ? r.value.decision.action.args : r.error).toEqual({
      actions: [
        { tool: 'control_action', target_id: slider?.id, args: { action: 'set_progress', value: 40 } },
        { tool: 'wait_until', args: { condition: 'stable' } },
      ],
    });
  });

  it('gives strict-mode providers a schema whose every object is closed and fully required', () => {
    const open = (n: unknown, at = '$'): string[] => {
      if (!n || typeof n !== 'object') return [];
      const o = n as { type?: string; properties?: object; required?: string[]; additionalProperties?: unknown };
      const keys = Object.keys(o.properties ?? {}).sort();
      const here =
        o.type === 'object' &&
        (!o.properties || o.additionalProperties !== false || keys.join() !== [...(o.required ?? [])].sort().join())
          ? [at]
          : [];
      return [...here, ...Object.entries(n).flatMap(([k, v]) => open(v, `${at}.${k}`))];
    };
    expect(open(toStrictSchema(actJsonSchema(ALL, REGISTRY.catalog, { full: true })))).toEqual([]);
    // The compact schema would not do for them: its frames and steps items are open objects.
    expect(open(toStrictSchema(actJsonSchema(ALL, REGISTRY.catalog))).length).toBeGreaterThan(0);
  });

  it('every field the JSON schema can list is a field the parser reads, and no other', () => {
    const parser = Object.keys(
      (z.toJSONSchema(actArgsSchema(ALL, REGISTRY.catalog)) as { properties: object }).properties,
    );
    expect(parser.sort()).toEqual(fieldNames(REGISTRY.catalog).sort());
    const sent = Object.keys(actJsonSchema(ALL, REGISTRY.catalog).properties as object);
    expect(sent.sort()).toEqual(fieldNames(REGISTRY.catalog).sort());
  });
});
