import type { RunResult } from '../../agent/types.js';
import type { WireNode, WireSnapshot } from '../../device/protocol/wire.js';
import type { CatalogEntry } from '../../testbed/reference-model/intents.js';

/**
 * verify-device's tasks on the stock Settings app: read-only or self-reverting (nothing pays, sends,
 * deletes or touches an account). Each has the reference model's intents — so `--model reference`
 * runs them on the virtual phone — and a check that needs no reference: the run's result against
 * what the phone itself reports afterwards (getprop, the helper's tree).
 */

export interface PhoneFacts {
  /** `getprop ro.build.version.release`. */
  androidVersion: string;
  /** The helper's tree now. */
  snapshot(): Promise<WireSnapshot | undefined>;
}

export interface TaskCheck {
  ok: boolean;
  detail: string;
}

export interface VerifyTask {
  id: string;
  instruction: string;
  intents: string[];
  check(run: RunResult, phone: PhoneFacts): Promise<TaskCheck>;
}

const SETTINGS = /settings|设置/i;
const ABOUT = /^(about (phone|device|tablet)|关于(手机|本机|设备))/i;
const DARK = /dark (theme|mode)|深色|暗色/i;

const label = (n: WireNode) => n.text || n.desc;

function finished(run: RunResult): TaskCheck | undefined {
  return run.status === 'done'
    ? undefined
    : { ok: false, detail: `the run ended ${run.status}${run.reason ? `: ${run.reason}` : ''}` };
}

export const VERIFY_TASKS: readonly VerifyTask[] = [
  {
    id: 'VERIFY-VERSION',
    instruction: 'What Android version does this phone run? Reply with the number only.',
    intents: ['launch "Settings"', 'tap "About phone"', 'read "Android version"'],
    async check(run, phone) {
      const bad = finished(run);
      if (bad) return bad;
      const said = (run.answer ?? '').trim();
      return said.includes(phone.androidVersion)
        ? { ok: true, detail: `answered ${said}, as getprop says` }
        : { ok: false, detail: `answered "${said}", getprop ro.build.version.release says ${phone.androidVersion}` };
    },
  },
  {
    id: 'VERIFY-DISPLAY',
    instruction: 'Open the Display settings, then go back to the Settings list.',
    intents: ['launch "Settings"', 'tap "Display"', 'back', 'done'],
    async check(run, phone) {
      const bad = finished(run);
      if (bad) return bad;
      const s = await phone.snapshot();
      return s && SETTINGS.test(s.foreground.package)
        ? { ok: true, detail: `back in ${s.foreground.package}` }
        : { ok: false, detail: `ended in ${s?.foreground.package ?? 'an unreadable screen'}, not Settings` };
    },
  },
  {
    id: 'VERIFY-DARK',
    instruction: 'Turn the dark theme on, then turn it off again.',
    intents: ['launch "Settings"', 'tap "Display"', 'toggle "Dark theme" on', 'toggle "Dark theme" off', 'done'],
    async check(run, phone) {
      const s = await phone.snapshot();
      const sw = s?.nodes.find((n) => n.flags.visible && n.flags.checkable && DARK.test(label(n)));
      // Whatever the run did, the theme must be off again: the task reverts itself.
      if (sw?.flags.checked)
        return { ok: false, detail: 'the dark theme was left on: turn it off in Settings → Display' };
      const bad = finished(run);
      if (bad) return bad;
      return sw
        ? { ok: true, detail: `"${label(sw)}" is off again` }
        : { ok: false, detail: 'the run ended away from the dark-theme switch: its state could not be read back' };
    },
  },
  {
    id: 'VERIFY-ABOUT',
    instruction: 'In Settings, scroll down until About phone is on the screen.',
    intents: ['launch "Settings"', 'answer "About phone"'],
    async check(run, phone) {
      const bad = finished(run);
      if (bad) return bad;
      const s = await phone.snapshot();
      const about = s?.nodes.find((n) => n.flags.visible && ABOUT.test(label(n)));
      return about
        ? { ok: true, detail: `"${label(about)}" is on the screen` }
        : { ok: false, detail: 'no About phone entry is on the screen after the run' };
    },
  },
];

/** The tasks as reference-model catalog entries. */
export function verifyCatalog(): CatalogEntry[] {
  return VERIFY_TASKS.map((t) => ({ id: t.id, instruction: t.instruction, intents: t.intents }));
}
