import { decideRequest } from '../../src/agent/decide-request.js';
import type { AgentPorts, Perceived } from '../../src/agent/ports.js';
import { keepNote, lookEffect, metaEffect } from '../../src/agent/step-meta.js';
import { callbackConfirmation, composeAgent } from '../../src/compose/agent.js';
import type { ModelSpec } from '../../src/compose/model.js';
import { rect, rectArea, rectCenter, rectContains } from '../../src/core/geometry.js';
import { Logger } from '../../src/core/logger.js';
import type { Action, Element, Observation } from '../../src/core/types.js';
import { shownIds } from '../../src/perception/compact.js';
import { actJsonSchema } from '../../src/planner/act-schema.js';
import { formatExpect } from '../../src/planner/expect-dsl.js';
import { addUsage, emptyUsage, type LlmUsage } from '../../src/planner/llm/client.js';
import { PageMemory } from '../../src/planner/memory/page-memory.js';
import type { DecideRequest, LookImage } from '../../src/planner/planner.js';
import { buildDecideMessages } from '../../src/planner/prompt/builders.js';
import type { HistoryEntry } from '../../src/planner/prompt/types.js';
import { countTokens } from '../../src/testbed/reference-model/tokens.js';
import { ReplayPhone } from '../../src/testbed/replay/phone.js';
import { describeAction, REGISTRY } from '../../src/tools/index.js';
import { CONTRADICTION_FLAG, contradictions } from './contradictions.js';
import { type DroidtaskApp, type Gold, type GoldStep, type GoldTask, scrollChain } from './fixture.js';
import { type ShownState, type StepScore, scoreStep } from './score.js';

/**
 * One DroidTask app, step by step, through the product: each gold step's recorded screen served by
 * the replay phone over the helper bridge, perceived by the agent's ports, the request built by the
 * agent's own `decideRequest` with the instruction and the gold history so far, decided by the
 * product's planner (its prompt, tools and validation). A note or a read is kept and asked again, as
 * the loop does; a scroll within the step's recorded scroll states is executed (the executor, the
 * replay) and asked again, since AutoDroid showed those states as one list; the next action is
 * scored (./score.ts).
 */

/** What a scripted model needs to answer a step: the gold, and whether its state is the one shown. */
export interface StepProbe {
  gold: Gold;
  onGoldState: boolean;
  screen: { w: number; h: number };
  /**
   * The gold element's id as the listing shows it, on the gold state: the lean listing gives a
   * centre only where the label cannot place a control, so bounds alone do not find every line.
   */
  target?: string;
}

export interface StepRecord {
  task: string;
  app: string;
  step: number;
  goldKind: Gold['kind'];
  flags: string[];
  score: StepScore;
  /** The scored action, as the history would show it. */
  action: string;
  /** Scrolls the model made through the step's recorded scroll states before the scored action. */
  scrolls: number;
  /** Notes and reads before it. */
  meta: number;
  /** As the endpoint counted it (the relay's prompt tokens are characters / 4), re-asks included. */
  usage: LlmUsage;
  /**
   * The step's decision requests (one per scroll, note or read, and the scored one; re-asks not
   * included) in o200k tokens — system, user and the act schema — counted here, alike for every model.
   */
  requestTokens: number;
}

export interface AppRunOptions {
  model: ModelSpec;
  /** Called with the step about to be asked (a scripted model reads it). */
  probe?: (p: StepProbe | undefined) => void;
  tasks?: (t: GoldTask) => boolean;
  /** Steps already scored (a resumed run): not asked again; their gold still makes the history. */
  scored?: (task: string, step: number) => boolean;
  logger?: Logger;
  /** Each step as it is scored (awaited: the bench writes it down before the next is asked). */
  onStep?: (r: StepRecord) => void | Promise<void>;
}

const MAX_META = 2;

/**
 * The step-wise protocol as the model reads it (one Notes line a request): whatever it chooses,
 * only this one action is scored, and the next request shows the recording's next screen after
 * the recorded step, not after its own action. The plan stays the instruction: a plan the model
 * sends goes with an action that is not taken (relay players asked where theirs went).
 */
export const STEPWISE_NOTE =
  "benchmark, step-wise: only your action for this screen is scored (plan=[…] and subgoal_done are not kept); whatever you choose, the next request shows the recording's next screen, after the recording's own step (listed in Recent steps as taken before you)";

/** The number of the next history line: the model's reads and scrolls on one screen each get their own. */
function nextStep(history: readonly HistoryEntry[]): number {
  return (history.at(-1)?.step ?? 0) + 1;
}

