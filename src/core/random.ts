/**
 * mulberry32: a small, fast, seedable PRNG. Everything random in the project (the virtual phone's
 * data, pacing jitter, the reference model's noise) takes one of these so a seed replays a run.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
