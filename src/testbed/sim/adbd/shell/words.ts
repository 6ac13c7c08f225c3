/**
 * A small POSIX-ish shell parser for the command lines adb clients send: words with single and
 * double quotes and backslash escapes, `;` `&` `&&` `||` `|` and redirections (`2>/dev/null`, `2>&1`,
 * `> file`, `>> file`, `< file`). No variable expansion, globbing or subshells; `NAME=value` before a
 * command is its environment (the interpreter's business).
 */

export interface Redirect {
  fd: number;
  op: '>' | '>>' | '>&' | '<';
  target: string;
}

export interface SimpleCommand {
  argv: string[];
  redirects: Redirect[];
}

/** Commands joined by `|`. */
export type Pipeline = SimpleCommand[];

export interface ListItem {
  pipeline: Pipeline;
  /**
   * How the NEXT item runs: always (`;`), on success (`&&`), on failure (`||`); null for the last.
   * `&` runs this item in the background (the shell does not wait for it) and goes on.
   */
  next: ';' | '&' | '&&' | '||' | null;
}

export type ParseResult = { ok: true; list: ListItem[] } | { ok: false; message: string };

type Token =
  | { kind: 'word'; text: string }
  | { kind: 'op'; op: string }
  | { kind: 'redir'; redirect: Omit<Redirect, 'target'> & { target?: string } };

const SPACE = /[ \t\r\n]/;
const META = /[ \t\r\n;&|<>]/;

function tokenize(line: string): Token[] | string {
  const out: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (SPACE.test(c)) {
      i++;
      continue;
    }
    if (c === ';') {
      out.push({ kind: 'op', op: ';' });
      i++;
      continue;
    }
    if (c === '&' || c === '|') {
      if (line[i + 1] === c) {
        out.push({ kind: 'op', op: c + c });
        i += 2;
      } else if (c === '|') {
        out.push({ kind: 'op', op: '|' });
        i++;
      } else {
        out.push({ kind: 'op', op: '&' }); // a background job
        i++;
      }
      continue;
    }
    // Redirection, optionally preceded by a single-digit fd glued to it: 2>/dev/null, 2>&1.
    const redir = /^(\d?)(>>|>&|>|<)/.exec(line.slice(i));
    if (
      redir &&
      (redir[1] === '' || i === 0 || SPACE.test(line[i - 1] as string) || /[;&|]/.test(line[i - 1] as string))
    ) {
      const op = redir[2] as Redirect['op'];
      const fd = redir[1] ? Number(redir[1]) : op === '<' ? 0 : 1;
      out.push({ kind: 'redir', redirect: { fd, op } });
      i += redir[0].length;
      continue;
    }
    // A word, possibly made of quoted and unquoted parts.
    let text = '';
    while (i < line.length && !META.test(line[i] as string)) {
      const ch = line[i] as string;
      if (ch === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) return 'syntax error: unterminated quoted string';
        text += line.slice(i + 1, end);
        i = end + 1;
      } else if (ch === '"') {
        i++;
        for (;;) {
          if (i >= line.length) return 'syntax error: unterminated quoted string';
          const d = line[i] as string;
          if (d === '"') {
            i++;
            break;
          }
          if (d === '\\' && /["\\$`\n]/.test(line[i + 1] ?? '')) {
            text += line[i + 1];
            i += 2;
          } else {
            text += d;
            i++;
          }
        }
      } else if (ch === '\\') {
        if (i + 1 < line.length) text += line[i + 1];
        i += 2;
      } else {
        text += ch;
        i++;
      }
    }
    out.push({ kind: 'word', text });
  }
  return out;
}

export function parseCommandLine(line: string): ParseResult {
  const tokens = tokenize(line);
  if (typeof tokens === 'string') return { ok: false, message: tokens };
  const list: ListItem[] = [];
  let pipeline: Pipeline = [];
  let cmd: SimpleCommand = { argv: [], redirects: [] };
  const fail = (what: string): ParseResult => ({ ok: false, message: `syntax error: '${what}' unexpected` });
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    if (t.kind === 'word') {
      cmd.argv.push(t.text);
    } else if (t.kind === 'redir') {
      const target = tokens[k + 1];
      if (target?.kind !== 'word') return fail(target?.kind === 'op' ? target.op : 'newline');
      cmd.redirects.push({ fd: t.redirect.fd, op: t.redirect.op, target: target.text });
      k++;
    } else {
      if (cmd.argv.length === 0 && cmd.redirects.length === 0) return fail(t.op);
      pipeline.push(cmd);
      cmd = { argv: [], redirects: [] };
      if (t.op !== '|') {
        list.push({ pipeline, next: t.op as ListItem['next'] });
        pipeline = [];
      }
    }
  }
  if (cmd.argv.length > 0 || cmd.redirects.length > 0) pipeline.push(cmd);
  else if (pipeline.length > 0) return fail('newline'); // trailing `|`
  if (pipeline.length > 0) list.push({ pipeline, next: null });
  else if (list.length > 0) {
    const last = list[list.length - 1] as ListItem;
    if (last.next === '&&' || last.next === '||') return fail('newline');
    if (last.next === ';') last.next = null; // a trailing `;` is fine; a trailing `&` stays a job
  }
  return { ok: true, list };
}

/** Quote a word so `parseCommandLine` reads it back unchanged (used to echo argv in messages). */
export function quoteWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
