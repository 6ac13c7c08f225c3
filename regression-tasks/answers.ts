/**
 * Answers judged by type, as AndroidWorld does: a number by its value (currency, thousands
 * separators and surrounding words do not matter: "…可用余额为 ¥44,321.94。" answers 44321.94), a
 * string normalized (case, width, punctuation, spacing) and found in a short answer. What matters
 * stays strict: a different number fails, and so does a second, different number beside the right one.
 */

// A number not glued to a Latin letter before it: "wang150" and "SIM2" are names, not values.
const NUMBER_RE = /(?<![A-Za-z\d])[-−]?\d[\d,]*(?:\.\d+)?/g;

/** A masked identifier's visible digits ("Checking •••• 3021", "**** 1234"): a name, not a quantity. */
const MASKED_ID_RE = /[•*●·]{2,}\s*\d+/g;
/** An e-mail address or a URL quoted in the answer ("已登录 wang150@acme.test"): a name too. */
const ADDRESS_RE = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/\S+/g;

/** The numeric values written in a text: "¥44,321.94" → 44321.94, "−3" → -3. */
export function numbersIn(text: string): number[] {
  return (text.normalize('NFKC').replace(MASKED_ID_RE, ' ').replace(ADDRESS_RE, ' ').match(NUMBER_RE) ?? [])
    .map((m) => Number(m.replace(/,/g, '').replace('−', '-')))
    .filter((n) => Number.isFinite(n));
}

/** Whether `answer` gives `expected` as its number (and no other number). */
export function numberAnswer(answer: string | undefined, expected: string | number): boolean {
  const want = typeof expected === 'number' ? expected : numbersIn(expected)[0];
  if (want === undefined || !answer) return false;
  const got = numbersIn(answer);
  return got.length > 0 && got.every((n) => Math.abs(n - want) < 1e-9);
}

/** Lower-cased, NFKC (full-width → ASCII), quotes and punctuation gone, single-spaced. */
export function normalizeAnswer(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A short answer: a few words around the value, not a paragraph that might mention anything. */
const SHORT_ANSWER_CHARS = 80;

function contains(a: string, e: string): boolean {
  // Whole words for Latin text; CJK has no spaces, so containment is enough there.
  const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(e);
  return cjk ? a.replace(/ /g, '').includes(e.replace(/ /g, '')) : ` ${a} `.includes(` ${e} `);
}

/**
 * Whether `answer` is `expected`, or a short answer that contains it as whole words. `wrong` lists
 * the other candidates: an answer naming one of them ("Coconut Latte" when "Latte" is right) fails.
 */
export function stringAnswer(answer: string | undefined, expected: string, wrong: readonly string[] = []): boolean {
  const a = normalizeAnswer(answer ?? '');
  const e = normalizeAnswer(expected);
  if (!a || !e) return false;
  if (a === e) return true;
  if (a.length > SHORT_ANSWER_CHARS || !contains(a, e)) return false;
  // A candidate inside the right name ("Latte" in "Coconut Latte") is not a second answer.
  return !wrong.map(normalizeAnswer).some((w) => w && !contains(e, w) && contains(a, w));
}
