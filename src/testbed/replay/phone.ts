import { type Clock, VirtualClock } from '../../core/clock.js';
import { type Point, rectCenter } from '../../core/geometry.js';
import type { KeyName } from '../../core/types.js';
import type { WireScreen, WireSnapshot } from '../../device/protocol/wire.js';
import { strokeDuration } from '../sim/engine/input.js';
import { type NodeQuery, queryMatches } from '../sim/node-query.js';
import { NO_FAULTS } from '../sim/phone.js';
import { swipeStroke, tapStroke } from '../sim/strokes.js';
import type {
  DeviceInfo,
  Faults,
  InputResult,
  Latency,
  NodeAction,
  PhoneSurface,
  Screenshot,
  Stroke,
  TouchCheck,
} from '../sim/surface.js';
import { fieldAt, fieldOfNode, recordedFocus, refind } from './fields.js';
import { graphApps, type ReplayGraph, type Transition } from './graph.js';
import {
  type Field,
  type Match,
  matchIntent,
  matchKey,
  matchScroll,
  matchText,
  matchTouch,
  scrollDirection,
  twinsOf,
} from './match.js';
import { type Shown, StateCache } from './state-cache.js';
import { ReplaySystem } from './system.js';
import { snapshotToXml } from './xml.js';

/**
 * The replay phone: a recorded DroidBot graph behind the same `PhoneSurface` the virtual phone
 * offers, so the sim's helper bridge and ADB transport serve it unchanged (`run`, the suite, MCP,
 * adb clients). It shows the current state's view tree and screenshot; an input that is a recorded
 * event from that state moves to the event's destination (./match.ts). Any other input changes
 * nothing and is **off-graph**: the receipt's `detail` says so and `log` keeps every input's outcome.
 */

/** `inferred`: a move the recording lacks but Android makes anyway (back to the previous activity). */
export type ReplayOutcome = 'moved' | 'stayed' | 'focused' | 'off-graph' | 'inferred';

export interface ReplayStep {
  /** Screen revision when the input arrived. */
  seq: number;
  at: number;
  state: string;
  /** What arrived: `tap 540,1200`, `type "Humanoid"`, `key back`, `launch com.x`. */
  input: string;
  outcome: ReplayOutcome;
  to?: string;
  /** The recorded event followed, or why none applied. */
  detail: string;
}

export interface ReplayPhoneDeps {
  graph: ReplayGraph;
  clock?: Clock;
  latency?: Partial<Latency>;
  /** The state to start in (default: the graph's first). */
  start?: string;
  info?: Partial<DeviceInfo>;
}

/** Finger travel below this (px) is a tap, not a swipe; a tap held this long is a long press. */
const TAP_SLOP_PX = 24;
const LONG_PRESS_MS = 500;

export class ReplayPhone extends ReplaySystem implements PhoneSurface {
  readonly clock: Clock;
  readonly info: DeviceInfo;
  readonly faults: Faults = { ...NO_FAULTS };
  readonly latency: Latency;
  readonly graph: ReplayGraph;
  /** Every input and what the recording made of it, oldest first. */
  readonly log: ReplayStep[] = [];
  private current: string;
  private revision = 1;
  /** The recorded events inputs are matched against: the graph's, or a scene's (`show`). */
  private events: readonly Transition[];
  /** The field a tap focused, and the states where typing into it was recorded (current first). */
  private focus?: { field: Field; states: string[] };
  /** The other states the event that led here also reached (one screen saved several times): inputs match there too. */
  private twins: string[] = [];
  /** What was typed into a field of the current state: shown as typed (the recording's text may differ in case or spaces). */
  private typed?: { tempId: number; text: string };
  /**
   * Android's back stack as far as the replay saw it: the state left each time a move changed the
   * foreground activity (or app). A BACK the recording lacks returns there, as the framework would.
   */
  private backStack: string[] = [];
  private readonly cache: StateCache;

  private constructor(deps: ReplayPhoneDeps, cache: StateCache) {
    super();
    this.graph = deps.graph;
    this.cache = cache;
    this.clock = deps.clock ?? new VirtualClock();
    this.current = deps.start ?? deps.graph.first;
    this.events = deps.graph.transitions;
    this.latency = {
      treeRead: 0,
      nodeLookup: 0,
      uiautomatorDump: 0,
      screenshot: 0,
      helperInput: 0,
      shellInput: 0,
      ...deps.latency,
    };
    this.info = {
      manufacturer: 'DroidBot recording',
      model: deps.graph.device.model,
      product: 'replay',
      device: 'replay',
      serial: `REPLAY${deps.graph.name
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 12)
        .toUpperCase()}`,
      androidVersion: String(Math.max(8, Math.round(deps.graph.device.sdk / 2.5))),
      // The helper protocol's gestures need API 26: older recordings are still served with them.
      apiLevel: Math.max(26, deps.graph.device.sdk),
      helperVersion: '0.1.0-replay',
      ...deps.info,
    };
  }

