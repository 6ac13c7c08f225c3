import { describe, expect, it } from 'vitest';
import { VirtualPhone } from '../../src/testbed/sim/phone.js';

/** System services as adb reaches them: files, settings, input methods, packages. */

describe('system services', () => {
  it('keeps files under /sdcard and /data/local/tmp, and refuses writes elsewhere', () => {
    const phone = new VirtualPhone();
    phone.writeFile('/sdcard/Download/a.txt', Buffer.from('hello'));
    phone.writeFile('/data/local/tmp/bin/tool', Buffer.from([1, 2, 3]));
    expect(phone.readFile('/storage/emulated/0/Download/a.txt')?.toString()).toBe('hello');
    expect(phone.listDir('/sdcard/Download')).toEqual(['a.txt', 'readme.txt']);
    expect(phone.listDir('/data/local/tmp')).toEqual(['bin']);
    expect(phone.listDir('/sdcard')).toEqual(expect.arrayContaining(['DCIM', 'Download', 'Pictures']));
    expect(phone.listDir('/sdcard/Download/a.txt')).toBeUndefined();
    expect(phone.listDir('/nope')).toBeUndefined();
    expect(() => phone.writeFile('/system/build.prop', Buffer.from('x'))).toThrow('Read-only file system');
    expect(phone.world.files.has('/system/build.prop')).toBe(false);
    expect(phone.removeFile('/sdcard/Download/a.txt')).toBe(true);
    expect(phone.removeFile('/sdcard/Download/a.txt')).toBe(false);
    expect(phone.readFile('/sdcard/Download/a.txt')).toBeUndefined();
  });

  it('maps settings keys onto the world and back', () => {
    const phone = new VirtualPhone();
    expect(phone.getSetting('global', 'wifi_on')).toBe('1');
    phone.putSetting('global', 'wifi_on', '0');
    expect(phone.world.settings.wifi).toBe(false);
    phone.putSetting('secure', 'ui_night_mode', '2');
    expect(phone.world.settings.darkMode).toBe(true);
    expect(phone.getSetting('system', 'screen_brightness')).toBe('128');
  });

  it('lists input methods; only an enabled one can become current', () => {
    const phone = new VirtualPhone();
    const ids = phone.imes();
    expect(ids).toEqual([
      { id: 'com.android.inputmethod.latin/.LatinIME', enabled: true, current: true },
      { id: 'com.phoneagent.ime/.AgentIme', enabled: false, current: false },
    ]);
    expect(phone.setIme('com.phoneagent.ime/.AgentIme')).toBe(false);
    expect(phone.enableIme('com.phoneagent.ime/.AgentIme', true)).toBe(true);
    expect(phone.setIme('com.phoneagent.ime/.AgentIme')).toBe(true);
    expect(phone.getSetting('secure', 'enabled_input_methods')).toBe(
      'com.android.inputmethod.latin/.LatinIME:com.phoneagent.ime/.AgentIme',
    );
    // Disabling the current IME falls back to the keyboard.
    phone.enableIme('com.phoneagent.ime/.AgentIme', false);
    expect(phone.imes().find((i) => i.current)?.id).toBe('com.android.inputmethod.latin/.LatinIME');
    expect(phone.enableIme('com.unknown/.Ime', true)).toBe(false);
  });

  it('lists packages with their activities and force-stops apps', async () => {
    const phone = new VirtualPhone({ locale: 'zh' });
    const pkgs = phone.packages();
    expect(pkgs.find((p) => p.package === 'com.android.settings')).toMatchObject({
      label: '设置',
      activities: expect.arrayContaining(['.Settings', '.DisplaySettings']),
    });
    expect(pkgs.some((p) => p.package === 'com.android.systemui')).toBe(true);
    await phone.launch('com.android.settings', '.DisplaySettings');
    expect(phone.foreground()).toEqual({ package: 'com.android.settings', activity: '.DisplaySettings' });
    expect((await phone.forceStop('com.android.settings')).ok).toBe(true);
    expect(phone.foreground().package).toBe('com.android.launcher3');
    expect(phone.info).toMatchObject({ model: 'Pixel 7', androidVersion: '14', apiLevel: 34 });
  });
});
