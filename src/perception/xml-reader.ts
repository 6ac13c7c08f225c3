/**
 * A small, strict-enough XML reader for uiautomator dumps: elements, attributes (single or double
 * quotes), the five named entities and numeric character references, comments, processing
 * instructions, DOCTYPE and CDATA. Text content is ignored (uiautomator puts everything in
 * attributes). It is hand-written so parsing a 170 KB dump stays a few milliseconds and adds no
 * dependency; malformed input yields a value naming what is wrong and where.
 */

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
}

export type XmlReadResult = { ok: true; root: XmlElement } | { ok: false; message: string };

/**
 * Elements nested deeper than this are refused: real screens stay under ~100 levels, and every later
 * stage that walks the tree may then recurse safely (4,000 levels overflowed the stack).
 */
export const MAX_XML_DEPTH = 512;

/** A name or value quoted into an error message, cut to `max` characters. */
export function clip(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}… (${s.length} characters)` : s;
}

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** One reference's text (`amp`, `#38`, `#x26`), or undefined when it is not one we decode. */
function decodeRef(ref: string): string | undefined {
  if (ref[0] !== '#') return NAMED_ENTITIES[ref];
  const hex = ref[1] === 'x' || ref[1] === 'X';
  const digits = ref.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  const code = Number.parseInt(digits, hex ? 16 : 10);
  return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/**
 * Replace entity and character references; an unknown `&name;` or a bare `&` is kept as written.
 * A plain scan (no regex callback): a 2 MB value of `&amp;`s decodes in one linear pass.
 */
export function decodeEntities(s: string): string {
  let amp = s.indexOf('&');
  if (amp < 0) return s;
  const parts: string[] = [];
  let last = 0;
  while (amp >= 0) {
    // References are short: look for the ';' within a few characters only.
    const semi = s.indexOf(';', amp + 1);
    const ref = semi > amp + 1 && semi - amp <= 12 ? s.slice(amp + 1, semi) : '';
    const text = ref && /^(?:#[xX]?[0-9a-fA-F]+|[a-zA-Z]+)$/.test(ref) ? decodeRef(ref) : undefined;
    if (text !== undefined) {
      parts.push(s.slice(last, amp), text);
      last = semi + 1;
    }
    amp = s.indexOf('&', text !== undefined ? semi + 1 : amp + 1);
  }
  parts.push(s.slice(last));
  return parts.join('');
}

function position(src: string, at: number): string {
  let line = 1;
  let col = 1;
  for (let i = 0; i < at && i < src.length; i++) {
    if (src.charCodeAt(i) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  return `line ${line}, column ${col}`;
}

const NAME_RE = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ATTR_RE = /\s*([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)')/y;

export function readXml(src: string): XmlReadResult {
  const fail = (at: number, what: string): XmlReadResult => ({ ok: false, message: `${what} at ${position(src, at)}` });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  const n = src.length;
  while (i < n) {
    const lt = src.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    // Text between tags: only whitespace is expected outside the root element.
    if (stack.length === 0 && textEnd > i && src.slice(i, textEnd).trim() !== '') {
      const at = i + (src.slice(i, textEnd).length - src.slice(i, textEnd).trimStart().length);
      return fail(at, root ? 'text after the root element' : 'text before the root element');
    }
    if (lt < 0) break;
    i = lt;
    if (src.startsWith('<?', i)) {
      const end = src.indexOf('?>', i + 2);
      if (end < 0) return fail(i, 'unterminated processing instruction');
      i = end + 2;
      continue;
    }
    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      if (end < 0) return fail(i, 'unterminated comment');
      i = end + 3;
      continue;
    }
    if (src.startsWith('<![CDATA[', i)) {
      const end = src.indexOf(']]>', i + 9);
      if (end < 0) return fail(i, 'unterminated CDATA section');
      if (stack.length === 0) return fail(i, 'CDATA outside the root element');
      i = end + 3;
      continue;
    }
    if (src.startsWith('<!', i)) {
      const end = src.indexOf('>', i + 2);
      if (end < 0) return fail(i, 'unterminated declaration');
      i = end + 1;
      continue;
    }
    if (src.startsWith('</', i)) {
      NAME_RE.lastIndex = i + 2;
      const m = NAME_RE.exec(src);
      if (!m) return fail(i, 'malformed closing tag');
      const close = src.indexOf('>', NAME_RE.lastIndex);
      if (close < 0 || src.slice(NAME_RE.lastIndex, close).trim() !== '')
        return fail(i, `malformed closing tag </${clip(m[0])}`);
      const open = stack.pop();
      if (!open) return fail(i, `closing tag </${clip(m[0])}> without an open element`);
      if (open.name !== m[0]) return fail(i, `closing tag </${clip(m[0])}> does not match <${clip(open.name)}>`);
      i = close + 1;
      continue;
    }
    // Start tag.
    NAME_RE.lastIndex = i + 1;
    const m = NAME_RE.exec(src);
    if (!m) return fail(i, "'<' not followed by a tag name");
    if (stack.length === 0 && root) return fail(i, `a second root element <${clip(m[0])}>`);
    if (stack.length >= MAX_XML_DEPTH) return fail(i, `elements nested deeper than ${MAX_XML_DEPTH} levels`);
    const el: XmlElement = { name: m[0], attrs: {}, children: [] };
    let j = NAME_RE.lastIndex;
    for (;;) {
      ATTR_RE.lastIndex = j;
      const a = ATTR_RE.exec(src);
      if (!a) break;
      if (Object.hasOwn(el.attrs, a[1])) return fail(j, `duplicate attribute '${clip(a[1])}' on <${clip(el.name)}>`);
      const raw = a[3] ?? a[4] ?? '';
      if (raw.indexOf('<') >= 0) return fail(j, `'<' inside the value of attribute '${clip(a[1])}'`);
      el.attrs[a[1]] = decodeEntities(raw);
      j = ATTR_RE.lastIndex;
    }
    while (j < n && /\s/.test(src[j])) j++;
    let selfClosing = false;
    if (src.startsWith('/>', j)) {
      selfClosing = true;
      j += 2;
    } else if (src[j] === '>') {
      j += 1;
    } else if (j >= n) {
      return fail(i, `unterminated start tag <${clip(el.name)}>`);
    } else {
      return fail(j, `unexpected '${src[j]}' in start tag <${clip(el.name)}> (malformed attribute?)`);
    }
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    if (!selfClosing) stack.push(el);
    i = j;
  }
  if (stack.length > 0) return fail(n, `unclosed element <${clip(stack[stack.length - 1].name)}> (truncated dump?)`);
  if (!root) return { ok: false, message: 'no XML element found' };
  return { ok: true, root };
}
