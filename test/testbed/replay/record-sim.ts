import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WireSnapshot } from '../../../src/core/snapshot.js';
import type { VirtualPhone } from '../../../src/testbed/sim/phone.js';
import { type DroidbotStateOut, type DroidbotViewOut, droidbotStateOf } from '../../perception/droidbot-builder.js';

/**
 * A DroidBot run over the virtual phone, written as DroidBot writes one (new-style `utg.js`,
 * `states/state_<tag>.json` + `screen_<tag>.png`, `events/event_<tag>.json`): the project's own
 * recorded graph for the replay phone's tests (the real recorded graphs live in ../shared).
 */

export type RecordStep =
  | { touch: string; long?: boolean }
  | { set_text: string; text: string }
  | { scroll: string; direction: 'UP' | 'DOWN' }
  | { key: 'BACK' | 'HOME' }
  | { intent: string };

interface Event {
  tag: string;
  type: string;
  from: string;
  to: string;
  eventStr: string;
  body: Record<string, unknown>;
}

function tagAt(i: number): string {
  return `2024-01-01_12${String(Math.floor(i / 60)).padStart(2, '0')}${String(i % 60).padStart(2, '0')}`;
}

function find(state: DroidbotStateOut, label: string): DroidbotViewOut {
  const v =
    state.views.find((x) => x.visible && (x.text === label || x.content_description === label)) ??
    state.views.find((x) => x.visible && x.resource_id?.endsWith(`/${label}`));
  if (!v) throw new Error(`no view "${label}" on ${state.foreground_activity}`);
  return v;
}

const centre = (v: DroidbotViewOut) => ({
  x: Math.round((v.bounds[0][0] + v.bounds[1][0]) / 2),
  y: Math.round((v.bounds[0][1] + v.bounds[1][1]) / 2),
});

/** The clickable ancestor that handles a label's tap (what DroidBot's event targets). */
function handler(state: DroidbotStateOut, v: DroidbotViewOut): DroidbotViewOut {
  for (let at: DroidbotViewOut | undefined = v; at; at = state.views[at.parent])
    if (at.clickable || at.editable) return at;
  return v;
}

export async function recordSimRun(
  phone: VirtualPhone,
  dir: string,
  steps: readonly RecordStep[],
): Promise<{ states: string[]; events: number }> {
  await mkdir(path.join(dir, 'states'), { recursive: true });
  await mkdir(path.join(dir, 'events'), { recursive: true });
  const nodes = new Map<string, { state: DroidbotStateOut; tag: string }>();
  const events: Event[] = [];
  let clock = 0;
  const capture = async (): Promise<DroidbotStateOut> => {
    await phone.clock.sleep(1200);
    const snap: WireSnapshot = await phone.readTree();
    const tag = tagAt(clock++);
    const state = droidbotStateOf(snap, { tag });
    if (!nodes.has(state.state_str)) {
      nodes.set(state.state_str, { state, tag });
      await writeFile(path.join(dir, 'states', `state_${tag}.json`), JSON.stringify(state));
      await writeFile(path.join(dir, 'states', `screen_${tag}.png`), (await phone.screenshot()).png);
    }
    return (nodes.get(state.state_str) as { state: DroidbotStateOut }).state;
  };
  let cur = await capture();
  for (const step of steps) {
    const activity = cur.foreground_activity.split('/')[1] ?? '';
    let type: string;
    let eventStr: string;
    const body: Record<string, unknown> = {};
    if ('touch' in step || 'set_text' in step || 'scroll' in step) {
      const label = 'touch' in step ? step.touch : 'set_text' in step ? step.set_text : step.scroll;
      const v = handler(cur, find(cur, label));
      const c = centre(v);
      const short = `${activity}/${(v.class ?? '').split('.').pop()}-${(v.text ?? '').slice(0, 10)}`;
      Object.assign(body, { view: v, x: null, y: null });
      if ('touch' in step) {
        type = step.long ? 'long_touch' : 'touch';
        eventStr = `${step.long ? 'LongTouchEvent' : 'TouchEvent'}(state=${cur.state_str}, view=${v.view_str}(${short}))`;
        await phone.tap(c.x, c.y, step.long ? 800 : 60);
      } else if ('set_text' in step) {
        type = 'set_text';
        body.text = step.text;
        eventStr = `SetTextEvent(state=${cur.state_str}, view=${v.view_str}(${short}), text=${step.text})`;
        await phone.tap(c.x, c.y, 60);
        await phone.clock.sleep(500);
        await phone.imeCommit(step.text);
      } else {
        type = 'scroll';
        body.direction = step.direction;
        eventStr = `ScrollEvent(state=${cur.state_str}, view=${v.view_str}(${short}), direction=${step.direction})`;
        const h = v.bounds[1][1] - v.bounds[0][1];
        const d = step.direction === 'DOWN' ? -1 : 1;
        await phone.swipe(c.x, c.y - (d * h * 2) / 5, c.x, c.y + (d * h * 2) / 5, 500);
      }
    } else if ('key' in step) {
      type = 'key';
      body.name = step.key;
      eventStr = `KeyEvent(state=${cur.state_str}, name=${step.key})`;
      await phone.key(step.key === 'BACK' ? 'back' : 'home');
    } else {
      type = 'intent';
      body.intent = `am start ${step.intent}`;
      eventStr = `IntentEvent(intent='am start ${step.intent}')`;
      const [pkg = '', act] = step.intent.split('/');
      await phone.launch(pkg, act);
    }
    const from = cur.state_str;
    cur = await capture();
    events.push({ tag: tagAt(clock++), type, from, to: cur.state_str, eventStr, body });
  }
  for (const e of events)
    await writeFile(
      path.join(dir, 'events', `event_${e.tag}.json`),
      JSON.stringify({
        tag: e.tag,
        event: { event_type: e.type, log_lines: null, ...e.body },
        start_state: e.from,
        stop_state: e.to,
        event_str: e.eventStr,
      }),
    );
  const edges = new Map<string, { from: string; to: string; events: unknown[] }>();
  events.forEach((e, i) => {
    const id = `${e.from}-->${e.to}`;
    const edge = edges.get(id) ?? { from: e.from, to: e.to, events: [] };
    edge.events.push({ event_str: e.eventStr, event_id: i + 1, event_type: e.type, view_images: [] });
    edges.set(id, edge);
  });
  const list = [...nodes.values()];
  const utg = {
    nodes: list.map(({ state, tag }, i) => {
      const [pkg, act] = state.foreground_activity.split('/');
      return {
        id: state.state_str,
        shape: 'image',
        image: `states\\screen_${tag}.png`,
        label: `${act}${i === 0 ? '\n<FIRST>' : ''}`,
        package: pkg,
        activity: act,
        state_str: state.state_str,
      };
    }),
    edges: [...edges.entries()].map(([id, e]) => ({ id, ...e })),
    num_nodes: list.length,
    num_edges: edges.size,
    app_package: list[0]?.state.foreground_activity.split('/')[0],
    device_model_number: 'Pixel 7 (virtual)',
    device_sdk_version: 34,
  };
  await writeFile(path.join(dir, 'utg.js'), `var utg = \n${JSON.stringify(utg, null, 2)}`);
  return { states: list.map((n) => n.state.state_str), events: events.length };
}