  /** A replay phone showing its start state (read before it answers anything). */
  static async open(deps: ReplayPhoneDeps): Promise<ReplayPhone> {
    const start = deps.start ?? deps.graph.first;
    if (!deps.graph.states.has(start))
      throw new Error(`the graph ${deps.graph.name} has no state ${start}; its first state is ${deps.graph.first}`);
    const cache = new StateCache(deps.graph);
    await cache.get(start);
    return new ReplayPhone(deps, cache);
  }

  /** The state shown now (DroidBot's state_str). */
  get state(): string {
    return this.current;
  }

  /**
   * Show `state` (tests, and the step-wise benchmark that sets each step's screen). `transitions`
   * limits what inputs follow until the next `show` — one recording's scroll path where several
   * recordings scrolled the same screen differently; default: all of the graph's.
   */
  async show(state: string, opts: { transitions?: readonly Transition[] } = {}): Promise<void> {
    if (!this.graph.states.has(state)) throw new Error(`the graph ${this.graph.name} has no state ${state}`);
    await this.cache.get(state);
    this.events = opts.transitions ?? this.graph.transitions;
    this.current = state;
    this.backStack = [];
    this.twins = [];
    this.focus = undefined;
    this.typed = undefined;
    this.revision++;
  }

  /** A state as the phone serves it (its views, snapshot and temp_id → node map): for checkers and scorers. */
  recorded(state: string): Promise<Shown> {
    return this.cache.get(state);
  }

  offGraph(): ReplayStep[] {
    return this.log.filter((s) => s.outcome === 'off-graph');
  }

  /** The moves made without a recorded event (a BACK to the previous activity). */
  inferred(): ReplayStep[] {
    return this.log.filter((s) => s.outcome === 'inferred');
  }

  /** Where inputs are matched: the current state, then its twins. */
  private here(): string[] {
    return [this.current, ...this.twins];
  }

  private shown(): Shown {
    return this.cache.peek(this.current);
  }

  screen(): WireScreen {
    return { ...this.shown().read.snapshot.screen };
  }

  // ---- observation ---------------------------------------------------------------------------

  private snapshotNow(): WireSnapshot {
    const base = this.shown().read.snapshot;
    const focused = this.focus?.field.tempId;
    const nodeOf = this.shown().read.nodeOf;
    const focusNode = focused === undefined ? undefined : nodeOf.get(focused);
    const typedNode = this.typed ? nodeOf.get(this.typed.tempId) : undefined;
    const nodes = this.faults.emptyTree
      ? []
      : base.nodes.map((n) => {
          const m = focusNode === undefined ? n : { ...n, flags: { ...n.flags, focused: n.id === focusNode } };
          return n.id === typedNode && this.typed ? { ...m, text: this.typed.text } : m;
        });
    return { ...base, seq: this.revision, takenAt: this.clock.now(), nodes };
  }

  async readTree(): Promise<WireSnapshot> {
    await this.pause(this.latency.treeRead + this.faults.slowTreeMs);
    return this.snapshotNow();
  }

  async queryNodes(q: NodeQuery): Promise<WireSnapshot> {
    await this.pause(this.latency.nodeLookup);
    const snap = this.snapshotNow();
    return { ...snap, nodes: snap.nodes.filter(queryMatches(q)) };
  }

  async dumpXml(): Promise<string> {
    await this.pause(this.latency.uiautomatorDump + this.faults.slowTreeMs);
    if (this.faults.emptyTree) throw new Error('ERROR: null root node returned by UiTestAutomationBridge.');
    return snapshotToXml(this.snapshotNow());
  }

  async screenshot(): Promise<Screenshot> {
    await this.pause(this.latency.screenshot);
    const shot = await this.cache.png(this.current);
    return { ...shot, offsetY: 0, seq: this.revision };
  }

  // ---- input ---------------------------------------------------------------------------------

  async gesture(strokes: Stroke[], guard?: TouchCheck): Promise<InputResult> {
    if (guard) await this.pause(guard.costMs(this.snapshotNow(), this.latency));
    await this.pause(this.latency.helperInput + strokeDuration(strokes));
    if (guard) {
      const refused = guard.check(this.snapshotNow());
      if (refused) return refused;
    }
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    const stroke = strokes.length === 1 ? strokes[0] : undefined;
    const a = stroke?.points[0];
    const b = stroke?.points.at(-1);
    if (!stroke || !a || !b)
      return this.offGraph_(`gesture of ${strokes.length} fingers`, 'no recorded multi-finger gestures');
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    if (Math.hypot(dx, dy) < TAP_SLOP_PX) return this.touch(a, b.t - a.t >= LONG_PRESS_MS);
    const dir = scrollDirection(dx, dy);
    return this.follow(`swipe ${a.x},${a.y} → ${b.x},${b.y}`, matchScroll(this.events, this.here(), a, dir));
  }

