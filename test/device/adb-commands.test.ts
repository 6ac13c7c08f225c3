import { describe, expect, it } from 'vitest';
import {
  extractDumpXml,
  imeBroadcastArgv,
  inputTextArgv,
  parseFocus,
  parseImeShown,
  parseWmSize,
  shellCommand,
  shellQuote,
} from '../../src/device/adb/commands.js';

describe('adb shell commands', () => {
  it('quotes anything a shell would interpret', () => {
    expect(shellQuote('com.foo/.Main')).toBe('com.foo/.Main');
    expect(shellQuote("it's; rm -rf /")).toBe(`'it'\\''s; rm -rf /'`);
    expect(shellCommand(['input', 'text', 'a$(b)`c`'])).toBe(`input text 'a$(b)\`c\`'`);
  });

  it('input text: ASCII only, spaces as %s; other text is refused', () => {
    expect(inputTextArgv('hello world')).toEqual(['input', 'text', 'hello%sworld']);
    expect(inputTextArgv('中文')).toBeUndefined();
    expect(inputTextArgv('tab\there')).toBeUndefined();
    expect(inputTextArgv('')).toBeUndefined();
  });

  it('the IME broadcast carries base64 UTF-8', () => {
    const argv = imeBroadcastArgv('张伟 😀');
    expect(argv.slice(0, 4)).toEqual(['am', 'broadcast', '-a', 'ADB_INPUT_B64']);
    expect(Buffer.from(argv.at(-1) ?? '', 'base64').toString('utf8')).toBe('张伟 😀');
  });

  it('parses wm size (override wins), focus and keyboard state', () => {
    expect(parseWmSize('Physical size: 1080x2400\n')).toEqual({ width: 1080, height: 2400 });
    expect(parseWmSize('Physical size: 1080x2400\nOverride size: 720x1600')).toEqual({ width: 720, height: 1600 });
    expect(parseFocus('  mCurrentFocus=Window{3f2a u0 com.foodshop/com.foodshop.MenuActivity}')).toEqual({
      package: 'com.foodshop',
      activity: '.MenuActivity',
    });
    expect(parseFocus('mCurrentFocus=Window{1 u0 com.android.settings/.Settings}')).toEqual({
      package: 'com.android.settings',
      activity: '.Settings',
    });
    expect(parseImeShown('mInputShown=true')).toBe(true);
    expect(parseImeShown('nothing')).toBeUndefined();
  });

  it('extracts the XML of `uiautomator dump /dev/tty`', () => {
    const out = '<?xml version=\'1.0\' ?><hierarchy rotation="0"><node/></hierarchy>UI hierchary dumped to: /dev/tty\n';
    expect(extractDumpXml(out)).toBe('<?xml version=\'1.0\' ?><hierarchy rotation="0"><node/></hierarchy>');
    expect(extractDumpXml('ERROR: null root node returned by UiTestAutomationBridge.')).toBeUndefined();
  });
});
