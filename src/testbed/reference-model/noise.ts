import type { ActArgsOut } from './policy.js';
import type { PromptStep } from './prompt-parse.js';
import type { ParsedScreen } from './screen-parse.js';

/**
 * Seeded mistakes of the kinds real models make, so the recovery machinery is measured: a wrong
 * element (with the intended expectation, as a mis-grounded model would write), an invented id, an
 * off-target point without an id, malformed JSON, repeating a failing action, and claiming done
 * before the plan is finished.
 */

export type NoiseKind =
  | 'wrong_element'
  | 'invented_id'
  | 'off_target_point'
  | 'malformed_json'
  | 'repeat_failure'
  | 'early_done';
export const NOISE_KINDS: readonly NoiseKind[] = [
  'wrong_element',
  'invented_id',
  'off_target_point',
  'malformed_json',
  'repeat_failure',
  'early_done',
];

export interface NoisyReply {
  /** The function-call arguments as text (possibly broken JSON). */
  text: string;
  noise?: NoiseKind;
}

export interface NoiseInput {
  args: ActArgsOut;
  screen: ParsedScreen;
  history: PromptStep[];
  /** Whether subgoals after the current one remain. */
  moreSubgoals: boolean;
}

export function applyNoise(input: NoiseInput, rate: number, random: () => number): NoisyReply {
  const { args, screen, history } = input;
  if (rate <= 0 || random() >= rate) return { text: JSON.stringify(args) };
  const failing = [...history].reverse().find((h) => !h.ok && /\[[0-9a-f]{8}/.test(h.action));
  const others = screen.elements.filter((e) => e.id !== args.target_id && e.verb !== 'scroll');
  const applicable = NOISE_KINDS.filter((k) => {
    if (k === 'wrong_element') return typeof args.target_id === 'string' && others.length > 0;
    if (k === 'off_target_point') return typeof args.target_id === 'string' && args.tool === 'tap';
    if (k === 'repeat_failure') return failing !== undefined;
    if (k === 'early_done') return input.moreSubgoals && args.tool !== 'done';
    return true;
  });
  const kind = applicable[Math.floor(random() * applicable.length)] ?? 'malformed_json';
  const out: Record<string, unknown> = { ...args };
  switch (kind) {
    case 'wrong_element': {
      const other = others[Math.floor(random() * others.length)];
      out.target_id = other?.id;
      break;
    }
    case 'invented_id':
      out.target_id = Math.floor(random() * 0xffffffff)
        .toString(16)
        .padStart(8, '0');
      if (!out.expect) out.tool = 'tap';
      if (!out.expect) out.expect = 'page_changes';
      break;
    case 'off_target_point': {
      const el = screen.elements.find((e) => e.id === args.target_id);
      const dx = Math.round((random() - 0.5) * 60);
      const dy = Math.round((random() - 0.5) * 30);
      out.target_id = undefined;
      out.point = { x: (el?.x ?? 500) + dx, y: (el?.y ?? 500) + dy };
      break;
    }
    case 'malformed_json': {
      const s = JSON.stringify(args);
      return { text: s.slice(0, Math.max(1, Math.floor(s.length * 0.6))), noise: kind };
    }
    case 'repeat_failure': {
      const m = /^(\w+) \[([0-9a-f]{8}(?:~\d+)?)\]/.exec(failing?.action ?? '');
      out.tool = m?.[1] ?? 'tap';
      out.target_id = m?.[2];
      out.thought = 'try that again';
      out.expect = 'page_changes';
      break;
    }
    case 'early_done':
      for (const k of Object.keys(out)) delete out[k];
      Object.assign(out, { thought: 'looks finished', tool: 'done' });
      break;
  }
  return { text: JSON.stringify(out), noise: kind };
}