  tap(x: number, y: number, durationMs = 1, guard?: TouchCheck): Promise<InputResult> {
    return this.gesture([tapStroke(x, y, durationMs)], guard);
  }

  swipe(x1: number, y1: number, x2: number, y2: number, durationMs: number, guard?: TouchCheck): Promise<InputResult> {
    return this.gesture([swipeStroke(x1, y1, x2, y2, durationMs)], guard);
  }

  /** A tap or long press at `p`: a recorded touch, else focusing the field under it, else off-graph. */
  private async touch(
    p: Point,
    long: boolean,
    input = `${long ? 'long press' : 'tap'} ${p.x},${p.y}`,
  ): Promise<InputResult> {
    const m = matchTouch(this.events, this.here(), p, long);
    const field = fieldAt(this.shown(), p);
    const from = this.current;
    const r = await this.follow(input, m, field ? 'focused' : undefined);
    if (field && !long) this.focusField(field, from);
    return r;
  }

  /** Focus `field`; when a recorded tap moved on, typing may follow the event of either state. */
  private focusField(field: Field, from: string): void {
    const moved = this.current !== from;
    this.focus = {
      field: moved ? refind(this.shown(), field) : field,
      states: moved ? [this.current, from] : [this.current],
    };
    this.revision++;
  }

  async key(key: KeyName | 'delete' | 'search' | 'menu'): Promise<InputResult> {
    await this.pause(this.latency.helperInput);
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    const m = matchKey(this.events, this.here(), key);
    if (!m.ok && key === 'back' && this.backStack.length) return this.backToPrevious();
    return this.follow(`key ${key}`, m);
  }

  /** BACK with no recorded event: the previous activity comes back, as Android's back stack does. */
  private async backToPrevious(): Promise<InputResult> {
    const to = this.backStack.pop() as string;
    await this.cache.get(to);
    const app = this.cache.peek(to).read.snapshot.foreground;
    const detail = `inferred: the recording has no BACK from here; back returns to the previous activity (${app.package}/${app.activity}), as Android's back stack does`;
    this.note('key back', 'inferred', detail, to);
    this.moveTo(to, []);
    return { ok: true, detail };
  }

  /** `input text`: ASCII only, as on a real phone. */
  async inputText(text: string): Promise<InputResult> {
    if (/[^\x20-\x7e]/.test(text))
      return {
        ok: false,
        code: 'INVALID_ARGUMENT',
        message: '`input text` types ASCII only; use the IME for other text',
      };
    return this.typeText(text);
  }

  async imeCommit(text: string): Promise<InputResult> {
    await this.pause(this.latency.helperInput);
    if (!this.focusedField())
      return { ok: false, code: 'UNAVAILABLE', message: 'no focused text field: tap or focus a field first' };
    return this.typeText(text);
  }

  private focusedField(): { field: Field; states: string[] } | undefined {
    if (this.focus) return this.focus;
    const f = recordedFocus(this.shown());
    return f ? { field: f, states: [this.current] } : undefined;
  }

  private async typeText(text: string): Promise<InputResult> {
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    const f = this.focusedField();
    const input = `type ${JSON.stringify(text)}`;
    if (!f) return this.offGraph_(input, 'no focused field: the text went nowhere');
    const r = await this.follow(input, matchText(this.events, [...f.states, ...this.twins], f.field, text));
    const last = this.log.at(-1);
    if (last?.outcome === 'moved' || last?.outcome === 'stayed')
      this.typed = { tempId: refind(this.shown(), f.field).tempId, text };
    return r;
  }