function isScroll(a: Action): boolean {
  if (a.tool === 'swipe' || a.tool === 'scroll_to') return true;
  const op = a.tool === 'control_action' ? a.args?.action : undefined;
  return op === 'scroll_forward' || op === 'scroll_backward';
}

function shownState(id: string, r: Awaited<ReturnType<ReplayPhone['recorded']>>): ShownState {
  return { id, views: r.state.views, nodeOf: r.read.nodeOf };
}

/** The element the gold step acts on, in the observation of its own state: by view, else by bounds. */
export function goldElement(seen: Perceived, shown: ShownState, gold: Gold): Element | undefined {
  const views = [gold.anchor?.view, gold.view].filter((v): v is number => v !== null && v !== undefined);
  for (const v of views) {
    const node = shown.nodeOf.get(v);
    const e = seen.obs.elements.find((x) => x.actionable && x.nodeId === node);
    if (e) return e;
  }
  const b = gold.anchor?.bounds ?? gold.bounds;
  if (!b) return undefined;
  const c = rectCenter(rect(b[0][0], b[0][1], b[1][0], b[1][1]));
  return seen.obs.elements
    .filter((e) => e.actionable && rectContains(e.boundsPx, c))
    .sort((x, y) => rectArea(x.boundsPx) - rectArea(y.boundsPx))[0];
}

/**
 * The gold action as a history line, marked as taken before the model, from a recording: DroidTask recorded it, nothing ran or checked
 * it here (its next recorded screen does not always show its text), so it must not read `met`.
 */
function goldEntry(step: number, gold: Gold, e: Element | undefined): HistoryEntry {
  if (gold.kind === 'input') {
    const action: Action = { tool: 'type', target_id: e?.id, text: gold.text ?? '' };
    return {
      step,
      // The recording's text, shown as typed (a count says nothing to check), except into a password field.
      action: describeAction(action, e?.label, e !== undefined && !e.flags.password),
      expect: `text_appears ${gold.text ?? ''}`,
      ok: true,
      recorded: true,
    };
  }
  const action: Action = gold.kind === 'back' ? { tool: 'back' } : { tool: 'tap', target_id: e?.id };
  return { step, action: describeAction(action, e?.label), expect: 'page_changes', ok: true, recorded: true };
}

/**
 * The gold step as done, on its own screen: the next step's history (none after a done), and the
 * screen it was taken on, perceived after `before` (the step's screen) as the phone's loop perceives
 * each screen after the last one — so an id follows its element from step to step as it does in a
 * run (a settings row cut off at the list's edge, then in view, then cut off again, keeps its id),
 * not one id per recording.
 */
async function goldDone(
  phone: ReplayPhone,
  ports: AgentPorts,
  step: number,
  gold: Gold,
  goldState: ShownState,
  before: Observation | undefined,
): Promise<{ entries: HistoryEntry[]; seen?: Observation }> {
  if (gold.kind === 'done') return { entries: [] };
  await phone.show(goldState.id);
  const seen = await ports.observe(before);
  return { entries: [goldEntry(step, gold, goldElement(seen, goldState, gold))], seen: seen.obs };
}

/** A decision request's size as the planner sends it: system and user text, and the act schema. */
async function requestTokens(req: DecideRequest): Promise<number> {
  // The product's tools, as composeAgent gives them to the planner.
  const { system, user } = buildDecideMessages(req, REGISTRY.catalog);
  return countTokens(`${system}\n${user}${JSON.stringify(actJsonSchema(req.tools, REGISTRY.catalog))}`);
}

