/**
 * Masking for what the archive keeps of model and device calls: a value under a key that names a
 * credential is replaced, known secret values are replaced wherever they occur, and inline images
 * (base64 data URLs sent to a vision model) are reduced to their size, so a call log never holds a
 * key, a token, a password or megabytes of pixels.
 */

const SECRET_KEY = /authorization|cookie|api[-_]?key|password|passwd|secret|token$/i;
const DATA_URL = /data:([\w/+.-]+);base64,[A-Za-z0-9+/=]+/g;
/** Longest string kept whole; the rest is cut with a note (a 100 kB prompt is not the point). */
const MAX_STRING = 20_000;
export const MASK = '•••';

export function maskString(s: string, secrets: readonly string[] = []): string {
  let out = s.replace(
    DATA_URL,
    (m, type: string) => `data:${type};base64,… (${Math.round((m.length * 3) / 4 / 1024)} KB, not archived)`,
  );
  for (const v of secrets) if (v.length >= 3) out = out.split(v).join(MASK);
  return out.length > MAX_STRING
    ? `${out.slice(0, MAX_STRING)}… (${out.length - MAX_STRING} more characters cut)`
    : out;
}

export function maskValue(v: unknown, secrets: readonly string[] = []): unknown {
  if (typeof v === 'string') return maskString(v, secrets);
  if (Array.isArray(v)) return v.map((x) => maskValue(x, secrets));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[k] = SECRET_KEY.test(k) && x !== undefined ? MASK : maskValue(x, secrets);
    return out;
  }
  return v;
}