  async nodeAction(seq: number, nodeId: number, action: NodeAction): Promise<InputResult> {
    await this.pause(this.latency.helperInput);
    if (seq !== this.revision)
      return {
        ok: false,
        code: 'STALE',
        message: `snapshot ${seq} is stale (the screen is at revision ${this.revision}); observe again`,
      };
    const node = this.shown().read.snapshot.nodes.find((n) => n.id === nodeId);
    if (!node) return { ok: false, code: 'NOT_FOUND', message: `no node ${nodeId} on this screen` };
    if (this.faults.dropInput) return { ok: true, detail: 'accepted' };
    const c = rectCenter(node.bounds);
    const at = { x: Math.round(c.x), y: Math.round(c.y) };
    const field = fieldOfNode(this.shown(), nodeId);
    switch (action.action) {
      case 'click':
      case 'long_click':
        return this.touch(at, action.action === 'long_click', `${action.action} node ${nodeId}`);
      case 'focus':
        if (!field) return { ok: true, detail: 'focus: not a text field (nothing recorded changes)' };
        this.focusField(field, this.current);
        this.note(`focus node ${nodeId}`, 'focused', 'the field has the focus');
        return { ok: true };
      case 'set_text':
        if (field) this.focus = { field, states: [this.current] };
        return this.typeText(action.text);
      case 'scroll_forward':
      case 'scroll_backward': {
        const dirs = action.action === 'scroll_forward' ? (['DOWN', 'RIGHT'] as const) : (['UP', 'LEFT'] as const);
        const m = dirs.map((d) => matchScroll(this.events, this.here(), at, d)).find((x) => x.ok);
        return this.follow(`${action.action} node ${nodeId}`, m ?? matchScroll(this.events, this.here(), at, dirs[0]));
      }
      case 'show_on_screen':
        return { ok: true, detail: 'already on screen' };
      default:
        return this.offGraph_(`${action.action} node ${nodeId}`, `no recorded ${action.action}`);
    }
  }

  // ---- apps ----------------------------------------------------------------------------------

  async launch(packageOrLabel: string): Promise<InputResult> {
    const want = packageOrLabel.toLowerCase();
    const app = this.packages().find((p) => p.package.toLowerCase() === want || p.label.toLowerCase() === want);
    if (!app) return { ok: false, code: 'NOT_FOUND', message: `no installed app matches "${packageOrLabel}"` };
    const r = await this.follow(`launch ${app.package}`, matchIntent(this.events, this.here(), 'start', app.package));
    return r.ok && !r.detail?.startsWith('off-graph') ? { ok: true, detail: app.package } : r;
  }

  async forceStop(pkg: string): Promise<InputResult> {
    return this.follow(`force-stop ${pkg}`, matchIntent(this.events, this.here(), 'stop', pkg));
  }

  foreground(): { package: string; activity: string } {
    return { ...this.shown().read.snapshot.foreground };
  }

  /** The recorded app (and any app a recorded intent launches), with its activities; plus what adb installed. */
  packages(): { package: string; label: string; activities: string[] }[] {
    const apps = graphApps(this.graph);
    const installed = this.installedApps().filter((p) => !apps.some((a) => a.package === p.package));
    return [...apps, ...installed];
  }

  // ---- moving along the graph ------------------------------------------------------------------

  /** Follow a matched event (its destination is read first), or stay: `orElse` names a local effect. */
  private async follow(input: string, m: Match, orElse?: 'focused'): Promise<InputResult> {
    if (!m.ok) {
      if (orElse) {
        this.note(input, orElse, 'the field has the focus');
        return { ok: true };
      }
      return this.offGraph_(input, m.why);
    }
    const t: Transition = m.transition;
    if (t.to === t.from) {
      this.note(input, 'stayed', `recorded: ${t.eventStr} (the screen stays)`);
      return { ok: true };
    }
    await this.cache.get(t.to);
    this.note(input, 'moved', `recorded: ${t.eventStr}`, t.to);
    this.keepBackStack(t.to);
    this.moveTo(t.to, twinsOf(this.events, t));
    return { ok: true };
  }

  private moveTo(state: string, twins: string[]): void {
    this.current = state;
    this.twins = twins;
    this.focus = undefined;
    this.typed = undefined;
    this.revision++;
  }

  /** A recorded move back to the stack's top pops it; one into another activity pushes the state left. */
  private keepBackStack(to: string): void {
    if (this.backStack.at(-1) === to) {
      this.backStack.pop();
      return;
    }
    const a = this.cache.peek(this.current).read.snapshot.foreground;
    const b = this.cache.peek(to).read.snapshot.foreground;
    if (a.package !== b.package || a.activity !== b.activity) this.backStack.push(this.current);
  }

  private offGraph_(input: string, why: string): InputResult {
    this.note(input, 'off-graph', why);
    return {
      ok: true,
      detail: `off-graph: ${why} in state ${this.current.slice(0, 8)} of ${this.graph.name}; the recording has no outcome for it, so nothing changed and repeating it changes nothing`,
    };
  }

  private note(input: string, outcome: ReplayOutcome, detail: string, to?: string): void {
    this.log.push({
      seq: this.revision,
      at: this.clock.now(),
      state: this.current,
      input,
      outcome,
      detail,
      ...(to ? { to } : {}),
    });
  }

  private async pause(ms: number): Promise<void> {
    if (ms > 0) await this.clock.sleep(ms);
  }
}