export async function runApp(app: DroidtaskApp, o: AppRunOptions): Promise<StepRecord[]> {
  const logger = o.logger ?? new Logger('agent', { level: 'warn' });
  const phone = await ReplayPhone.open({ graph: app.graph });
  const composed = await composeAgent({
    device: { kind: 'replay', phone },
    model: o.model,
    // Nothing the benchmark executes is guarded (it scrolls only); a guard would be refused.
    confirm: callbackConfirmation('droidtask bench', () => 'denied'),
    memory: new PageMemory(),
    // DroidTask recorded no screenshots: the model gets none (a blank picture would mislead it).
    screenshots: false,
    logger,
  });
  const { ports, planner } = composed.deps;
  const records: StepRecord[] = [];
  try {
    const apps = await ports.apps?.();
    for (const task of app.tasks) {
      if (o.tasks && !o.tasks(task)) continue;
      const history: HistoryEntry[] = [];
      // The steps DroidTask's own data contradicts (./contradictions.ts): flagged, counted apart, still scored.
      const contradicted = contradictions(task, app.graph.states);
      /** The screen the gold history last acted on: the next one is perceived after it. */
      let last: Observation | undefined;
      for (let k = 0; k < task.steps.length; k++) {
        const step = task.steps[k] as GoldStep;
        const goldStateId = step.gold.in_state ?? step.state;
        const goldState = shownState(goldStateId, await phone.recorded(goldStateId));
        await phone.show(step.state, { transitions: scrollChain(app.graph.states, step) });
        let seen = await ports.observe(last);
        const first = seen.obs;
        if (o.scored?.(task.id, k + 1)) {
          const done = await goldDone(phone, ports, k + 1, step.gold, goldState, first);
          history.push(...done.entries);
          last = done.seen;
          continue;
        }
        const local = [...history];
        let notes: string[] = [];
        /** A look's screenshot, for the next decision on the same screen (as in the loop). */
        let look: LookImage | undefined;
        let usage = emptyUsage();
        let tokens = 0;
        let scrolls = 0;
        let meta = 0;
        let action: Action | undefined;
        const chain = new Set(step.scroll_states ?? [step.state]);
        const maxScrolls = chain.size > 1 ? 2 * chain.size : 0;
        for (;;) {
          const onGold = phone.state === goldStateId;
          const target = onGold ? goldElement(seen, goldState, step.gold) : undefined;
          o.probe?.({
            gold: step.gold,
            onGoldState: onGold,
            screen: { w: seen.obs.screen.w, h: seen.obs.screen.h },
            ...(target ? { target: shownIds(seen.obs, [target.id]).get(target.id) ?? target.id } : {}),
          });
          const req = decideRequest(ports, {
            goal: task.instruction,
            plan: [{ text: task.instruction, done: false }],
            current: 0,
            seen,
            history: local.slice(-5),
            banned: [],
            // The protocol, said once a request: players read the recording's next screen as their own step's outcome.
            notes: [STEPWISE_NOTE, ...notes],
            apps,
            look,
          });
          look = undefined;
          tokens += await requestTokens(req);
          const res = await planner.decide(req);
          usage = addUsage(usage, res.usage);
          if (!res.ok) break;
          if (res.step.look && meta < MAX_META) {
            meta++;
            const l = await lookEffect(ports, seen, res.step.look, nextStep(local));
            local.push(l.entry);
            look = l.look;
            continue;
          }
          const m = metaEffect(res.step, { obs: seen.obs, step: nextStep(local), subgoalOpen: true });
          if (m && meta < MAX_META) {
            meta++;
            if (m.note !== undefined) notes = keepNote(notes, m.note);
            local.push(m.entry);
            continue;
          }
          const a = res.step.decision.action;
          if (isScroll(a) && scrolls < maxScrolls) {
            scrolls++;
            const done = await ports.execute({
              decision: res.step.decision,
              obs: seen.obs,
              confirm: composed.deps.confirm,
              events: async () => {},
              dryRun: false,
              fresh: true,
            });
            const label = seen.obs.elements.find((e) => e.id === a.target_id)?.label;
            local.push({
              step: nextStep(local),
              action: describeAction(a, label),
              expect: formatExpect(res.step.decision.expect),
              ok: done.ok,
              ...(done.error ? { note: done.error } : {}),
            });
            seen = done.post ?? (await ports.observe(seen.obs));
            continue;
          }
          action = a;
          break;
        }
        o.probe?.(undefined);
        const shownNow = shownState(phone.state, await phone.recorded(phone.state));
        const score = scoreStep(action, seen.obs, shownNow, step.gold, goldState);
        const label = action ? seen.obs.elements.find((e) => e.id === action?.target_id)?.label : undefined;
        const record: StepRecord = {
          task: task.id,
          app: app.app,
          step: k + 1,
          goldKind: step.gold.kind,
          flags: [
            ...(step.flags ?? []),
            ...(contradicted.has(k + 1) ? [`${CONTRADICTION_FLAG}:${contradicted.get(k + 1)}`] : []),
          ],
          score,
          action: action ? describeAction(action, label) : '(no valid action)',
          scrolls,
          meta,
          usage,
          requestTokens: tokens,
        };
        records.push(record);
        await o.onStep?.(record);
        const done = await goldDone(phone, ports, k + 1, step.gold, goldState, first);
        history.push(...done.entries);
        last = done.seen;
      }
    }
  } finally {
    await composed.close();
  }
  return records;
}
