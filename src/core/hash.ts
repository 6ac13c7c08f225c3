/** FNV-1a over UTF-16 code units: the project's one cheap, stable, non-cryptographic string hash. */
export function fnv1a(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** fnv1a as 8 hex digits. */
export function fnvHex(s: string): string {
  return fnv1a(s).toString(16);
}

/** fnv1a folded to 4 hex digits: enough to tell two typed texts apart without showing either. */
export function shortHash(s: string): string {
  return (fnv1a(s) & 0xffff).toString(16).padStart(4, '0');
}
