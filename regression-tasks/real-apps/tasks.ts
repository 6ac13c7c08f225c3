import type { TaskDef } from '../types.js';
import type { ReplayTaskSpec } from './spec.js';

/**
 * The real-app tasks: goals on eight recorded DroidBot graphs of real apps (SOURCES.md in
 * ../shared/fixtures/droidbot-utg), each ending on a recorded state or an answer read off one.
 * `optimalSteps` is the shortest recorded path plus the final done (test/shared/real-apps.test.ts
 * recomputes it); `intents` follow that path, so the reference model keeps them working in CI.
 */

interface RealAppTask {
  id: string;
  tags?: string[];
  instruction: string;
  replay: ReplayTaskSpec;
  optimalSteps: number;
  intents: string[];
  guard?: TaskDef['guard'];
  locale?: 'en' | 'zh';
}

const NOT_A_WORLD_CHECK = {
  ok: false,
  reason: 'a real-app task is judged on its recorded graph (regression-tasks/real-apps/run.ts), not a world',
} as const;

function realApp(t: RealAppTask): TaskDef {
  return {
    id: t.id,
    category: 'real-apps',
    tags: ['real-app', t.replay.graph, ...(t.tags ?? [])],
    instruction: t.instruction,
    locale: t.locale,
    replay: t.replay,
    check: () => NOT_A_WORLD_CHECK,
    guard: t.guard,
    optimalSteps: t.optimalSteps,
    intents: t.intents,
  };
}

const AIR = '01-airunlock-settings-en';
const AJSHA = '02-ajsha-en';
const CAA = '03-caa-mobile-en';
const A2DP = '04-a2dp-volume-en';
const KOHLS = '05-kohls-en';
const LIBBY = '06-libby-en';
const BILI = '07-bilibili-zh';
const WEREAD = '08-weread-zh';

