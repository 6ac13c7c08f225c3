/**
 * Credentials in the instruction ("… with password Pw-93x", "…和密码Mm-1k登录") are swapped for
 * placeholders before anything sees the goal: the model, the prompts, the run folder and the logs
 * only ever hold `⟨secret1⟩`. The real value is put back at dispatch, into the action only.
 *
 * The rule (README "Credentials in a task", DESIGN §10), after a keyword — password, passphrase,
 * passcode, passwd, pwd, pw, PIN (PIN code, PIN码), 密码, 口令:
 * - an optional connector: `is`, `:`, `=`, `：`, `是`, `为`, `to` ("change the password to X"), or a
 *   short qualifier before one ("password for a@b.c is X");
 * - the value: quoted ("…", '…', “…”, ‘…’, 「…」, `…`) → everything inside, spaces included; else up
 *   to the next whitespace (after 密码/口令: the run of ASCII, since the sentence resumes in Chinese);
 * - one trailing `.` `,` `;` `:` (or 。，；：) is the sentence's, not the password's; every other
 *   character is kept, so "Hunter2-secret!" is typed with its `!`. Quote a password that ends in `.`;
 * - a PIN must contain a digit ("PIN lock" is not a PIN); a bare all-letter word that is ordinary
 *   English ("password settings", "password for") is not a value unless quoted or after a connector.
 * What it cannot know: a password given without any keyword ("log in as bob / hunter2"), or one written
 * bare in words this list does not hold. Those reach the model as written.
 */

export interface SecretGoal {
  /** The goal as the model and the archive see it. */
  goal: string;
  secrets: Map<string, string>;
}

const KEYWORD_RE =
  /(?<![A-Za-z0-9_])(?:(passphrase|passcode|password|passwd|pwd|pw)(?![A-Za-z0-9_])|(pin)(?:\s?码|\s?code(?![A-Za-z0-9_])|(?![A-Za-z0-9_])))|(密码|口令)/giu;

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '「': '」', '『': '』', '`': '`' };

/** Words that follow "password" in instructions without being one. */
const ORDINARY = new Set(
  (
    'a an the and or but for of to in on at by with from into as is are was be it its this that these those my your our their ' +
    'his her me you then than now again also too please if when so not no field box input entry prompt dialog screen page ' +
    'settings setting manager app reset change update recovery lock protected required strength policy hint text button ' +
    'keyboard saved save form login sign account fields there here first later once twice'
  ).split(' '),
);

const SENTENCE_END = new Set(['.', ',', ';', ':', '。', '，', '；', '：']);
const SPACE_RE = /[\s\u3000]/u;

interface Span {
  start: number;
  end: number;
}

/** Skip whitespace from `i`. */
function skipSpace(s: string, i: number): number {
  let j = i;
  while (j < s.length && SPACE_RE.test(s[j] as string)) j++;
  return j;
}

type Connector = { end: number; strength: 'strong' | 'weak' } | undefined;

/** A connector at `i` ("is", ":", "=", "是", …; "to" is weak): where it ends. */
function connector(s: string, i: number): Connector {
  const c = s[i];
  if (c === ':' || c === '：' || c === '=' || c === '是' || c === '为') return { end: i + 1, strength: 'strong' };
  const word = /^(is|to)(?![A-Za-z0-9_])/i.exec(s.slice(i, i + 3));
  if (!word) return undefined;
  return { end: i + 2, strength: word[1]?.toLowerCase() === 'is' ? 'strong' : 'weak' };
}

/** "for a@b.c is", "to the bank is": a qualifier of 1–3 words, then a strong connector. */
function qualified(s: string, i: number): Connector {
  const m = /^(?:for|of|on|to)\s+(?:\S+\s+){0,2}?\S+\s*(?=is\b|[:：=])/i.exec(s.slice(i, i + 120));
  return m ? connector(s, i + m[0].length) : undefined;
}

function quotedValue(s: string, i: number): Span | undefined {
  const close = QUOTES[s[i] as string];
  if (!close) return undefined;
  const end = s.indexOf(close, i + 1);
  return end > i + 1 ? { start: i + 1, end } : undefined;
}

/** CJK ideographs, kana, hangul and full-width forms: the sentence resumes, the value has ended. */
const CJK_RE = /[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/u;

function bareValue(s: string, i: number, asciiOnly: boolean): Span | undefined {
  let end = i;
  while (end < s.length && !SPACE_RE.test(s[end] as string) && !CJK_RE.test(s[end] as string)) {
    const code = s.charCodeAt(end);
    if (asciiOnly && (code < 0x21 || code > 0x7e)) break;
    end++;
  }
  if (end > i && SENTENCE_END.has(s[end - 1] as string)) end--;
  if (end > i && s[end - 1] === ')' && !s.slice(i, end).includes('(')) end--;
  return end > i ? { start: i, end } : undefined;
}

/** The value that follows the keyword ending at `after`, if this is a credential at all. */
function valueAfter(s: string, after: number, kind: 'word' | 'pin' | 'zh'): Span | undefined {
  let i = skipSpace(s, after);
  const c = qualified(s, i) ?? connector(s, i);
  if (c) i = skipSpace(s, c.end);
  const quoted = quotedValue(s, i);
  if (quoted) return quoted;
  const bare = bareValue(s, i, kind === 'zh');
  if (!bare) return undefined;
  const text = s.slice(bare.start, bare.end);
  if (kind === 'pin') return /\d/.test(text) ? bare : undefined;
  const word = /^\p{L}+$/u.test(text);
  // After a weak "to" only a password-looking value counts ("the password to log in" has none).
  if (c?.strength === 'weak' && word) return undefined;
  if (!c && word && ORDINARY.has(text.toLowerCase())) return undefined;
  return bare;
}

export function maskSecrets(goal: string): SecretGoal {
  const secrets = new Map<string, string>();
  const keys = new Map<string, string>();
  let out = '';
  let last = 0;
  KEYWORD_RE.lastIndex = 0;
  for (let m = KEYWORD_RE.exec(goal); m; m = KEYWORD_RE.exec(goal)) {
    if (m.index < last) continue;
    const kind = m[1] ? 'word' : m[2] ? 'pin' : 'zh';
    const v = valueAfter(goal, m.index + m[0].length, kind);
    if (!v) continue;
    const value = goal.slice(v.start, v.end);
    let key = keys.get(value);
    if (!key) {
      key = `⟨secret${secrets.size + 1}⟩`;
      keys.set(value, key);
      secrets.set(key, value);
    }
    out += goal.slice(last, v.start) + key;
    last = v.end;
    KEYWORD_RE.lastIndex = v.end;
  }
  return { goal: out + goal.slice(last), secrets };
}

/** Put the real values back (dispatch only). */
export function unmask(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [k, v] of secrets) out = out.split(k).join(v);
  return out;
}
