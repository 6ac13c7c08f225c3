/**
 * Credentials in the instruction ("… with password Pw-93x", "…和密码Mm-1k登录") are swapped for
 * placeholders before anything sees the goal: the model, the prompts, the run folder and the logs
 * only ever hold `⟨secret1⟩`. The real value is put back at dispatch, into the action only.
 */

export interface SecretGoal {
  /** The goal as the model and the archive see it. */
  goal: string;
  secrets: Map<string, string>;
}

const PATTERNS: RegExp[] = [
  // English: "password X", "password: X", "password is X", "PIN X" — up to whitespace; a final . , ; is punctuation.
  /\b(?:password|passcode|passwd|pin)\b(?:\s+is)?\s*[:：]?\s*(\S+?)(?=[.,;!?]?(?:\s|$))/gi,
  // Chinese: 密码 followed by a run of printable ASCII (the password ends where the Chinese resumes).
  /(?:密码|口令)\s*(?:是|为)?\s*[:：]?\s*([!-~]+)/g,
];

export function maskSecrets(goal: string): SecretGoal {
  const secrets = new Map<string, string>();
  let masked = goal;
  for (const re of PATTERNS) {
    masked = masked.replace(re, (whole: string, value: string) => {
      const key = `⟨secret${secrets.size + 1}⟩`;
      secrets.set(key, value);
      return whole.slice(0, whole.length - value.length) + key;
    });
  }
  return { goal: masked, secrets };
}

/** Put the real values back (dispatch only). */
export function unmask(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [k, v] of secrets) out = out.split(k).join(v);
  return out;
}
