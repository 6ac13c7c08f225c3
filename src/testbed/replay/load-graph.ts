import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ActionableError } from '../../core/errors.js';
import { type Rect, rect } from '../../core/geometry.js';
import { type DroidbotState, parseDroidbotState } from '../../perception/droidbot/state.js';
import type { RecordedView, ReplayGraph, ReplayState, ScrollDirection, Transition } from './graph.js';

/**
 * A DroidBot output folder as it is (`utg.js`, `states/state_<tag>.json`, `screen_<tag>.*`,
 * `events/event_<tag>.json`) → a ReplayGraph. `utg.js` edges are the transitions; an event file
 * with the same event string (else the same view hash) gives the details — the target view, the
 * typed text, the key, the intent. Known defects of real runs (events naming states never saved,
 * empty event files, a view no longer in its state) are skipped and listed in `notes`.
 */

const UtgEventSchema = z.object({
  event_str: z.string(),
  event_id: z.number().int().nullish(),
  event_type: z.string().nullish(),
});
const UtgSchema = z.object({
  nodes: z.array(
    z.object({
      id: z.string(),
      state_str: z.string().nullish(),
      image: z.string().nullish(),
      label: z.string().nullish(),
    }),
  ),
  edges: z.array(z.object({ from: z.string(), to: z.string(), events: z.array(UtgEventSchema) })),
  app_package: z.string().nullish(),
  device_model_number: z.string().nullish(),
  device_sdk_version: z.number().nullish(),
});

const EventViewSchema = z
  .object({
    temp_id: z.number().nullish(),
    view_str: z.string().nullish(),
    bounds: z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]).nullish(),
    class: z.string().nullish(),
    resource_id: z.string().nullish(),
    text: z.string().nullish(),
  })
  .nullish();
const EventFileSchema = z.object({
  start_state: z.string().nullish(),
  stop_state: z.string().nullish(),
  event_str: z.string().nullish(),
  event: z.object({
    event_type: z.string(),
    view: EventViewSchema,
    text: z.string().nullish(),
    direction: z.string().nullish(),
    name: z.string().nullish(),
    intent: z.string().nullish(),
    stop_intent: z.string().nullish(),
  }),
});
type EventFile = z.infer<typeof EventFileSchema>;

async function readJson(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  return JSON.parse(text);
}

async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

