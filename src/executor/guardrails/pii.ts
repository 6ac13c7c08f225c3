/**
 * Personal-data check on typed text (DESIGN §5): phone numbers, e-mail addresses, national ID and
 * card numbers are detected and redacted before anything is logged. Password fields are never
 * logged at all (see `redactTyped`).
 */

export type PiiKind = 'phone' | 'email' | 'id_number' | 'card_number';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
/** Mainland China resident ID: 17 digits + digit or X. */
const CN_ID = /(?<!\d)\d{17}[\dXx](?!\d)/g;
/** 13–19 digits, optionally grouped by spaces or dashes; confirmed with the Luhn check. */
const CARD = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;
/** Mainland mobiles (1[3-9] + 9 digits) and international / grouped numbers of 8–15 digits. */
const PHONE = /(?<![\d\w])(?:\+?\d{1,3}[ -]?)?(?:1[3-9]\d{9}|\(?\d{2,4}\)?[ -]?\d{3,4}[ -]?\d{3,4})(?![\d\w])/g;

export function luhn(digits: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (dbl) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

export interface PiiFinding {
  kind: PiiKind;
  /** Index range in the text; the value itself is never kept. */
  start: number;
  end: number;
}

export function findPii(text: string): PiiFinding[] {
  const out: PiiFinding[] = [];
  const taken = (s: number, e: number) => out.some((f) => s < f.end && e > f.start);
  const scan = (re: RegExp, kind: PiiKind, accept: (m: string) => boolean = () => true) => {
    for (const m of text.matchAll(re)) {
      const s = m.index ?? 0;
      const e = s + m[0].length;
      if (!taken(s, e) && accept(m[0])) out.push({ kind, start: s, end: e });
    }
  };
  scan(EMAIL, 'email');
  scan(CN_ID, 'id_number');
  scan(CARD, 'card_number', (m) => luhn(m.replace(/\D/g, '')));
  scan(PHONE, 'phone', (m) => m.replace(/\D/g, '').length >= 8);
  return out.sort((a, b) => a.start - b.start);
}

/** Replace each finding with `[kind]`. */
export function redactPii(text: string): string {
  let out = '';
  let at = 0;
  for (const f of findPii(text)) {
    out += `${text.slice(at, f.start)}[${f.kind}]`;
    at = f.end;
  }
  return out + text.slice(at);
}

/** What typed text may look like in a log: nothing for a password field, redacted otherwise. */
export function redactTyped(text: string, password: boolean): string {
  return password ? `[password: ${text.length} chars]` : redactPii(text);
}
