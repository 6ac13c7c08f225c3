import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Element } from '../core/types.js';
import { type AppMap, KNOWLEDGE_FILE, type Knowledge, type MapPage, type MapTransition } from './app-map.js';

/**
 * An app map as DroidBot writes its output folder, so the replay phone (testbed/replay/load-graph.ts)
 * and DroidBot's own viewer read it: `utg.js` (`var utg = {nodes, edges}`, the first page labelled
 * `<FIRST>`), `states/state_<tag>.json` (the page's views, each with the `view_str` its events
 * name) and `states/screen_<tag>.png`; beside them the compact knowledge file.
 */

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** DroidBot's state_str and view_str are md5 hashes; ours are of the page hash (and element id). */
const stateStr = (page: string) => md5(`page|${page}`);
const viewStr = (page: string, element: string) => md5(`view|${page}|${element}`);

const tagOf = (i: number) => `page_${String(i + 1).padStart(3, '0')}`;

function viewOf(page: MapPage, e: Element, tempId: number, parent: number) {
  const b = e.boundsPx;
  return {
    temp_id: tempId,
    parent,
    children: [] as number[],
    class: e.className || e.role,
    package: page.package,
    resource_id: e.resourceId || null,
    text: e.text || null,
    content_description: e.desc || null,
    bounds: [
      [Math.round(b.left), Math.round(b.top)],
      [Math.round(b.right), Math.round(b.bottom)],
    ],
    clickable: e.flags.clickable || (e.actionable && !e.flags.scrollable && !e.flags.editable),
    long_clickable: e.flags.longClickable,
    editable: e.flags.editable,
    scrollable: e.flags.scrollable,
    checkable: e.flags.checkable,
    checked: e.flags.checked,
    enabled: e.flags.enabled,
    focusable: e.flags.editable || e.flags.clickable,
    focused: e.flags.focused,
    selected: e.flags.selected,
    is_password: e.flags.password,
    visible: true,
    view_str: viewStr(page.id, e.id),
  };
}

/**
 * The page's state file: a root covering the screen; each element under its actionable ancestor
 * (a row's labels under the row, so the replay's perception labels the row as this one did), else
 * under the root.
 */
export function droidbotStateOf(page: MapPage, tag: string) {
  const tempOf = new Map(page.elements.map((e, i) => [e.id, i + 1]));
  const views = page.elements.map((e, i) =>
    viewOf(page, e, i + 1, (e.actionableAncestorId && tempOf.get(e.actionableAncestorId)) || 0),
  );
  for (const v of views) if (v.parent > 0) views[v.parent - 1]?.children.push(v.temp_id);
  const root = {
    temp_id: 0,
    parent: -1,
    children: views.filter((v) => v.parent === 0).map((v) => v.temp_id),
    class: 'android.widget.FrameLayout',
    package: page.package,
    resource_id: null,
    text: null,
    content_description: null,
    bounds: [
      [0, 0],
      [page.screen.w, page.screen.h],
    ],
    clickable: false,
    enabled: true,
    visible: true,
    view_str: md5(`root|${page.id}`),
  };
  return {
    tag,
    state_str: stateStr(page.id),
    foreground_activity: `${page.package}/${page.activity}`,
    width: page.screen.w,
    height: page.screen.h,
    views: [root, ...views],
  };
}

const shortName = (s: string) => s.split('.').pop() ?? s;

function eventOf(map: AppMap, pages: ReadonlyMap<string, MapPage>, t: MapTransition) {
  const from = stateStr(t.from);
  const id = t.step;
  const ev = t.event;
  if (ev.kind === 'back') return { event_str: `KeyEvent(state=${from}, name=BACK)`, event_id: id, event_type: 'key' };
  if (ev.kind === 'launch') {
    const first = pages.get(map.first);
    return {
      event_str: `IntentEvent(intent='am start ${map.app.package}/${first?.activity ?? ''}')`,
      event_id: id,
      event_type: 'intent',
    };
  }
  const page = pages.get(t.from);
  const el = page?.elements.find((e) => e.id === ev.element);
  const label = el ? (el.text || el.desc).replace(/[()]/g, '') : '';
  const view = `${viewStr(t.from, el?.id ?? '')}(${shortName(page?.activity ?? '')}/${shortName(el?.className || el?.role || 'View')}-${label})`;
  if (ev.kind === 'scroll')
    return {
      event_str: `ScrollEvent(state=${from}, view=${view}, direction=DOWN)`,
      event_id: id,
      event_type: 'scroll',
    };
  return { event_str: `TouchEvent(state=${from}, view=${view})`, event_id: id, event_type: 'touch' };
}

/** The utg.js graph: one node per page, one edge per (from, to) pair carrying its events. */
export function utgOf(map: AppMap, tags: ReadonlyMap<string, string>) {
  const pages = new Map(map.pages.map((p) => [p.id, p]));
  const nodes = map.pages.map((p) => ({
    id: stateStr(p.id),
    shape: 'image',
    image: `states/screen_${tags.get(p.id)}.png`,
    label: `${shortName(p.activity)}${p.id === map.first ? '\n<FIRST>' : ''}`,
    package: p.package,
    activity: p.activity,
    state_str: stateStr(p.id),
    title: p.description ?? p.title,
  }));
  const edges = new Map<string, { from: string; to: string; id: string; events: ReturnType<typeof eventOf>[] }>();
  for (const t of [...map.transitions].sort((a, b) => a.step - b.step)) {
    if (!pages.has(t.from) || !pages.has(t.to)) continue;
    const [from, to] = [stateStr(t.from), stateStr(t.to)];
    const key = `${from}-->${to}`;
    const edge = edges.get(key) ?? { from, to, id: key, events: [] };
    edge.events.push(eventOf(map, pages, t));
    edges.set(key, edge);
  }
  return {
    nodes,
    edges: [...edges.values()],
    num_nodes: nodes.length,
    num_edges: edges.size,
    app_package: map.app.package,
    device_model_number: map.device?.model ?? 'phone-agent explore',
    device_sdk_version: map.device?.sdk ?? 33,
  };
}

/**
 * Writes the map into `dir` (created): utg.js, states/, and the knowledge file (agent/knowledge-of.ts
 * derives it: it needs the perception's title/value split, above this layer). Returns the files written.
 */
export async function writeAppMap(
  dir: string,
  map: AppMap,
  knowledge: Knowledge,
): Promise<{ utg: string; knowledge: string }> {
  const states = path.join(dir, 'states');
  await mkdir(states, { recursive: true });
  const tags = new Map(map.pages.map((p, i) => [p.id, tagOf(i)]));
  for (const p of map.pages) {
    const tag = tags.get(p.id) as string;
    await writeFile(path.join(states, `state_${tag}.json`), `${JSON.stringify(droidbotStateOf(p, tag), null, 1)}\n`);
    if (p.png) await writeFile(path.join(states, `screen_${tag}.png`), p.png);
  }
  const utg = path.join(dir, 'utg.js');
  await writeFile(utg, `var utg = \n${JSON.stringify(utgOf(map, tags), null, 1)}\n`);
  const file = path.join(dir, KNOWLEDGE_FILE);
  await writeFile(file, `${JSON.stringify(knowledge, null, 1)}\n`);
  return { utg, knowledge: file };
}
