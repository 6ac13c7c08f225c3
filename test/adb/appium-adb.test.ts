import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// appium-adb's own logger (a dependency of appium-adb): its level is global, so quiet it here.
import { logger } from '@appium/support';
import { ADB } from 'appium-adb';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdbDevice, startAdbDevice } from '../../src/testbed/sim/adbd/index.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { PrivateAdbServer } from './support/adb-server.js';
import { centre, findNode, settle } from './support/phone.js';

/**
 * A third-party client, unchanged: appium-adb (Appium's ADB layer) talks to our private adb
 * server with the system `adb` binary. Its parsers of getprop, wm, dumpsys, pm and ime output are
 * a strict check that the virtual phone answers like Android.
 */

let server: PrivateAdbServer;
let device: AdbDevice;
let phone: VirtualPhone;
let adb: ADB;

beforeAll(async () => {
  logger.getLogger('adb-test').level = 'warn';
  phone = new VirtualPhone({ seed: 11 });
  device = await startAdbDevice({ phone });
  server = await PrivateAdbServer.start();
  const udid = `127.0.0.1:${device.port}`;
  await server.connect(udid);
  // The constructor, not ADB.createADB(): no SDK lookup, no downloads; the system adb on PATH,
  // our private server's port, never 5037.
  adb = new ADB({ adbPort: server.port, udid, executable: { path: 'adb', defaultArgs: [] }, adbExecTimeout: 20_000 });
});

afterAll(async () => {
  await server?.kill();
  await device?.close();
});

describe('appium-adb against the virtual phone', () => {
  it('talks only to our private server', () => {
    expect(adb.executable.defaultArgs).toEqual(['-P', String(server.port), '-s', `127.0.0.1:${device.port}`]);
  });

  it('reads the API level, platform version, screen size and density', async () => {
    expect(await adb.getApiLevel()).toBe(34);
    expect(await adb.getPlatformVersion()).toBe('14');
    expect(await adb.getScreenSize()).toBe('1080x2400');
    expect(await adb.getScreenDensity()).toBe(420);
    expect(await adb.getModel()).toBe('Pixel 7');
  });

  it('lists packages and knows what is installed', async () => {
    const pkgs = await adb.listInstalledPackages();
    expect(pkgs.map((p) => p.appPackage)).toEqual(expect.arrayContaining(['com.android.settings', 'com.acme.bank']));
    expect(await adb.isAppInstalled('com.acme.bank')).toBe(true);
    expect(await adb.isAppInstalled('com.example.missing')).toBe(false);
    expect(await adb.resolveLaunchableActivity('com.android.settings')).toBe('com.android.settings/.Settings');
  });

  it('reads the focused package and activity', async () => {
    expect(await adb.getFocusedPackageAndActivity()).toEqual({
      appPackage: 'com.android.launcher3',
      appActivity: '.Launcher',
    });
  });

  it('launches Settings, and a tap toggles Wi-Fi', async () => {
    // Android 14: the Wi-Fi switch is on Network & internet → Internet.
    await adb.startApp({ pkg: 'com.android.settings', activity: '.InternetSettings' });
    await settle(phone);
    expect(await adb.getFocusedPackageAndActivity()).toEqual({
      appPackage: 'com.android.settings',
      appActivity: '.InternetSettings',
    });
    const before = phone.world.settings.wifi;
    const wifi = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/wifi_switch')));
    await adb.shell(['input', 'tap', String(wifi.x), String(wifi.y)]);
    expect(phone.world.settings.wifi).toBe(!before);
    expect(await adb.getSetting('global', 'wifi_on')).toBe(before ? '0' : '1');
  });

  it('activates an app and types ASCII text into its field', async () => {
    await adb.activateApp('com.acme.bank');
    await settle(phone);
    expect((await adb.getFocusedPackageAndActivity()).appPackage).toBe('com.acme.bank');
    const email = centre(await findNode(phone, (n) => n.resourceId.endsWith(':id/email')));
    await adb.shell(['input', 'tap', String(email.x), String(email.y)]);
    // appium escapes shell metacharacters and turns spaces into %s.
    await adb.inputText("it's a (test)");
    expect((await findNode(phone, (n) => n.resourceId.endsWith(':id/email'))).text).toBe("it's a (test)");
    expect((await adb.isSoftKeyboardPresent()).isKeyboardShown).toBe(true);
  });

  it('switches input methods', async () => {
    expect(await adb.enabledIMEs()).toEqual(['com.android.inputmethod.latin/.LatinIME']);
    await adb.enableIME('com.phoneagent.ime/.AgentIme');
    await adb.setIME('com.phoneagent.ime/.AgentIme');
    expect(await adb.defaultIME()).toBe('com.phoneagent.ime/.AgentIme');
    expect(await adb.availableIMEs()).toContain('com.phoneagent.ime/.AgentIme');
  });

  it('takes a screenshot of the current screen', async () => {
    const png = await adb.takeScreenshot();
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 2400]);
    expect(png.equals((await phone.screenshot()).png)).toBe(true);
  });

  it('force-stops the app and pushes/pulls files', async () => {
    await adb.forceStop('com.acme.bank');
    await settle(phone);
    expect(phone.foreground().package).not.toBe('com.acme.bank');
    expect(await adb.fileExists('/sdcard/Download')).toBe(true);
    expect(await adb.fileExists('/sdcard/nothing-here')).toBe(false);
    const dir = await mkdtemp(join(tmpdir(), 'appium-adb-'));
    await writeFile(join(dir, 'a.txt'), 'from appium');
    await adb.push(join(dir, 'a.txt'), '/sdcard/Documents/a.txt');
    expect(phone.world.files.get('/sdcard/Documents/a.txt')?.toString()).toBe('from appium');
    expect(await adb.ls('/sdcard/Documents')).toEqual(['a.txt']);
    await adb.pull('/sdcard/Documents/a.txt', join(dir, 'b.txt'));
    expect(await readFile(join(dir, 'b.txt'), 'utf8')).toBe('from appium');
    await adb.shell(['mv', '/sdcard/Documents/a.txt', '/sdcard/Download/a.txt']);
    expect(phone.world.files.has('/sdcard/Documents/a.txt')).toBe(false);
    expect(phone.world.files.get('/sdcard/Download/a.txt')?.toString()).toBe('from appium');
  });
});
