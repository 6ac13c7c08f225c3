/**
 * Reference intents: the steps a task's author would take, written as short lines that double as the
 * reference model's subgoals (`launch "Settings"`, `toggle "Wi-Fi" off`, `type "Email" "a@b.c"`,
 * `slide "Brightness" 40`, `pinch "Map" 2.5` (scale > 1 zooms in), `answer "14"`, `done`,
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
