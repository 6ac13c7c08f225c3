import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { CLOCK_PACKAGE } from '../../src/testbed/sim/apps/clock.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findAllIn, findIn, setText, settle, tapOn } from './helpers.js';

/** Clock through the phone's input surface: the alarm editor, the alarm list, the timer, zh. */

/** Friday 2024-03-15 20:00 UTC: a one-off morning alarm rings tomorrow. */
const FRIDAY_EVENING = Date.UTC(2024, 2, 15, 20, 0);

async function openClock(locale: 'en' | 'zh' = 'en'): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed: 5, locale, clock: new VirtualClock({ start: FRIDAY_EVENING }) });
  expect((await phone.launch(CLOCK_PACKAGE)).ok).toBe(true);
  await settle(phone);
  return phone;
}

const seeded = (phone: VirtualPhone) => phone.world.alarms.filter((a) => a.id <= 2);

describe('Clock alarms', () => {
  it('lists the seeded alarms by time with their repeat summary and on/off state', async () => {
    const phone = await openClock();
    expect(phone.world.alarms).toHaveLength(2);
    const snap = await phone.readTree();
    expect(snap.foreground).toEqual({ package: CLOCK_PACKAGE, activity: '.DeskClock' });
    const [weekday, weekend] = [...phone.world.alarms].sort((a, b) => a.hour - b.hour);
    const times = findAllIn(snap, { id: 'digital_clock' }).map((n) => n.text);
    expect(times).toEqual([`0${weekday?.hour}:30`, '09:00']);
    expect(findAllIn(snap, { id: 'label' }).map((n) => n.text)).toEqual(['Mon–Fri', 'Weekend · Sat, Sun']);
    expect(findAllIn(snap, { id: 'onoff' }).map((n) => n.flags.checked)).toEqual([false, true]);
    // The list's switch flips the alarm in the world without opening the editor.
    await tapOn(phone, { id: 'onoff', desc: `0${weekday?.hour}:30` });
    expect(weekday?.enabled).toBe(true);
    expect(weekend?.enabled).toBe(true);
    expect(phone.foreground().activity).toBe('.DeskClock');
  });

  it('Add alarm → hour, minute, label, Mon–Fri toggles, Save stores one repeating alarm', async () => {
    const phone = await openClock();
    await tapOn(phone, { id: 'fab', text: 'Add alarm' });
    const { snap } = await find(phone, { id: 'input_hour' });
    expect(snap.foreground.activity).toBe('.AlarmEditActivity');
    // Empty fields report their hint as text, as Android does; Save waits for a time.
    expect(findIn(snap, { id: 'input_hour' })?.text).toBe('Hour');
    expect(findIn(snap, { id: 'save' })?.flags.enabled).toBe(false);
    const days = findAllIn(snap, { className: 'android.widget.ToggleButton' });
    expect(days.map((n) => n.text)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(days.every((n) => n.flags.checkable && !n.flags.checked)).toBe(true);

    await setText(phone, { id: 'input_hour' }, '06');
    await setText(phone, { id: 'input_minute' }, '45');
    await setText(phone, { id: 'edit_label' }, 'Gym');
    for (const d of [1, 2, 3, 4, 5]) await tapOn(phone, { id: `day_button_${d}` });
    // A second tap on Wednesday turns it off again, a third back on.
    await tapOn(phone, { id: 'day_button_3' });
    expect(findIn(await phone.readTree(), { id: 'day_button_3' })?.flags.checked).toBe(false);
    await tapOn(phone, { id: 'day_button_3' });
    expect(phone.world.alarms).toHaveLength(2); // nothing is stored before Save
    await tapOn(phone, { id: 'save' });

    expect(phone.world.alarms.slice(2)).toEqual([
      { id: 3, hour: 6, minute: 45, label: 'Gym', days: [1, 2, 3, 4, 5], enabled: true },
    ]);
    const list = await phone.readTree();
    expect(list.foreground.activity).toBe('.DeskClock');
    expect(findAllIn(list, { id: 'label' }).map((n) => n.text)).toContain('Gym · Mon–Fri');
  });

  it('rejects an impossible time, and Cancel discards the draft', async () => {
    const phone = await openClock();
    await tapOn(phone, { id: 'fab' });
    await setText(phone, { id: 'input_hour' }, '25');
    await setText(phone, { id: 'input_minute' }, '00');
    await tapOn(phone, { id: 'save' });
    expect((await find(phone, { id: 'error' })).node.text).toMatch(/hour 0–23/);
    expect(phone.world.alarms).toHaveLength(2);
    await tapOn(phone, { id: 'cancel' });
    expect(phone.foreground().activity).toBe('.DeskClock');
    expect(phone.world.alarms).toHaveLength(2);
    // The next Add starts blank.
    await tapOn(phone, { id: 'fab' });
    expect((await find(phone, { id: 'input_hour' })).node.text).toBe('Hour');
  });

  it('tapping an alarm edits it in place (pre-filled), and Delete removes it', async () => {
    const phone = await openClock();
    const weekend = phone.world.alarms.find((a) => a.label === 'Weekend');
    await tapOn(phone, { id: 'digital_clock', text: '09:00' });
    expect((await find(phone, { id: 'action_bar_title' })).node.text).toBe('Edit alarm');
    expect((await find(phone, { id: 'input_hour' })).node.text).toBe('09');
    expect((await find(phone, { id: 'day_button_6' })).node.flags.checked).toBe(true);
    await setText(phone, { id: 'input_minute' }, '15');
    await tapOn(phone, { id: 'onoff' });
    await tapOn(phone, { id: 'save' });
    expect(weekend).toMatchObject({ hour: 9, minute: 15, enabled: false, days: [0, 6] });
    expect(phone.world.alarms).toHaveLength(2);
    await tapOn(phone, { id: 'digital_clock', text: '09:15' });
    await tapOn(phone, { id: 'delete' });
    expect(phone.world.alarms.map((a) => a.label)).toEqual(['']);
    expect(seeded(phone)).toHaveLength(1);
  });
});

describe('Clock timer', () => {
  it('h/m/s fields set the duration without starting it; Start runs it to the end on the phone clock', async () => {
    const phone = await openClock();
    await tapOn(phone, { id: 'tab_menu_timer' });
    expect(findIn(await phone.readTree(), { id: 'fab', text: 'Start' })?.flags.enabled).toBe(false);
    await setText(phone, { id: 'timer_hours' }, '1');
    await setText(phone, { id: 'timer_minutes' }, '2');
    await setText(phone, { id: 'timer_seconds' }, '5');
    expect(phone.world.timer).toEqual({ durationSec: 3725, running: false });
    expect((await find(phone, { id: 'timer_setup_time' })).node.text).toBe('01:02:05');

    await tapOn(phone, { id: 'fab', text: 'Start' });
    expect(phone.world.timer.running).toBe(true);
    await settle(phone, 60_000);
    expect((await find(phone, { id: 'timer_time' })).node.text).toMatch(/^01:01:0[45]$/);
    await settle(phone, 3_700_000);
    expect(phone.world.timer.running).toBe(false);
    expect((await find(phone, { id: 'timer_setup_time' })).node.text).toBe('01:02:05');
  });

  it('the digit keypad enters from the right into the same fields; ⌫ drops the last digit', async () => {
    const phone = await openClock();
    await tapOn(phone, { id: 'tab_menu_timer' });
    for (const k of ['1', '3', '0']) await tapOn(phone, { id: `timer_key_${k}` });
    expect(phone.world.timer.durationSec).toBe(90);
    expect((await find(phone, { id: 'timer_setup_time' })).node.text).toBe('00:01:30');
    await tapOn(phone, { id: 'timer_key_00' });
    expect((await find(phone, { id: 'timer_setup_time' })).node.text).toBe('01:30:00');
    await tapOn(phone, { id: 'timer_delete' });
    expect(phone.world.timer.durationSec).toBe(13 * 60);
    const snap = await phone.readTree();
    expect(['timer_hours', 'timer_minutes', 'timer_seconds'].map((id) => findIn(snap, { id })?.text)).toEqual([
      '0',
      '13',
      '0',
    ]);
    expect(phone.world.timer.running).toBe(false);
  });

  it('after a force stop the set-up fields show the duration kept in the world', async () => {
    const phone = await openClock();
    await tapOn(phone, { id: 'tab_menu_timer' });
    await setText(phone, { id: 'timer_minutes' }, '90');
    expect(phone.world.timer.durationSec).toBe(5400);
    expect((await phone.forceStop(CLOCK_PACKAGE)).ok).toBe(true);
    expect((await phone.launch(CLOCK_PACKAGE)).ok).toBe(true);
    await settle(phone);
    await tapOn(phone, { id: 'tab_menu_timer' });
    const snap = await phone.readTree();
    expect(['timer_hours', 'timer_minutes', 'timer_seconds'].map((id) => findIn(snap, { id })?.text)).toEqual([
      '1',
      '30',
      '0',
    ]);
    expect(findIn(snap, { id: 'timer_setup_time' })?.text).toBe('01:30:00');
  });

  it('Pause keeps the time left as the new set-up', async () => {
    const phone = await openClock();
    await tapOn(phone, { id: 'tab_menu_timer' });
    await setText(phone, { id: 'timer_minutes' }, '10');
    await tapOn(phone, { id: 'fab' });
    await settle(phone, 120_000);
    await tapOn(phone, { id: 'pause' });
    expect(phone.world.timer.running).toBe(false);
    expect(phone.world.timer.durationSec).toBeLessThan(600 - 119);
    expect((await find(phone, { id: 'timer_minutes' })).node.text).toMatch(/^[78]$/);
  });
});

describe('Clock in Chinese', () => {
  it('creates 晨跑 at 7:30 once (rings tomorrow); XML dump and PNG show the Chinese UI', async () => {
    const phone = await openClock('zh');
    await tapOn(phone, { id: 'fab', text: '添加闹钟' });
    await setText(phone, { id: 'input_hour' }, '7');
    await setText(phone, { id: 'input_minute' }, '30');
    await tapOn(phone, { id: 'edit_label' });
    expect((await phone.imeCommit('晨跑')).ok).toBe(true);
    await phone.key('back');
    await settle(phone);
    const xml = await phone.dumpXml();
    expect(xml).toContain('text="晨跑"');
    expect(xml).toContain(`resource-id="${CLOCK_PACKAGE}:id/day_button_1"`);
    expect(xml).toContain('text="周一"');
    const before = await phone.screenshot();
    expect(before.png.subarray(1, 4).toString()).toBe('PNG');
    await tapOn(phone, { id: 'save', text: '保存' });
    expect(phone.world.alarms.slice(2)).toEqual([
      { id: 3, hour: 7, minute: 30, label: '晨跑', days: [], enabled: true },
    ]);
    const list = await phone.readTree();
    expect(findAllIn(list, { id: 'label' }).map((n) => n.text)).toContain('晨跑 · 明天');
    expect(findIn(list, { id: 'tab_menu_timer' })?.text).toBe('计时器');
    expect((await phone.screenshot()).png.equals(before.png)).toBe(false);
  });
});
