import type { Element, Observation } from '../../core/types.js';

/**
 * What a control does, beyond what its words match (DESIGN §5; issue 22, real screens): the lexicon
 * says "send" for every "Send …", but a contact page's "Send SMS" opens the composer and sends
 * nothing, while a dialer's "Call number" with 911 in its field places an emergency call, which
 * no lexicon word names and nothing undoes.
 */

/** A value the user typed (not the hint an empty field shows). */
function fieldValue(e: Element): string {
  const t = e.text.trim();
  return t && t !== (e.hint ?? '').trim() ? t : '';
}

/** The page holds a message being written: an edit field with text the user typed. */
function hasComposedText(obs: Observation, window: number): boolean {
  return obs.elements.some((e) => e.flags.editable && e.window === window && fieldValue(e) !== '');
}

/** "Send SMS", "Send email to group", "Send a message": a command naming the medium it starts. */
const SEND_MEDIUM = /^send\s+(?:an?\s+)?(?:sms|mms|text(?:\s+message)?|message|e-?mail|mail)s?\b/i;

/**
 * A "Send <medium>" control on a page where nothing is written yet opens a composer: the send is
 * the composer's own button, held there. With a composed message on the page (Google Messages'
 * send button is "Send SMS"), it sends, and is held as ever.
 */
export function opensComposer(words: string, target: Element, obs: Observation): boolean {
  return SEND_MEDIUM.test(words.trim()) && !hasComposedText(obs, target.window);
}

/**
 * Emergency numbers (ITU and national short codes: North America, EU/GSM, UK, Australia, China,
 * India, France, Italy, Brazil, Japan, Russia, South Africa). Dialled alone, never as part of a
 * longer number.
 */
const EMERGENCY_NUMBERS: ReadonlySet<string> = new Set([
  '911',
  '112',
  '999',
  '000',
  '110',
  '119',
  '120',
  '122',
  '100',
  '101',
  '102',
  '108',
  '15',
  '17',
  '18',
  '113',
  '118',
  '190',
  '192',
  '193',
  '995',
  '997',
  '998',
  '10111',
]);

/** A control that places a call: "Call", "Call number", "Dial", "拨打" — not "Call history". */
const CALL_VERB =
  /^(?:(?:voice\s+|video\s+)?call|dial)\b(?!\s+(?:history|log|logs|settings|blocking|recordings?)\b)|拨打|呼叫|拨号/i;

/** The number a text dials, digits only, when it is nothing but a phone number. */
function dialled(text: string): string | undefined {
  const t = text.trim();
  return /^\+?[\d\s().-]{2,}$/.test(t) ? t.replace(/\D/g, '') : undefined;
}

/**
 * The emergency number a press on `target` would call, if any: a call control whose own words name
 * one ("Call 911", "Emergency call"), or whose page's dial field holds one.
 */
export function emergencyCall(words: string, target: Element, obs: Observation): string | undefined {
  const w = words.trim();
  if (/\bemergency\s+(?:call|services?|number)\b|紧急呼叫|紧急电话/i.test(w)) return w;
  if (!CALL_VERB.test(w)) return undefined;
  const own = w.match(/\d+/g)?.find((d) => EMERGENCY_NUMBERS.has(d));
  if (own) return own;
  for (const e of obs.elements) {
    if (!e.flags.editable || e.window !== target.window) continue;
    const n = dialled(fieldValue(e));
    if (n && EMERGENCY_NUMBERS.has(n)) return n;
  }
  return undefined;
}
