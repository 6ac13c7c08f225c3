import type { Clock } from '../../core/clock.js';
import type { View } from './kit/view.js';
import type { World } from './world.js';

/**
 * How an app plugs into the virtual phone. An app is a factory `(deps) => App`; its state lives in
 * the world (what checkers read) or in the closure (UI state such as a form's draft). The engine
 * calls `render` on every screen revision and lays the result out.
 */

export interface Route {
  activity: string;
  params: Record<string, unknown>;
}

export interface AppScreen {
  /** Short activity name, e.g. `.MenuActivity`. */
  activity: string;
  title: string;
  root: View;
  /** While true the engine draws a loading state (a spinner, no content nodes). */
  loading?: boolean;
}

export interface DialogButton {
  text: string;
  id?: string;
  onTap: () => void;
}

export interface DialogSpec {
  /** `system` dialogs (runtime permission) belong to the permission controller package. */
  kind: 'app' | 'system';
  title: string;
  message?: string;
  buttons: DialogButton[];
}

export interface Banner {
  title: string;
  text: string;
  /** The package whose notification it is; tapping it opens that app. */
  package: string;
  onTap?: () => void;
}

export interface AppContext {
  readonly world: World;
  readonly clock: Clock;
  /** The phone's UI language (default 'en'). */
  readonly locale?: 'en' | 'zh';
  /** Seeded random in [0, 1). */
  random(): number;
  /** Push a screen; the engine runs a ~300 ms transition. */
  navigate(activity: string, params?: Record<string, unknown>): void;
  /** Replace the top screen (no back entry). */
  replace(activity: string, params?: Record<string, unknown>): void;
  /** Pop the top screen; leaving the first screen goes home. */
  back(): void;
  showDialog(d: DialogSpec): void;
  closeDialog(): void;
  /** A toast, short (2 s) or long (3.5 s), on the screen the current handler lands on. */
  toast(text: string, length?: 'short' | 'long'): void;
  notify(b: Banner): void;
  /** Start an app; with `activity` + `params` it opens that screen, as an explicit intent with extras does (a share). */
  launch(pkg: string, activity?: string, params?: Record<string, unknown>): void;
  /** Re-render after a state change made outside an input handler (timers). */
  invalidate(): void;
  /** Run `fn` after `ms` on the phone's clock (content that appears late, loading that ends). */
  later(ms: number, fn: () => void): void;
}

export interface App {
  package: string;
  label: string;
  labelZh?: string;
  iconColor: string;
  glyph: string;
  /** All activities; the first is the launcher activity. */
  activities: string[];
  /** Hidden from the launcher (system UI, permission controller). */
  hidden?: boolean;
  /** Fill this app's part of a fresh world (seeded: same seed, same data). */
  seedWorld?(world: World, random: () => number): void;
  /** Called on every cold launch (first-launch dialogs, resetting UI state). */
  onLaunch?(ctx: AppContext): void;
  render(route: Route, ctx: AppContext): AppScreen;
  /** Handle back inside the app; return false to let the engine pop the screen. */
  onBack?(route: Route, ctx: AppContext): boolean;
}

export type AppFactory = () => App;
