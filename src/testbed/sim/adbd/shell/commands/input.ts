import type { KeyName } from '../../../../../core/types.js';
import type { InputResult } from '../../../surface.js';
import { type Command, type CommandContext, type CommandResult, ok, usage } from '../command.js';

/**
 * `input` as Android 10+ prints and accepts it: tap, swipe, draganddrop, keyevent, text, press,
 * with an optional source (touchscreen, keyboard, …). Every invocation pays the phone's
 * `latency.shellInput` first: on a real phone `input` starts a JVM per call.
 */

const SOURCES = new Set([
  'keyboard',
  'dpad',
  'gamepad',
  'touchscreen',
  'mouse',
  'touchpad',
  'touchnavigation',
  'stylus',
  'trackball',
  'joystick',
]);

const USAGE = `Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      keyboard
      touchscreen
      ...

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
`;

type PhoneKey = KeyName | 'delete' | 'search' | 'menu';

/** Key codes the phone acts on; other valid codes are accepted and do nothing visible. */
const KEYS: Record<string, PhoneKey> = {
  '3': 'home',
  '4': 'back',
  '66': 'enter',
  '67': 'delete',
  '82': 'menu',
  '84': 'search',
  '187': 'recents',
  '160': 'enter', // NUMPAD_ENTER
};

const NAMED: Record<string, string> = {
  HOME: '3',
  BACK: '4',
  ENTER: '66',
  DEL: '67',
  MENU: '82',
  SEARCH: '84',
  APP_SWITCH: '187',
  NUMPAD_ENTER: '160',
  SPACE: '62',
  TAB: '61',
  POWER: '26',
  VOLUME_UP: '24',
  VOLUME_DOWN: '25',
  FORWARD_DEL: '112',
  ESCAPE: '111',
  DPAD_UP: '19',
  DPAD_DOWN: '20',
  DPAD_LEFT: '21',
  DPAD_RIGHT: '22',
  DPAD_CENTER: '23',
  WAKEUP: '224',
  SLEEP: '223',
  MOVE_HOME: '122',
  MOVE_END: '123',
};

/** KEYCODE_0..9 = 7..16, KEYCODE_A..Z = 29..54: typed as characters. */
function keyChar(code: number): string | undefined {
  if (code >= 7 && code <= 16) return String(code - 7);
  if (code >= 29 && code <= 54) return String.fromCharCode(97 + code - 29);
  if (code === 62) return ' ';
  return undefined;
}

function num(s: string | undefined): number | undefined {
  if (s === undefined || s.trim() === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

function fromResult(r: InputResult, what: string): CommandResult {
  if (r.ok) return ok();
  return {
    stderr: `Exception occurred while executing '${what}':\njava.lang.IllegalArgumentException: ${r.message}\n`,
    code: 255,
  };
}

function invalid(cmd: string): CommandResult {
  return usage(`Error: Invalid arguments for command: ${cmd}\n${USAGE}`);
}

async function keyevent(ctx: CommandContext, args: string[]): Promise<CommandResult> {
  const codes = args.filter((a) => a !== '--longpress' && a !== '--doubletap');
  if (codes.length === 0) return invalid('keyevent');
  for (const raw of codes) {
    const name = raw.toUpperCase().replace(/^KEYCODE_/, '');
    let code = /^\d+$/.test(raw) ? raw : NAMED[name];
    if (!code && /^[A-Z]$/.test(name)) code = String(29 + name.charCodeAt(0) - 65);
    if (!code && /^[0-9]$/.test(name)) code = String(7 + Number(name));
    if (!code) return { stderr: `Error: Unknown keycode: ${raw}\n`, code: 1 };
    const key = KEYS[code];
    const ch = keyChar(Number(code));
    let r: InputResult = { ok: true };
    if (key) r = await ctx.phone.key(key);
    else if (ch !== undefined) r = await ctx.phone.inputText(ch);
    if (!r.ok) return fromResult(r, 'keyevent');
  }
  return ok();
}

export const input: Command = async (ctx) => {
  const args = ctx.argv.slice(1);
  if (args[0] && SOURCES.has(args[0])) args.shift();
  if (args[0] === '-d') args.splice(0, 2);
  const cmd = args.shift();
  if (!cmd) return usage(USAGE);
  await ctx.phone.clock.sleep(ctx.phone.latency.shellInput);
  switch (cmd) {
    case 'tap': {
      const [x, y] = [num(args[0]), num(args[1])];
      if (x === undefined || y === undefined || args.length !== 2) return invalid('tap');
      return fromResult(await ctx.phone.tap(x, y), 'tap');
    }
    case 'swipe':
    case 'draganddrop': {
      const c = args.slice(0, 4).map(num);
      const d = args[4] === undefined ? 300 : num(args[4]);
      if (c.some((v) => v === undefined) || d === undefined || args.length > 5) return invalid(cmd);
      const [x1, y1, x2, y2] = c as number[];
      return fromResult(await ctx.phone.swipe(x1 as number, y1 as number, x2 as number, y2 as number, d), cmd);
    }
    case 'keyevent':
      return keyevent(ctx, args);
    case 'text': {
      if (args.length === 0) return invalid('text');
      // Android joins the remaining args with spaces and turns "%s" into a space.
      const text = args.join(' ').replace(/%s/g, ' ');
      return fromResult(await ctx.phone.inputText(text), 'text');
    }
    case 'press':
      return ok();
    default:
      return usage(`Error: Unknown command: ${cmd}\n${USAGE}`);
  }
};
