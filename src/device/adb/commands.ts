/**
 * Pure builders and parsers of the shell commands the ADB backend uses. Commands are built from
 * argv arrays and quoted here — the remote side is a shell, so quoting is the one place where text
 * from outside (typed text, package names) could turn into a command.
 */

/** POSIX single-quoting: safe for any byte string. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/** Printable ASCII without control characters: what `input text` can type. */
export function isInputTextSafe(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}

/**
 * `input text` argument: spaces become `%s` (input's own escape), the rest is shell-quoted. Returns
 * undefined for text `input text` cannot type (non-ASCII, control characters, a literal "%s").
 */
export function inputTextArgv(text: string): string[] | undefined {
  if (!isInputTextSafe(text) || text.includes('%s') || text === '') return undefined;
  return ['input', 'text', text.replace(/ /g, '%s')];
}

/** The ADBKeyboard-style IME broadcast: the text travels base64-encoded, so any Unicode survives. */
export const IME_B64_ACTION = 'ADB_INPUT_B64';
export function imeBroadcastArgv(text: string): string[] {
  return ['am', 'broadcast', '-a', IME_B64_ACTION, '--es', 'msg', Buffer.from(text, 'utf8').toString('base64')];
}

export const KEYCODES: Record<string, string> = {
  back: 'KEYCODE_BACK',
  home: 'KEYCODE_HOME',
  recents: 'KEYCODE_APP_SWITCH',
  enter: 'KEYCODE_ENTER',
  delete: 'KEYCODE_DEL',
  search: 'KEYCODE_SEARCH',
  menu: 'KEYCODE_MENU',
};

/** `wm size` → the physical size, or the override when one is set (that is what apps see). */
export function parseWmSize(out: string): { width: number; height: number } | undefined {
  const override = /Override size:\s*(\d+)x(\d+)/.exec(out);
  const physical = /Physical size:\s*(\d+)x(\d+)/.exec(out);
  const m = override ?? physical;
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

/** `dumpsys window` (or `dumpsys activity activities`) → the focused package/activity. */
export function parseFocus(out: string): { package: string; activity: string } | undefined {
  const patterns = [
    /mCurrentFocus=Window\{[^}]*?\s([\w.]+)\/([\w.$]+)\}/,
    /mFocusedApp=.*?\s([\w.]+)\/([\w.$]+)[\s}]/,
    /mResumedActivity:.*?\s([\w.]+)\/([\w.$]+)[\s}]/,
    /topResumedActivity=.*?\s([\w.]+)\/([\w.$]+)[\s}]/,
  ];
  for (const re of patterns) {
    const m = re.exec(out);
    if (m?.[1] && m[2]) {
      const act = m[2].startsWith('.') ? m[2] : m[2].startsWith(`${m[1]}.`) ? m[2].slice(m[1].length) : m[2];
      return { package: m[1], activity: act };
    }
  }
  return undefined;
}

/** `dumpsys input_method` → whether the soft keyboard is shown. */
export function parseImeShown(out: string): boolean | undefined {
  const m = /mInputShown=(true|false)/.exec(out) ?? /mIsInputViewShown=(true|false)/.exec(out);
  return m ? m[1] === 'true' : undefined;
}

/** `ime list -s` → installed/enabled IME ids. */
export function parseImeList(out: string): string[] {
  return out
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^[\w.]+\/[\w.$]+$/.test(l));
}

/** Extract the XML of `uiautomator dump /dev/tty` (it appends "UI hierchary dumped to: …"). */
export function extractDumpXml(out: string): string | undefined {
  const start = out.indexOf('<?xml');
  const s = start >= 0 ? start : out.indexOf('<hierarchy');
  const end = out.lastIndexOf('</hierarchy>');
  if (s < 0 || end < 0) return undefined;
  return out.slice(s, end + '</hierarchy>'.length);
}
