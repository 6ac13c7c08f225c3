import { describe, expect, it } from 'vitest';
import { isLauncherPackage } from '../../src/device/app-label.js';
import { buildDecideMessages, buildPlanMessages } from '../../src/planner/prompt/builders.js';
import { formatApps, MAX_APPS } from '../../src/planner/prompt/format.js';
import type { DecideInput } from '../../src/planner/prompt/types.js';
import { parsePrompt } from '../../src/testbed/reference-model/read-request.js';
import { REGISTRY } from '../../src/tools/index.js';

/** The Apps line: the launcher's app names, in the plan prompt and on the home screen's steps. */

const decide = (over: Partial<DecideInput> = {}): DecideInput => ({
  goal: 'Order a latte.',
  plan: [{ text: 'open FoodShop', done: false }],
  current: 0,
  screen: 'app com.android.launcher3/.Launcher "Home"',
  screenIsDelta: false,
  aspect: 0.45,
  history: [],
  banned: [],
  tools: ['tap', 'launch_app', 'done'],
  ...over,
});

/** The names as a reader of the prompt (the reference model) takes them back from an Apps line. */
const parseApps = (v: string) => parsePrompt(`Apps: ${v}`).apps;

describe('formatApps, read back', () => {
  it('joins the names once each, in order; a comma inside a name cannot split it', () => {
    const v = formatApps(['Settings', 'FoodShop', 'settings', 'Files, by Google', ' 美食店 ', '']);
    expect(v).toBe('Settings, FoodShop, Files by Google, 美食店');
    expect(parseApps(v)).toEqual(['Settings', 'FoodShop', 'Files by Google', '美食店']);
  });

  it(`caps the line at ${MAX_APPS} names and says how many are left out`, () => {
    const names = Array.from({ length: MAX_APPS + 7 }, (_, i) => `App${i}`);
    const v = formatApps(names);
    expect(v.endsWith(' (+7 more)')).toBe(true);
    expect(parseApps(v)).toEqual(names.slice(0, MAX_APPS));
  });
});

describe('the Apps line in the prompts', () => {
  it('the plan prompt lists the apps after the goal and says a named app is one subgoal', () => {
    const m = buildPlanMessages({
      goal: 'Order a latte.',
      screen: 'app com.android.launcher3/.Launcher "Home"',
      aspect: 0.45,
      apps: ['Settings', 'FoodShop', 'Phone'],
    });
    expect(m.user).toMatchInlineSnapshot(`
      "Goal: Order a latte.

      Apps: Settings, FoodShop, Phone

      Screen (aspect 0.45):
      <screen untrusted>
      app com.android.launcher3/.Launcher "Home"
      </screen>"
    `);
    expect(m.system).toMatch(/Apps are the phone's apps by the name launch_app opens, wherever the icon is/);
    // Without a list (an older helper) there is no line, and no word about it.
    const bare = buildPlanMessages({ goal: 'x', screen: '', aspect: 0.45 });
    expect(bare.user).not.toMatch(/Apps:/);
    expect(bare.system).not.toMatch(/Apps/);
  });

  it('a step prompt shows the line right before the screen when given, and launch_app says it takes a name from Apps', () => {
    const m = buildDecideMessages(decide({ apps: ['Settings', 'FoodShop'] }), REGISTRY.catalog);
    expect(m.user).toContain('Apps: Settings, FoodShop\n\nScreen:');
    expect(m.system).toContain('launch_app(package=app name as Apps lists it');
    expect(buildDecideMessages(decide(), REGISTRY.catalog).user).not.toMatch(/Apps:/);
  });

  it('the reference model reads the names back (its own reader), and an absent line as none', () => {
    const m = buildDecideMessages(decide({ apps: ['Settings', 'FoodShop', '美食店'] }), REGISTRY.catalog);
    expect(parsePrompt(m.user).apps).toEqual(['Settings', 'FoodShop', '美食店']);
    const p = buildPlanMessages({ goal: 'x', screen: '', aspect: 0.45, apps: ['Notes'] });
    expect(parsePrompt(p.user).apps).toEqual(['Notes']);
    expect(parsePrompt(buildDecideMessages(decide(), REGISTRY.catalog).user).apps).toEqual([]);
  });
});

describe('isLauncherPackage', () => {
  it('knows home screens by their packages, and not apps that merely mention home', () => {
    for (const p of [
      'com.android.launcher3',
      'com.google.android.apps.nexuslauncher',
      'com.sec.android.app.launcher',
      'com.miui.home',
      'com.huawei.android.launcher',
    ])
      expect(isLauncherPackage(p), p).toBe(true);
    for (const p of [
      'com.android.settings',
      'com.foodshop',
      'com.homeapp.tasks',
      'com.google.android.apps.chromecast.app',
    ])
      expect(isLauncherPackage(p), p).toBe(false);
  });
});
