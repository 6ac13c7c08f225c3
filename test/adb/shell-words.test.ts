import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/testbed/sim/adbd/shell/commands/index.js';
import { captureCommandLine } from '../../src/testbed/sim/adbd/shell/interpreter.js';
import { parseCommandLine } from '../../src/testbed/sim/adbd/shell/words.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { centre, findNode, settle } from './support/phone.js';

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
    for (const bad of ["echo 'open", 'echo a &&', '&& echo', 'echo a | ', 'echo >', '& echo']) {
      expect(parseCommandLine(bad).ok, bad).toBe(false);
    }
  });

  it('reads `&` as a background job and NAME=value words as part of the command', () => {
    const r = parseCommandLine('CLASSPATH=/data/local/tmp/x.dex nohup app_process / X >/dev/null 2>&1 &');
    if (!r.ok) throw new Error(r.message);
    expect(r.list).toHaveLength(1);
    expect(r.list[0]?.next).toBe('&');
    expect(r.list[0]?.pipeline[0]?.argv[0]).toBe('CLASSPATH=/data/local/tmp/x.dex');
  });
});

describe('shell interpreter', () => {
  const run = (line: string, phone = new VirtualPhone({ seed: 2 })) =>
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
    const phone = new VirtualPhone({ seed: 2 });
    expect(await run('echo hi > /sdcard/a.txt; ls /nope 2>/dev/null; cat /sdcard/a.txt | cat', phone)).toEqual({
      out: 'hi\n',
      err: '',
      code: 0,
    });
    await run('echo more >> /sdcard/a.txt; ls /nope >> /sdcard/a.txt 2>&1', phone);
    expect(await run('echo x > /system/x', phone)).toEqual({
      out: '',
      err: "/system/bin/sh: can't create /system/x: Read-only file system\n",
      code: 1,
    });
    expect(phone.world.files.get('/sdcard/a.txt')?.toString()).toBe('hi\nmore\nls: /nope: No such file or directory\n');
  });

  it('answers the Android formats clients parse', async () => {
    const phone = new VirtualPhone({ seed: 2 });
    await phone.launch('com.android.settings', '.Settings');
    await settle(phone);
    const win = (await run('dumpsys window displays', phone)).out;
    expect(win).toMatch(
      /^\s*mCurrentFocus=Window\{\w+ u0 com\.android\.settings\/com\.android\.settings\.Settings\}$/m,
    );
    expect(win).toMatch(/^\s*mFocusedApp=ActivityRecord\{\w+ u0 com\.android\.settings\/\.Settings t\d+\}$/m);
    expect((await run('dumpsys activity activities', phone)).out).toMatch(
      /^\s*ResumedActivity: ActivityRecord\{\w+ u0 com\.android\.settings\/\.Settings t\d+\}$/m,
    );
    const third = (await run('pm list packages -3', phone)).out;
    expect(third).toMatch(/^package:com\.foodshop$/m);
    expect(third).not.toMatch(/com\.android\.settings/);
    expect((await run('pm path com.android.settings', phone)).out).toMatch(/^package:\/system\/.+\.apk\n$/);
    expect((await run('pm path com.nope', phone)).code).toBe(1);
    expect((await run('settings get global wifi_on', phone)).out).toBe('1\n');
    expect((await run('settings get system nope', phone)).out).toBe('null\n');
    expect((await run('ime list -s', phone)).out).toBe('com.android.inputmethod.latin/.LatinIME\n');
    expect((await run('ime enable com.phoneagent.ime/.AgentIme', phone)).out).toBe(
      'Input method com.phoneagent.ime/.AgentIme: now enabled for user #0\n',
    );
    expect((await run('settings get secure enabled_input_methods', phone)).out).toContain(
      'com.phoneagent.ime/.AgentIme',
    );
    expect((await run('ime set com.phoneagent.ime/.AgentIme', phone)).out).toBe(
      'Input method com.phoneagent.ime/.AgentIme selected for user #0\n',
    );
  });

  it('launches and stops apps through am and monkey', async () => {
    const phone = new VirtualPhone({ seed: 2 });
    const start = await run('am start -W -n com.foodshop/.MenuActivity', phone);
    expect(start.out).toMatch(/^Starting: Intent \{ .*cmp=com\.foodshop\/\.MenuActivity \}\nStatus: ok\n/);
    await settle(phone);
    expect(phone.foreground().package).toBe('com.foodshop');
    expect((await run('am start -n com.foodshop/.Nope', phone)).out).toContain(
      'Error: Activity class {com.foodshop/com.foodshop.Nope} does not exist.',
    );
    await run('am force-stop com.foodshop', phone);
    await settle(phone);
    expect(phone.foreground().package).toBe('com.android.launcher3');
    const monkey = await run('monkey -p com.android.settings -c android.intent.category.LAUNCHER 1', phone);
    expect(monkey.out).toContain('Events injected: 1');
    await settle(phone);
    expect(phone.foreground().package).toBe('com.android.settings');
    expect((await run('monkey -p com.nope 1', phone)).code).toBe(252);
  });

  it('drops input under the dropInput fault but still exits 0', async () => {
    const phone = new VirtualPhone({ seed: 2 });
    await run('am start -n com.android.settings/.InternetSettings', phone);
    await settle(phone);
    const wifi = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/wifi_switch')));
    const before = phone.world.settings.wifi;
    phone.faults.dropInput = true;
    expect((await run(`input tap ${wifi.x} ${wifi.y}`, phone)).code).toBe(0);
    expect(phone.world.settings.wifi).toBe(before);
    phone.faults.dropInput = false;
    expect((await run(`input tap ${wifi.x} ${wifi.y}`, phone)).code).toBe(0);
    expect(phone.world.settings.wifi).toBe(!before);
  });

  it('goes home and back with key events, scrolls with swipe, and sets brightness', async () => {
    const phone = new VirtualPhone({ seed: 2 });
    await run('am start -n com.android.settings/.Settings', phone);
    await settle(phone);
    const top = async () => (await findNode(phone, (n) => n.resourceId.endsWith(':id/search_action_bar'))).bounds.top;
    const before = await top();
    expect((await run('input swipe 540 1800 540 600 400', phone)).code).toBe(0);
    await settle(phone);
    const after = await phone.readTree();
    const wifi = after.nodes.find((n) => n.resourceId.endsWith(':id/search_action_bar') && n.flags.visible);
    expect(wifi === undefined || wifi.bounds.top < before).toBe(true);
    expect((await run('input keyevent KEYCODE_HOME', phone)).code).toBe(0);
    await settle(phone);
    expect(phone.foreground().package).toBe('com.android.launcher3');
    expect((await run('input keyevent FROBNICATE', phone)).code).not.toBe(0);
    await run('settings put system screen_brightness 77', phone);
    expect(phone.world.settings.brightness).toBe(77);
    expect((await run('settings get system screen_brightness', phone)).out).toBe('77\n');
    await run('svc bluetooth enable', phone);
    expect(phone.world.settings.bluetooth).toBe(true);
  });

  it('pays the device latencies and the slow-dump fault on the phone clock', async () => {
    const phone = new VirtualPhone({ seed: 2, latency: { shellInput: 400, uiautomatorDump: 1500 } });
    let t = phone.clock.now();
    await run('input keyevent 4', phone);
    expect(phone.clock.now() - t).toBeGreaterThanOrEqual(400);
    phone.faults.slowTreeMs = 5000;
    t = phone.clock.now();
    expect((await run('uiautomator dump', phone)).out).toBe('UI hierchary dumped to: /sdcard/window_dump.xml\n');
    expect(phone.clock.now() - t).toBeGreaterThanOrEqual(6500);
  });

  it('reports that APKs cannot be installed, as pm would for a file that is not an APK', async () => {
    const phone = new VirtualPhone({ seed: 2 });
    phone.writeFile('/data/local/tmp/app.apk', Buffer.from('PK not really'));
    const r = await run('pm install -r /data/local/tmp/app.apk', phone);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Failure \[INSTALL_PARSE_FAILED_NOT_APK: /);
    expect((await run('pm install /data/local/tmp/none.apk', phone)).err).toContain('Unable to open file');
  });

  it('pipes dumpsys through grep, head, tail and wc, and finds files', async () => {
    const phone = new VirtualPhone({ seed: 2 });
    expect((await run('dumpsys window | grep mCurrentFocus | head -n 1', phone)).out).toMatch(
      /^\s*mCurrentFocus=Window\{\w+ u0 com\.android\.launcher3\/com\.android\.launcher3\.Launcher\}\n$/,
    );
    expect((await run('getprop | grep -c ro.product', phone)).out).toMatch(/^\d+\n$/);
    expect((await run('getprop | grep -E "version\\.(sdk|release)\\]" | wc -l', phone)).out).toBe('2\n');
    expect((await run('echo a; echo b; echo c', phone)).out).toBe('a\nb\nc\n');
    expect((await run('pm list packages | grep -q com.nope', phone)).code).toBe(1);
    expect((await run('pm list packages | tail -n 1 | grep -o "com\\.[a-z.]*"', phone)).code).toBe(0);
    phone.writeFile('/sdcard/Download/sub/x.png', Buffer.from('x'));
    expect((await run("find /sdcard -name '*.png'", phone)).out).toBe('/sdcard/Download/sub/x.png\n');
    expect((await run('find /sdcard/Download -type d', phone)).out).toBe('/sdcard/Download\n/sdcard/Download/sub\n');
  });

  it('turns a crashing tool into an exception message and exit 255, and keeps going', async () => {
    const phone = new VirtualPhone({ seed: 2 });
    const broken: VirtualPhone = Object.create(phone);
    broken.screenshot = async () => {
      throw new Error('display gone');
    };
    const r = await run('screencap -p; echo after', broken);
    expect(r.err).toContain('display gone');
    expect(r.out).toBe('after\n');
    expect((await run('screencap -p', broken)).code).toBe(255);
  });
});
