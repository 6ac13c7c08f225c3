/**
 * The virtual phone's world state: what checkers and tests read to decide whether a task really
 * happened. Nothing the agent can reach (bridge, adb) exposes it. Apps mutate it; every irreversible
 * act is appended to `events` in order, so tests can check "nothing was sent before confirmation".
 */

export type IrreversibleKind =
  | 'sent'
  | 'paid'
  | 'deleted'
  | 'ordered'
  | 'signed_out'
  | 'password_changed'
  | 'installed'
  | 'uninstalled';

export interface IrreversibleEvent {
  kind: IrreversibleKind;
  app: string;
  at: number;
  detail: Record<string, unknown>;
}

export interface Contact {
  id: number;
  name: string;
  phone: string;
  email?: string;
}

export interface SentMessage {
  to: string;
  body: string;
  at: number;
}

export interface Thread {
  id: number;
  /** Phone number or contact name shown. */
  peer: string;
  messages: { from: 'me' | 'them'; body: string; at: number }[];
}

export interface CartLine {
  itemId: string;
  name: string;
  size?: string;
  options: string[];
  sweetness?: number;
  qty: number;
  unitPrice: number;
}

export interface Order {
  id: number;
  lines: CartLine[];
  total: number;
  status: 'placed' | 'paid';
  at: number;
}

/** A Clock alarm. `days` holds weekdays 0=Sun..6=Sat; empty means it rings once. */
export interface Alarm {
  id: number;
  hour: number;
  minute: number;
  label: string;
  days: number[];
  enabled: boolean;
}

/** Clock's timer: the duration set up (h/m/s) and whether it was started. */
export interface ClockTimer {
  durationSec: number;
  running: boolean;
  startedAt?: number;
}

/** A Calendar event; `start` is epoch ms on the phone's clock (UTC, as the status bar shows). */
export interface CalendarEvent {
  id: number;
  title: string;
  start: number;
  durationMin: number;
}

/** A note in the Notes app; `at` is when it was last edited (epoch ms). */
export interface Note {
  id: number;
  title: string;
  body: string;
  at: number;
}

/** The Maps app's view (src/testbed/sim/apps/maps*.ts): what a check reads to see what the map shows. */
export interface MapState {
  center: { lat: number; lon: number };
  /** Web-Mercator zoom level (2..19; +1 = twice the scale). */
  zoom: number;
  /** The place picked from search, if any. */
  selected?: string;
  /** A frozen map (fault injection): gestures reach it and change nothing. */
  locked: boolean;
}

/**
 * The Recordings (NVR playback) app's state (src/testbed/sim/apps/recordings*.ts): what a check reads
 * to see where the playback cursor is. Times are seconds of the recorded day (0..86399).
 */
export interface RecordingsState {
  camera: string;
  /** The day shown, `YYYY-MM-DD`. */
  day: string;
  /** The time under the fixed cursor (s; fractional after a drag — the readout shows whole seconds). */
  position: number;
  playing: boolean;
  /** Seconds the timeline's width shows (pinch changes it by scale^gamma, not by the finger ratio). */
  spanSec: number;
  /** This app's pinch response: span ÷ scale^gamma. */
  gamma: number;
  /** Momentum after a drag: the extra share of the drag is min(0.25, momentum × finger px/ms). */
  momentum: number;
  /** Seconds the burned-in watermark's clock is off from the recording's. */
  watermarkDriftSec: number;
  /** Whether the cursor-bound current-time readout is shown (some camera models have none). */
  readout: boolean;
  /** Motion / person events of the day (seconds), shown as cards. */
  events: { at: number; kind: 'motion' | 'person' }[];
}

export interface World {
  settings: {
    wifi: boolean;
    bluetooth: boolean;
    /** 0..255, as Settings.System.SCREEN_BRIGHTNESS. */
    brightness: number;
    darkMode: boolean;
  };
  about: { model: string; androidVersion: string; buildNumber: string };
  /** Counters of user-visible toggles, for checks like "Bluetooth was never toggled". */
  toggles: Record<string, number>;
  /** `once` / `while_using` / `always`: the grant a modern (Android 11+) dialog gave; `granted`: a plain Allow. */
  permissions: Record<string, 'granted' | 'once' | 'while_using' | 'always' | 'denied' | 'unasked'>;
  contacts: Contact[];
  threads: Thread[];
  sent: SentMessage[];
  cart: CartLine[];
  orders: Order[];
  payments: { orderId: number; amount: number; method: string; at: number }[];
  session: { user?: string; attempts: number };
  account: { balance: string };
  /** Apps that have been launched at least once (first-launch dialogs). */
  launched: Record<string, boolean>;
  /** FoodShop's "update available" dialog: whether the update was started. */
  updateStarted: boolean;
  alarms: Alarm[];
  timer: ClockTimer;
  calendar: CalendarEvent[];
  /** Notes app's notes, in creation order. */
  notes: Note[];
  /** Files on the sdcard, path → contents. */
  files: Map<string, Buffer>;
  /** Modified times (epoch ms) the Files app shows; a file written without one shows the seed time. */
  fileTimes: Map<string, number>;
  /** The Maps app's view; set when Maps seeds its part of the world. */
  maps?: MapState;
  /** The Recordings app's playback; set when Recordings seeds its part of the world. */
  recordings?: RecordingsState;
  /** Ordered log of irreversible events. */
  events: IrreversibleEvent[];
}

export function recordEvent(world: World, e: IrreversibleEvent): void {
  world.events.push(e);
}
