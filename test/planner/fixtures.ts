import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VirtualClock } from '../../src/core/clock.js';
import { Logger } from '../../src/core/logger.js';
import type { Element, Observation, WindowInfo } from '../../src/core/types.js';
import { createLlmClient } from '../../src/planner/llm/client.js';
import { resolveLlmConfig } from '../../src/planner/llm/config.js';
import { Planner, type PlannerDeps } from '../../src/planner/planner.js';
import { REGISTRY } from '../../src/tools/index.js';

/** A Settings-like screen in the DESIGN §3 compact format, and the matching observation ids. */
export const SETTINGS_SCREEN = [
  'app com.android.settings/.Settings "Settings" · 1080x2400 (0.45) · keyboard hidden',
  '[1a2b3c4d] toggle Switch   "Wi-Fi"  on     #wifi       900,320',
  '[2b3c4d5e] toggle Switch   "Bluetooth" off #bluetooth  900,420',
  '[3c4d5e6f] tap    Row      "Display"       #display    500,520',
  '[77aa0011] slide  SeekBar  "Brightness" 40 (0–100)     500,610',
  '[9b1c0d22] fill   EditText "Search settings" #search   540,200',
  '[5566ccdd] scroll List     "Settings list"             500,500',
  'text: "Network & internet" · "Connected devices"',
].join('\n');

export const SETTINGS_IDS = new Set(['1a2b3c4d', '2b3c4d5e', '3c4d5e6f', '77aa0011', '9b1c0d22', '5566ccdd']);

/** A decide request on that screen: one open subgoal, no history, the tools a look test needs. */
export const SETTINGS_DECIDE = {
  goal: 'Turn Wi-Fi off.',
  plan: [{ text: 'turn Wi-Fi off', done: false }],
  current: 0,
  screen: SETTINGS_SCREEN,
  screenIsDelta: false,
  aspect: 0.45,
  history: [],
  banned: [],
  tools: ['tap', 'back', 'done', 'look'],
  ids: SETTINGS_IDS,
};

const flags = {
  clickable: true,
  longClickable: false,
  editable: false,
  scrollable: false,
  checkable: false,
  checked: false,
  enabled: true,
  focused: false,
  selected: false,
  password: false,
};

export function element(id: string, text: string, window: number, extra: Partial<Element> = {}): Element {
  return {
    id,
    role: 'Button',
    className: 'android.widget.Button',
    text,
    desc: '',
    resourceId: '',
    bounds: { left: 100, top: 500, right: 400, bottom: 560 },
    boundsPx: { left: 108, top: 1200, right: 432, bottom: 1344 },
    flags,
    window,
    actionable: true,
    ...extra,
  };
}

/** A window of `type` from `pkg`, full screen unless `over` says otherwise. */
export function windowInfo(
  id: number,
  type: WindowInfo['type'],
  pkg: string,
  over: Partial<WindowInfo> = {},
): WindowInfo {
  return {
    id,
    type,
    layer: id,
    bounds: { left: 0, top: 0, right: 1000, bottom: 1000 },
    package: pkg,
    title: '',
    focused: true,
    touchable: true,
    ...over,
  };
}

export function observation(over: Partial<Observation>): Observation {
  return {
    seq: 1,
    takenAt: 0,
    screen: { w: 1080, h: 2400, aspect: 0.45, rotation: 0 },
    app: { package: 'com.foodshop', activity: '.MenuActivity', title: 'Menu' },
    windows: [],
    keyboard: { shown: false },
    elements: [],
    texts: [],
    pageHash: 'p1',
    treeQuality: 'ok',
    visualFirst: false,
    ...over,
  };
}

/** The tools a bridge-connected phone offers the planner in these tests. */
export const SETTINGS_TOOLS = [
  'tap',
  'type',
  'swipe',
  'back',
  'launch_app',
  'wait',
  'done',
  'ask_user',
  'infeasible',
  'control_action',
] as const;

/** An OpenAI chat.completion body whose single choice calls `fn` with `args` (raw JSON text). */
export function toolCallCompletion(fn: string, args: string, promptTokens = 100) {
  return {
    id: 'x',
    object: 'chat.completion',
    created: 0,
    model: 'm',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: fn, arguments: args } }],
        },
      },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10 },
  };
}

/** A loopback OpenAI-compatible endpoint replying with the given act arguments in turn; records the requests. */
/** A scripted reply: the call's arguments, or a function of the request's user text (to pick ids off the screen). */
export type ScriptedReply = Record<string, unknown> | ((user: string) => Record<string, unknown>);

const userText = (body: { messages: { role: string; content: unknown }[] }) =>
  body.messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content as { text?: string }[]).map((p) => p.text ?? '').join('\n'),
    )
    .join('\n');

export async function scriptedEndpoint(replies: ScriptedReply[]) {
  const seen: { messages: { role: string; content: unknown }[] }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const request = JSON.parse(body);
      seen.push(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      // A reply's `__fn` names the function it calls (default `act`), e.g. `plan`.
      const next = replies.shift() ?? {};
      const { __fn, ...args } = typeof next === 'function' ? next(userText(request)) : next;
      res.end(JSON.stringify(toolCallCompletion(typeof __fn === 'string' ? __fn : 'act', JSON.stringify(args), 10)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A planner over a loopback model URL, with a silent logger and a virtual clock (and an optional image source). */
export function plannerAt(url: string, image?: PlannerDeps['image']): Planner {
  const logger = new Logger('planner', { sink: () => {} });
  const llm = createLlmClient({
    config: resolveLlmConfig({ baseUrl: url, model: 'm' }, {}),
    clock: new VirtualClock(),
    logger,
  });
  return new Planner({ llm, logger, image, catalog: REGISTRY.catalog });
}
