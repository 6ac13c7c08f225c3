/**
 * Reference intents: the steps a task's author would take, written as short lines that double as the
 * reference model's subgoals (`launch "Settings"`, `toggle "Wi-Fi" off`, `type "Email" "a@b.c"`,
 * `slide "Brightness" 40`, `pinch "Map" 2.5` (scale > 1 zooms in), `seek "Timeline" "14:05:30"`
 * (seek_timeline; an uncertain result is handed to the user), `answer "14"`, `done`,
 * `ask_user "…"`, `infeasible "…"`, `back`, `swipe up`). A catalog maps instruction templates
 * (`Turn Wi-Fi {state}.`) to intent templates.
 */

export interface Intent {
  verb: string;
  args: string[];
}

export function parseIntent(line: string): Intent {
  const args: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let verb = '';
  for (const m of line.trim().matchAll(re)) {
    const tok = m[1] !== undefined ? m[1].replace(/\\"/g, '"') : (m[2] ?? '');
    if (!verb && m[2] !== undefined) verb = tok;
    else args.push(tok);
  }
  return { verb, args };
}

export function quote(s: string): string {
  return `"${s.replace(/"/g, '\\"')}"`;
}

export interface CatalogEntry {
  id: string;
  /** Instruction template with `{param}` placeholders, exactly as tasks render it. */
  instruction: string;
  /** Intent templates, same placeholders. */
  intents: string[];
  /** The instruction with one set of parameters filled in: a phrasing that works as it is. */
  example?: string;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Match a goal against the catalog and fill the intents with the parameters found in it. */
export function intentsForGoal(catalog: readonly CatalogEntry[], goal: string): string[] | undefined {
  // People drop the final full stop and vary case: match on the sentence, not its punctuation.
  const trimEnd = (t: string) => t.trim().replace(/[.。!！]+$/, '');
  const g = trimEnd(goal);
  for (const entry of catalog) {
    const names: string[] = [];
    const pattern = trimEnd(entry.instruction)
      .split(/(\{\w+\})/)
      .map((part) => {
        const p = /^\{(\w+)\}$/.exec(part);
        if (!p) return escapeRe(part);
        names.push(p[1] ?? '');
        return '(.+?)';
      })
      .join('');
    const m = new RegExp(`^${pattern}$`, 'si').exec(g);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = m[i + 1] ?? '';
    });
    return entry.intents.map((t) => t.replace(/\{(\w+)\}/g, (_, n: string) => params[n] ?? `{${n}}`));
  }
  return undefined;
}

/** Words of a sentence for likeness: lower-case Latin words and numbers ("Wi-Fi" = "wifi"), and each CJK character. */
function words(s: string): Set<string> {
  const plain = s
    .replace(/\{\w+\}/g, ' ')
    .toLowerCase()
    .replace(/(\p{L})-(\p{L})/gu, '$1$2');
  return new Set(plain.match(/[\p{Script=Han}]|[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * The catalog entries most like `goal`, best first: what to suggest when the reference model does
 * not know a goal. Shared words count by how rare they are in the catalog ("Bluetooth" says more
 * than "turn"), over the words of both sentences; entries sharing no word are left out.
 */
export function closestEntries(catalog: readonly CatalogEntry[], goal: string, max = 3): CatalogEntry[] {
  const g = words(goal);
  const bags = catalog.map((entry) => words(`${entry.instruction} ${entry.example ?? ''}`));
  const df = new Map<string, number>();
  for (const bag of bags) for (const w of bag) df.set(w, (df.get(w) ?? 0) + 1);
  const weight = (w: string) => Math.log(1 + catalog.length / (df.get(w) ?? 0.5));
  const sum = (ws: Iterable<string>) => [...ws].reduce((n, w) => n + weight(w), 0);
  return catalog
    .map((entry, i) => {
      const bag = bags[i] ?? new Set<string>();
      const shared = sum([...g].filter((w) => bag.has(w)));
      return { entry, score: shared / (sum(g) + sum(words(entry.instruction)) - shared || 1) };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((x) => x.entry);
}
