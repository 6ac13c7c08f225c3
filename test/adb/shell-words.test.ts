import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/sim/adbd/shell/commands/index.js';
import { captureCommandLine } from '../../src/sim/adbd/shell/interpreter.js';
import { parseCommandLine } from '../../src/sim/adbd/shell/words.js';
import { StandInPhone } from './support/stand-in.js';

function argvs(line: string): string[][] {
  const r = parseCommandLine(line);
  if (!r.ok) throw new Error(r.message);
  return r.list.flatMap((i) => i.pipeline.map((c) => c.argv));
}

describe('shell word parser', () => {
  it('splits words with quotes and escapes like sh', () => {
    expect(argvs(`input text ''hello%sworld''`)).toEqual([['input', 'text', 'hello%sworld']]);
    expect(argvs(`'screencap' '-p'`)).toEqual([['screencap', '-p']]);
    expect(argvs(`echo "a \\"b\\" \\$c" d\\ e 'it'\\''s'`)).toEqual([['echo', 'a "b" $c', 'd e', "it's"]]);
    expect(argvs(`input text \\(x\\)\\&\\;`)).toEqual([['input', 'text', '(x)&;']]);
  });

  it('reads lists, pipes and redirections', () => {
    const r = parseCommandLine('echo && screencap -p 2>/dev/null; ls x 2>&1 || echo m | cat > /sdcard/f');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.list.map((i) => i.next)).toEqual(['&&', ';', '||', null]);
    expect(r.list[1]?.pipeline[0]?.redirects).toEqual([{ fd: 2, op: '>', target: '/dev/null' }]);
    expect(r.list[2]?.pipeline[0]?.redirects).toEqual([{ fd: 2, op: '>&', target: '1' }]);
    expect(r.list[3]?.pipeline.map((c) => c.argv)).toEqual([['echo', 'm'], ['cat']]);
    expect(r.list[3]?.pipeline[1]?.redirects).toEqual([{ fd: 1, op: '>', target: '/sdcard/f' }]);
    // A digit inside a word is not an fd: "a2>b" is the word a2 redirected to b.
    expect(argvs('echo a2>b')).toEqual([['echo', 'a2']]);
  });

  it('rejects broken lines with a syntax error', () => {
    for (const bad of ["echo 'open", 'echo a &&', '&& echo', 'echo a | ', 'sleep 1 &', 'echo >']) {
      expect(parseCommandLine(bad).ok, bad).toBe(false);
    }
  });
});

describe('shell interpreter', () => {
  const run = (line: string, phone = new StandInPhone()) =>
    captureCommandLine(line, { phone, commands: COMMANDS }).then((r) => ({
      out: r.stdout?.toString() ?? '',
      err: r.stderr?.toString() ?? '',
      code: r.code,
    }));

  it('sequences with exit codes', async () => {
    expect(await run('false && echo no; echo $?x || echo never')).toEqual({ out: '$?x\n', err: '', code: 0 });
    expect(await run('nope || echo recovered')).toEqual({
      out: 'recovered\n',
      err: '/system/bin/sh: nope: not found\n',
      code: 0,
    });
    expect((await run('true; nope')).code).toBe(127);
  });

  it('redirects to files and /dev/null, and pipes', async () => {
    const phone = new StandInPhone();
    expect(await run('echo hi > /sdcard/a.txt; ls /nope 2>/dev/null; cat /sdcard/a.txt | cat', phone)).toEqual({
      out: 'hi\n',
      err: '',
      code: 0,
    });
    await run('echo more >> /sdcard/a.txt; ls /nope >> /sdcard/a.txt 2>&1', phone);
    expect(phone.files.get('/sdcard/a.txt')?.toString()).toBe('hi\nmore\nls: /nope: No such file or directory\n');
  });

  it('answers the Android formats clients parse', async () => {
    const phone = new StandInPhone();
    await phone.launch('com.android.settings', '.Settings');
    const win = (await run('dumpsys window displays', phone)).out;
    expect(win).toMatch(
      /^\s*mCurrentFocus=Window\{\w+ u0 com\.android\.settings\/com\.android\.settings\.Settings\}$/m,
    );
    expect(win).toMatch(/^\s*mFocusedApp=ActivityRecord\{\w+ u0 com\.android\.settings\/\.Settings t\d+\}$/m);
    expect((await run('dumpsys activity activities', phone)).out).toMatch(
      /^\s*ResumedActivity: ActivityRecord\{\w+ u0 com\.android\.settings\/\.Settings t\d+\}$/m,
    );
    expect((await run('pm list packages -3', phone)).out).toBe('package:com.foodshop\n');
    expect((await run('pm path com.android.settings', phone)).out).toMatch(/^package:\/system\/.+\.apk\n$/);
    expect((await run('pm path com.nope', phone)).code).toBe(1);
    expect((await run('settings get global wifi_on', phone)).out).toBe('1\n');
    expect((await run('settings get system nope', phone)).out).toBe('null\n');
    expect((await run('ime list -s', phone)).out).toBe('com.android.inputmethod.latin/.LatinIME\n');
    expect((await run('ime enable com.phoneagent.ime/.AgentIme', phone)).out).toBe(
      'Input method com.phoneagent.ime/.AgentIme: now enabled for user #0\n',
    );
    expect((await run('ime set com.phoneagent.ime/.AgentIme', phone)).out).toBe(
      'Input method com.phoneagent.ime/.AgentIme selected for user #0\n',
    );
  });

  it('launches, stops and commits IME text through am and monkey', async () => {
    const phone = new StandInPhone();
    const start = await run('am start -W -n com.foodshop/.MenuActivity', phone);
    expect(start.out).toMatch(/^Starting: Intent \{ .*cmp=com\.foodshop\/\.MenuActivity \}\nStatus: ok\n/);
    expect(phone.foreground().package).toBe('com.foodshop');
    expect((await run('am start -n com.foodshop/.Nope', phone)).out).toContain(
      'Error: Activity class {com.foodshop/com.foodshop.Nope} does not exist.',
    );
    await run('am force-stop com.foodshop', phone);
    expect(phone.foreground().package).toBe('com.android.launcher3');
    const monkey = await run('monkey -p com.android.settings -c android.intent.category.LAUNCHER 1', phone);
    expect(monkey.out).toContain('Events injected: 1');
    expect(phone.foreground().package).toBe('com.android.settings');
    expect((await run('monkey -p com.nope 1', phone)).code).toBe(252);
    const b64 = Buffer.from('你好 café').toString('base64');
    expect((await run(`am broadcast -a ADB_INPUT_B64 --es msg ${b64}`, phone)).out).toContain(
      'Broadcast completed: result=0',
    );
    expect(phone.typed).toBe('你好 café');
  });

  it('drops input under the dropInput fault but still exits 0', async () => {
    const phone = new StandInPhone();
    phone.faults.dropInput = true;
    expect((await run('input tap 10 10', phone)).code).toBe(0);
    expect(phone.log).toEqual([]);
  });
});
