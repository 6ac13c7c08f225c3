import type { Approval } from '../core/approval.js';
import { asListedIds } from '../core/element-ref.js';
import { isLauncherPackage } from '../device/app-label.js';
import { hasTimeline } from '../perception/timeline.js';
import type { DecideRequest, LookImage } from '../planner/planner.js';
import type { HistoryEntry, Subgoal } from '../planner/prompt/types.js';
import { toolsForScreen } from '../planner/screen-tools.js';
import { actionSequence } from '../tools/action-sequence.js';
import { REGISTRY } from '../tools/index.js';
import { uncoveredHeld } from './held-taps.js';
import type { AgentPorts, Perceived } from './ports.js';

/**
 * The model's request for one step, built from what the loop knows: the one place that decides what
 * a step's prompt holds (screen, held marks, tools for this screen, history, notes, apps), so the
 * loop and the step-wise benchmark (bench:droidtask) ask the model the same way.
 */

export interface DecideContext {
  goal: string;
  plan: Subgoal[];
  /** Index of the [>] subgoal. */
  current: number;
  seen: Perceived;
  /** The recent steps (the loop shows the last five). */
  history: HistoryEntry[];
  /** Signatures banned on this page. */
  banned: string[];
  /** The same bans as the prompt shows them (each action as it was sent); default the signatures. */
  bannedShown?: string[];
  /** The screenshot the last step's `look` took of this screen, for this decision. */
  look?: LookImage;
  notes: string[];
  /** The launcher's app names, when known; shown only on the home screen. */
  apps?: readonly string[];
  hint?: string;
  /** The app map's lines for this page (agent/knowledge.ts). */
  knowledge?: readonly string[];
  /** The run's last approval: the controls it covers are not marked as asking again. */
  approval?: Approval;
  /** No plan yet (Flash): this decision carries it. */
  planPending?: boolean;
  /** The most members of one action_sequence (the task setting); with `bursts`, offered on any screen with controls. */
  maxBurst?: number;
  /** Bursts of certain steps are asked for (Flash). */
  bursts?: boolean;
}

export function decideRequest(ports: AgentPorts, c: DecideContext): DecideRequest {
  const obs = c.seen.obs;
  // The agent's lines name elements by full id; the model reads and sends the listing's ids.
  const ids = obs.elements.map((e) => e.id);
  // What the listing shows an id for (its actionable lines): only these can be mistaken for a history id.
  const onList = obs.elements.filter((e) => e.actionable).map((e) => e.id);
  const listed = (t: string, forms?: Record<string, string>) => asListedIds(t, ids, forms, onList);
  // note and read act on the agent; look only where the model can see images; of those, the
  // tools that apply on this screen (planner/screen-tools.ts; a skill for one kind of screen,
  // seek_timeline, only on it).
  const tools = toolsForScreen(obs, REGISTRY.plannerTools(ports.tools, { vision: !!ports.image }), REGISTRY.catalog, {
    timeline: hasTimeline(obs),
    burst: c.bursts,
  });
  return {
    goal: c.goal,
    plan: c.plan,
    current: c.current,
    screen: c.seen.compact,
    screenIsDelta: false,
    // Marked on their lines: the model knows which taps will ask the user before it taps.
    held: uncoveredHeld(ports.held(obs), c.approval, obs),
    aspect: obs.screen.aspect,
    // Each line keeps the ids as its step's screen listed them (longer only where this one needs it).
    history: c.history.map(({ ids: forms, ...h }) => ({
      ...h,
      action: listed(h.action, forms),
      expect: listed(h.expect, forms),
      ...(h.note !== undefined ? { note: listed(h.note, forms) } : {}),
    })),
    // Each ban as the action was sent; the parse matches the signatures they are keyed by.
    banned: (c.bannedShown ?? c.banned).map((t) => listed(t)),
    bannedSignatures: c.banned,
    tools,
    planPending: c.planPending,
    maxBurst: c.maxBurst,
    // The Burst line goes where a burst can be sent.
    burstLimit: c.bursts && tools.includes(actionSequence.name) ? c.maxBurst : undefined,
    notes: c.notes,
    ...(c.knowledge?.length ? { knowledge: c.knowledge } : {}),
    // Where an app is chosen: on the home screen (and its drawer) only, so other steps pay nothing.
    apps: isLauncherPackage(obs.app.package) ? c.apps : undefined,
    hint: c.hint === undefined ? undefined : listed(c.hint),
    // A dialog still open (an approved action's confirmation) is no moment to be told "call done".
    dialog: obs.windows.find((w) => w.type === 'dialog')?.title,
    image: ports.image ? (req) => ports.image!(c.seen, req) : undefined,
    look: c.look && { ...c.look, of: listed(c.look.of) },
    ids: new Set(obs.elements.map((e) => e.id)),
    visualFirst: obs.visualFirst,
  };
}
