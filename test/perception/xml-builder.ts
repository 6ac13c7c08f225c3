/**
 * Builds uiautomator-style XML the way a phone writes it (every attribute, false booleans and all),
 * so parser tests read realistic input without copying third-party dumps.
 */

export interface N {
  cls?: string;
  text?: string;
  desc?: string;
  id?: string;
  pkg?: string;
  b: [number, number, number, number];
  clickable?: boolean;
  longClickable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  scrollable?: boolean;
  enabled?: boolean;
  focused?: boolean;
  password?: boolean;
  selected?: boolean;
  visible?: boolean;
  hint?: string;
  order?: number;
  kids?: N[];
}

function esc(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');
}

export function nodeXml(n: N, index = 0): string {
  const pkg = n.pkg ?? 'com.example.app';
  const attrs = [
    `index="${index}"`,
    `text="${esc(n.text ?? '')}"`,
    `resource-id="${n.id ? (n.id.includes(':') ? n.id : `${pkg}:id/${n.id}`) : ''}"`,
    `class="${n.cls ?? 'android.widget.FrameLayout'}"`,
    `package="${pkg}"`,
    `content-desc="${esc(n.desc ?? '')}"`,
    `checkable="${!!n.checkable}"`,
    `checked="${!!n.checked}"`,
    `clickable="${!!n.clickable}"`,
    `enabled="${n.enabled ?? true}"`,
    `focusable="${!!n.clickable}"`,
    `focused="${!!n.focused}"`,
    `scrollable="${!!n.scrollable}"`,
    `long-clickable="${!!n.longClickable}"`,
    `password="${!!n.password}"`,
    `selected="${!!n.selected}"`,
  ];
  if (n.visible !== undefined) attrs.push(`visible-to-user="${n.visible}"`);
  if (n.hint !== undefined) attrs.push(`hint="${esc(n.hint)}"`);
  if (n.order !== undefined) attrs.push(`drawing-order="${n.order}"`);
  attrs.push(`bounds="[${n.b[0]},${n.b[1]}][${n.b[2]},${n.b[3]}]"`);
  const kids = (n.kids ?? []).map((k, i) => nodeXml(k, i)).join('');
  return kids ? `<node ${attrs.join(' ')}>${kids}</node>` : `<node ${attrs.join(' ')} />`;
}

export function dumpXml(roots: N[], rotation = 0): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">${roots
    .map((r, i) => nodeXml(r, i))
    .join('')}</hierarchy>`;
}

/** A full-screen 1080×2400 app window holding `kids`. */
export function appWindow(kids: N[], pkg = 'com.example.app'): N {
  return { pkg, b: [0, 0, 1080, 2400], kids: [{ pkg, id: 'android:id/content', b: [0, 0, 1080, 2400], kids }] };
}