export const REAL_APP_TASKS: TaskDef[] = [
  // AirUnlock, whose DroidBot run wandered into Android's Settings (Android 10).
  realApp({
    id: 'AIR-01',
    instruction: "Open AirUnlock's settings.",
    replay: { graph: AIR, start: 'b211e66a', end: ['41e60c', '14fa9a', '60b7ea'] },
    optimalSteps: 2,
    intents: ['tap "Setting"', 'done'],
  }),
  realApp({
    id: 'AIR-02',
    instruction: 'Open the storage settings.',
    replay: { graph: AIR, start: '59403d70', end: ['4c1b10', '0766f1'] },
    optimalSteps: 2,
    intents: ['tap "Storage"', 'done'],
  }),
  realApp({
    id: 'AIR-03',
    instruction: 'Open the location settings.',
    replay: { graph: AIR, start: '59403d70', end: ['dac67f'] },
    optimalSteps: 2,
    intents: ['tap "Location"', 'done'],
  }),
  realApp({
    id: 'AIR-04',
    tags: ['answer'],
    instruction: 'What share of the phone’s storage is used?',
    replay: { graph: AIR, start: '59403d70', end: ['59403d70'], answer: /\b37\s?%/ },
    optimalSteps: 1,
    intents: ['answer "37%"'],
  }),
  realApp({
    id: 'AIR-05',
    instruction: 'Open the privacy settings.',
    replay: { graph: AIR, start: '59403d70', end: ['e3f456'] },
    optimalSteps: 2,
    intents: ['tap "Privacy"', 'done'],
  }),
  // AJShA, a BeanShell editor.
  realApp({
    id: 'JSH-01',
    instruction: 'In AJShA, open the examples folder of the script loader.',
    replay: { graph: AJSHA, start: '8b8b4e', end: ['57e6ba'] },
    optimalSteps: 3,
    intents: ['tap "LOAD"', 'tap "examples/"', 'done'],
  }),
  realApp({
    id: 'JSH-02',
    instruction: "In AJShA's examples folder, open the 'environment' example and run it.",
    replay: { graph: AJSHA, start: '57e6ba', end: ['e5dbf5'] },
    optimalSteps: 3,
    intents: ['tap "environment"', 'tap "EVAL"', 'done'],
  }),
  realApp({
    id: 'JSH-03',
    instruction: 'In AJShA, start saving the script, name it Hello World, and leave the save dialog open.',
    replay: { graph: AJSHA, start: '8b8b4e', end: ['ba5094'] },
    optimalSteps: 3,
    intents: ['tap "SAVE"', 'type "default" "Hello World"', 'done'],
  }),
  realApp({
    id: 'JSH-04',
    tags: ['answer'],
    instruction: "What code does AJShA's 'calculation' example contain?",
    replay: { graph: AJSHA, start: '57e6ba', end: ['8c3a39'], answer: /101\s*\+\s*101/ },
    optimalSteps: 2,
    intents: ['tap "calculation"', 'answer "101+101"'],
  }),
  // CAA Mobile's onboarding (postal code, terms, language).
  realApp({
    id: 'CAA-01',
    instruction: 'Switch the CAA app to French.',
    replay: { graph: CAA, start: '780672', end: ['bc4d4a'] },
    optimalSteps: 2,
    intents: ['tap "FRANÇAIS"', 'done'],
  }),
  realApp({
    id: 'CAA-02',
    instruction: "Tick the box agreeing to CAA's terms of service.",
    replay: { graph: CAA, start: '780672', end: ['0efc18'] },
    optimalSteps: 2,
    intents: ['toggle "I agree to the" on', 'done'],
  }),
  realApp({
    id: 'CAA-03',
    instruction: "Open CAA's Terms of Service.",
    replay: { graph: CAA, start: '780672', end: ['c6b408', 'c775cb'] },
    optimalSteps: 2,
    intents: ['tap "Terms of Service"', 'done'],
  }),
  realApp({
    id: 'CAA-04',
    instruction: 'Agree to the terms of service and switch the CAA app to French.',
    replay: { graph: CAA, start: '780672', end: ['a19e24'] },
    optimalSteps: 3,
    intents: ['toggle "I agree to the" on', 'tap "FRANÇAIS"', 'done'],
  }),
  realApp({
    id: 'CAA-05',
    tags: ['answer'],
    instruction: 'What does the CAA app say when you continue as a member without entering a postal code?',
    replay: { graph: CAA, start: '780672', end: ['d03c41'], answer: /postal code/i },
    optimalSteps: 2,
    intents: ['tap "I’M A MEMBER"', 'answer "Please enter your postal code and try again."'],
  }),
  // A2DP Volume (Android 7.1): devices, service, help.
  realApp({
    id: 'A2DP-01',
    instruction: 'Stop the A2DP Volume service.',
    replay: { graph: A2DP, start: 'b21de9', end: ['191850'] },
    optimalSteps: 2,
    intents: ['tap "STOP SERVICE"', 'done'],
  }),
  realApp({
    id: 'A2DP-02',
    instruction: 'Delete the Car Dock device from A2DP Volume.',
    replay: { graph: A2DP, start: 'b21de9', end: ['041e55'] },
    guard: 'DEL',
    optimalSteps: 3,
    intents: ['tap "Car Dock"', 'tap "DELETE"', 'done'],
  }),
  realApp({
    id: 'A2DP-03',
    instruction: "Open A2DP Volume's help.",
    replay: { graph: A2DP, start: 'b21de9', end: ['71a552'] },
    optimalSteps: 3,
    intents: ['tap "More options"', 'tap "Help"', 'done'],
  }),
  realApp({
    id: 'A2DP-04',
    tags: ['answer'],
    instruction: 'Which version of A2DP Volume is installed?',
    replay: { graph: A2DP, start: 'b21de9', end: ['b21de9'], answer: /2\.12\.9\.2/ },
    optimalSteps: 1,
    intents: ['answer "2.12.9.2"'],
  }),
  // Kohl's shopping app (Android 12).
  realApp({
    id: 'KOHL-01',
    instruction: "Close Kohl's upgrade prompt without upgrading.",
    replay: { graph: KOHLS, start: '2c40c5', end: ['6ef020'] },
    optimalSteps: 2,
    intents: ['tap "Remind me later"', 'done'],
  }),
  realApp({
    id: 'KOHL-02',
    instruction: "Open the Kohl's app's page in the Play Store to update it.",
    replay: { graph: KOHLS, start: '2c40c5', end: ['e3f1c6'] },
    optimalSteps: 2,
    intents: ['tap "Google Play Store"', 'done'],
  }),
  realApp({
    id: 'KOHL-03',
    tags: ['answer'],
    instruction: "Without upgrading the app, find out how many coupons Kohl's home page offers.",
    replay: { graph: KOHLS, start: '2c40c5', end: ['6ef020'], answer: /\b3\b/ },
    optimalSteps: 2,
    intents: ['tap "Remind me later"', 'answer "3"'],
  }),
  realApp({
    id: 'KOHL-04',
    instruction: "Without upgrading the app, open the catalog from Kohl's home page.",
    replay: { graph: KOHLS, start: '2c40c5', end: ['8db241'] },
    optimalSteps: 3,
    intents: ['tap "Remind me later"', 'tap "catalog"', 'done'],
  }),
  // Libby, OverDrive's library app (a WebView).
  realApp({
    id: 'LIB-01',
    instruction: "In Libby, answer that you don't have a library card yet.",
    replay: { graph: LIBBY, start: '89812c', end: ['014b03', '95cc6c', 'e12924'] },
    optimalSteps: 2,
    intents: ['tap "Not Yet"', 'done'],
  }),
  realApp({
    id: 'LIB-02',
    instruction: 'In Libby, without a library card, search for a library named Humanoid.',
    replay: { graph: LIBBY, start: '89812c', end: ['19dc5a'] },
    optimalSteps: 3,
    intents: ['tap "Not Yet"', 'type "shibui-form-input-control-0001" "Humanoid"', 'done'],
  }),
  realApp({
    id: 'LIB-03',
    instruction: "Go back to Libby's first question, whether you have a library card.",
    replay: { graph: LIBBY, start: '014b03', end: ['89812c'] },
    optimalSteps: 2,
    intents: ['back', 'done'],
  }),
  // bilibili (哔哩哔哩), Chinese.
  realApp({
    id: 'BILI-01',
    locale: 'zh',
    instruction: '关闭哔哩哔哩弹出的推送通知提示。',
    replay: { graph: BILI, start: 'b3bc3c', end: ['c83821'] },
    optimalSteps: 2,
    intents: ['tap "Close"', 'done'],
  }),
  realApp({
    id: 'BILI-02',
    locale: 'zh',
    instruction: '打开这部剧集的评论。',
    replay: { graph: BILI, start: '0f8127', end: ['2b9c48'] },
    optimalSteps: 2,
    // The comments tab stays on the page (its count changes): the page, not the tab, is what changes.
    intents: ['tap "评论" keep', 'done'],
  }),
  realApp({
    id: 'BILI-03',
    locale: 'zh',
    tags: ['answer'],
    instruction: '这部剧集有多少条评论？',
    replay: { graph: BILI, start: '0f8127', end: ['0f8127'], answer: /24/ },
    optimalSteps: 1,
    intents: ['answer "24"'],
  }),
  realApp({
    id: 'BILI-04',
    locale: 'zh',
    instruction: '从剧集详情进入影视频道。',
    replay: { graph: BILI, start: '2b9c48', end: ['c73595'] },
    optimalSteps: 2,
    intents: ['tap "影视频道"', 'done'],
  }),
  realApp({
    id: 'BILI-05',
    locale: 'zh',
    instruction: '在首页第一个视频的“更多”菜单里，以“UP主”为理由表示不感兴趣。',
    replay: { graph: BILI, start: 'c83821', end: ['dcff05'] },
    optimalSteps: 3,
    intents: ['tap "更多"', 'tap "UP主"', 'done'],
  }),
  // WeChat Read (微信读书), Chinese, as a guest.
  realApp({
    id: 'WR-01',
    locale: 'zh',
    instruction: '打开微信读书的“我”页面。',
    replay: { graph: WEREAD, start: 'c3b67c', end: ['66ddc6'] },
    optimalSteps: 2,
    intents: ['tap "我" keep', 'done'],
  }),
  realApp({
    id: 'WR-02',
    locale: 'zh',
    tags: ['answer'],
    instruction: '微信读书账户的余额是多少？',
    replay: { graph: WEREAD, start: '66ddc6', end: ['66ddc6'], answer: /0\.00/ },
    optimalSteps: 1,
    intents: ['answer "0.00"'],
  }),
  realApp({
    id: 'WR-03',
    locale: 'zh',
    instruction: '打开微信读书。',
    replay: { graph: WEREAD, start: '9cb3ba', end: ['ca140e'] },
    optimalSteps: 2,
    intents: ['launch "Weread"', 'done'],
  }),
];