async function readUtg(dir: string): Promise<z.infer<typeof UtgSchema>> {
  const file = path.join(dir, 'utg.js');
  const text = await readFile(file, 'utf8').catch((e: unknown) => {
    throw new ActionableError(
      'NOT_FOUND',
      `no DroidBot graph in ${dir}: cannot read utg.js (${(e as Error).message})`,
      'pass a DroidBot output folder (utg.js, states/, events/)',
    );
  });
  // `var utg = {…}`: the JSON starts after the first "=".
  const json = text
    .slice(text.indexOf('=') + 1)
    .trim()
    .replace(/;\s*$/, '');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new ActionableError(
      'INVALID_ARGUMENT',
      `${file} is not a DroidBot utg.js (${(e as Error).message})`,
      'pass the folder DroidBot wrote',
    );
  }
  const parsed = UtgSchema.safeParse(value);
  if (!parsed.success)
    throw new ActionableError(
      'INVALID_ARGUMENT',
      `${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
      'pass the folder DroidBot wrote',
    );
  return parsed.data;
}

async function readStates(dir: string, notes: string[]): Promise<Map<string, ReplayState>> {
  const statesDir = path.join(dir, 'states');
  const names = await listDir(statesDir);
  const images = new Map<string, string>();
  for (const n of names) {
    const m = /^screen_(.+)\.(png|jpe?g)$/i.exec(n);
    if (m?.[1]) images.set(m[1], path.join(statesDir, n));
  }
  const states = new Map<string, ReplayState>();
  for (const n of names.filter((x) => /^state_.+\.json$/.test(x)).sort()) {
    const file = path.join(statesDir, n);
    const parsed = parseDroidbotState(await readJson(file).catch((e: unknown) => String(e)));
    if (!parsed.ok) {
      notes.push(`${n}: ${parsed.message}`);
      continue;
    }
    const state: DroidbotState = parsed.state;
    const tag = state.tag ?? n.slice('state_'.length, -'.json'.length);
    states.set(state.state_str, { id: state.state_str, state, file, imageFile: images.get(tag) });
  }
  return states;
}

async function readEvents(dir: string, notes: string[]): Promise<EventFile[]> {
  const eventsDir = path.join(dir, 'events');
  const out: EventFile[] = [];
  let empty = 0;
  for (const n of (await listDir(eventsDir)).filter((x) => x.endsWith('.json')).sort()) {
    const text = await readFile(path.join(eventsDir, n), 'utf8');
    if (text.trim() === '') {
      empty++;
      continue;
    }
    const parsed = EventFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) out.push(parsed.data);
    else notes.push(`events/${n}: not a DroidBot event (${parsed.error.issues[0]?.message})`);
  }
  if (empty > 0) notes.push(`${empty} empty event file(s) skipped`);
  return out;
}

const VIEW_HASH_RE = /view=([0-9a-f]{32})/;

function viewHash(eventStr: string): string | undefined {
  return VIEW_HASH_RE.exec(eventStr)?.[1];
}

function boundsRect(b: readonly [readonly [number, number], readonly [number, number]]): Rect {
  return rect(b[0][0], b[0][1], b[1][0], b[1][1]);
}

/** The target view in the start state by its hash (bounds as served), else as the event file recorded it. */
function recordedView(
  state: ReplayState,
  hash: string | undefined,
  file: EventFile | undefined,
  handles: 'clickable' | 'long_clickable' | undefined,
): RecordedView | undefined {
  const views = state.state.views;
  const ev = file?.event.view;
  const same = (a: readonly (readonly number[])[], b: readonly (readonly number[])[]) =>
    a.length === 2 && b.length === 2 && a.every((p, i) => p[0] === b[i]?.[0] && p[1] === b[i]?.[1]);
  // By hash; else (a run that captured the screen again before acting) the same class, text and bounds.
  const own =
    (hash ? views.find((v) => v.view_str === hash) : undefined) ??
    (ev?.bounds
      ? views.find(
          (v) => v.class === ev.class && (v.text ?? null) === (ev.text ?? null) && same(v.bounds, ev.bounds ?? []),
        )
      : undefined);
  if (own) {
    // The view that handles the touch: itself or the nearest ancestor that takes it.
    let handler: (typeof views)[number] | undefined = own;
    for (let i = 0; handles && handler && !handler[handles] && i < 64; i++) handler = views[handler.parent];
    return {
      tempId: own.temp_id,
      viewStr: own.view_str ?? hash,
      bounds: boundsRect(own.bounds),
      ...(handles && handler && handler !== own ? { area: boundsRect(handler.bounds) } : {}),
      className: own.class ?? undefined,
      resourceId: own.resource_id ?? undefined,
      text: own.text ?? undefined,
    };
  }
  const v = ev;
  if (!v?.bounds) return undefined;
  return {
    viewStr: v.view_str ?? hash,
    bounds: boundsRect(v.bounds),
    className: v.class ?? undefined,
    resourceId: v.resource_id ?? undefined,
    text: v.text ?? undefined,
  };
}

function direction(s: string | null | undefined, eventStr: string): ScrollDirection | undefined {
  const d = (s ?? /direction=(\w+)/.exec(eventStr)?.[1] ?? '').toUpperCase();
  return d === 'UP' || d === 'DOWN' || d === 'LEFT' || d === 'RIGHT' ? d : undefined;
}

/** `am start pkg/.Activity` / `am force-stop pkg`, however the run wrote it. */
export function parseIntent(cmd: string): { op: 'start' | 'stop'; package: string; activity?: string } | undefined {
  const stop = /am\s+force-stop\s+(\S+)/.exec(cmd);
  if (stop?.[1]) return { op: 'stop', package: stop[1] };
  const start = /am\s+start\b.*?\s([\w.]+)\/([\w.$]+)/.exec(cmd);
  if (start?.[1]) return { op: 'start', package: start[1], activity: start[2] };
  return undefined;
}

function transitionOf(
  edge: { from: string; to: string },
  ev: z.infer<typeof UtgEventSchema>,
  state: ReplayState,
  file: EventFile | undefined,
): Transition | string {
  const base = { from: edge.from, to: edge.to, eventStr: ev.event_str, eventId: ev.event_id ?? 0 };
  const type = ev.event_type ?? file?.event.event_type ?? '';
  switch (type) {
    case 'touch':
    case 'long_touch':
    case 'set_text':
    case 'scroll': {
      const handles = type === 'touch' ? 'clickable' : type === 'long_touch' ? 'long_clickable' : undefined;
      const view = recordedView(state, viewHash(ev.event_str), file, handles);
      if (!view) return `its view is neither in the state nor in an event file`;
      if (type === 'set_text') {
        const text = file?.event.text ?? /, text=(.*)\)$/.exec(ev.event_str)?.[1];
        return { ...base, kind: 'set_text', view, text: text ?? undefined };
      }
      if (type === 'scroll') {
        const dir = direction(file?.event.direction, ev.event_str);
        return dir ? { ...base, kind: 'scroll', view, direction: dir } : 'no scroll direction';
      }
      return { ...base, kind: type, view };
    }
    case 'key': {
      const key = file?.event.name ?? /name=(\w+)/.exec(ev.event_str)?.[1];
      return key ? { ...base, kind: 'key', key: key.toUpperCase() } : 'no key name';
    }
    case 'intent':
    case 'kill_app': {
      const cmd = file?.event.intent ?? file?.event.stop_intent ?? /intent='([^']*)'/.exec(ev.event_str)?.[1] ?? '';
      const intent = parseIntent(cmd);
      return intent
        ? { ...base, kind: 'intent', ...intent }
        : `an intent this replay does not model (${cmd.slice(0, 60)})`;
    }
    default:
      return `event type "${type}" is not replayed`;
  }
}

export async function loadDroidbotGraph(dir: string): Promise<ReplayGraph> {
  const notes: string[] = [];
  const utg = await readUtg(dir);
  const states = await readStates(dir, notes);
  if (states.size === 0)
    throw new ActionableError(
      'INVALID_ARGUMENT',
      `no readable states in ${path.join(dir, 'states')}`,
      'pass a DroidBot output folder',
    );
  const events = await readEvents(dir, notes);
  const byStr = new Map<string, EventFile>();
  const byHash = new Map<string, EventFile>();
  for (const e of events) {
    if (e.event_str && !byStr.has(e.event_str)) byStr.set(e.event_str, e);
    const h = e.event.view?.view_str;
    if (h && !byHash.has(h)) byHash.set(h, e);
  }
  const transitions: Transition[] = [];
  const skipped = new Map<string, number>();
  const skip = (why: string) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
  for (const edge of utg.edges) {
    const state = states.get(edge.from);
    if (!state || !states.has(edge.to)) {
      skip('an edge names a state that was never saved');
      continue;
    }
    for (const ev of edge.events) {
      const hash = viewHash(ev.event_str);
      const file = byStr.get(ev.event_str) ?? (hash ? byHash.get(hash) : undefined);
      const t = transitionOf(edge, ev, state, file);
      if (typeof t === 'string') skip(t);
      else transitions.push(t);
    }
  }
  for (const [why, n] of skipped) notes.push(`${n} event(s) skipped: ${why}`);
  const first =
    utg.nodes.find((n) => n.label?.includes('<FIRST>') && states.has(n.id))?.id ??
    utg.nodes.find((n) => states.has(n.id))?.id ??
    (states.keys().next().value as string);
  return {
    name: path.basename(path.resolve(dir)),
    appPackage: utg.app_package ?? states.get(first)?.state.views[0]?.package ?? '',
    first,
    states,
    transitions: transitions.sort((a, b) => a.eventId - b.eventId),
    device: { model: utg.device_model_number ?? 'DroidBot recording', sdk: utg.device_sdk_version ?? 29 },
    notes,
  };
}
