import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { CALENDAR_PACKAGE } from '../../src/testbed/sim/apps/calendar.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findAllIn, findIn, setText, settle, tapOn } from './helpers.js';

/** Calendar through the phone's input surface: the day view, "tomorrow", the new-event form, zh. */

/** Friday 2024-03-15 20:00 UTC. */
const NOW = Date.UTC(2024, 2, 15, 20, 0);
const TOMORROW = Date.UTC(2024, 2, 16);

async function openCalendar(locale: 'en' | 'zh' = 'en'): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed: 3, locale, clock: new VirtualClock({ start: NOW }) });
  expect((await phone.launch(CALENDAR_PACKAGE)).ok).toBe(true);
  await settle(phone);
  return phone;
}

describe('Calendar', () => {
  it('opens on today; Next day / Previous day / Today move the day shown', async () => {
    const phone = await openCalendar();
    const snap = await phone.readTree();
    expect(snap.foreground).toEqual({ package: CALENDAR_PACKAGE, activity: '.AllInOneActivity' });
    expect(findIn(snap, { id: 'date_title' })?.text).toBe('Fri, Mar 15, 2024');
    expect(findIn(snap, { id: 'empty' })?.text).toBe('No events');
    await tapOn(phone, { desc: 'Next day' });
    expect((await find(phone, { id: 'date_title' })).node.text).toBe('Sat, Mar 16, 2024');
    await tapOn(phone, { desc: 'Previous day' });
    await tapOn(phone, { desc: 'Previous day' });
    expect((await find(phone, { id: 'date_title' })).node.text).toBe('Thu, Mar 14, 2024');
    await tapOn(phone, { id: 'action_today' });
    expect((await find(phone, { id: 'date_title' })).node.text).toBe('Fri, Mar 15, 2024');
  });

  it('New event on tomorrow: title, start time, 45-minute duration from the dropdown, Save', async () => {
    const phone = await openCalendar();
    await tapOn(phone, { desc: 'Next day' });
    await tapOn(phone, { id: 'floating_action_button' });
    const { snap } = await find(phone, { id: 'title' });
    expect(snap.foreground.activity).toBe('.EditEventActivity');
    // The date is pre-filled with the day being viewed; Save waits for a title.
    expect(findIn(snap, { id: 'start_date' })?.text).toBe('2024-03-16');
    expect(findIn(snap, { id: 'save' })?.flags.enabled).toBe(false);
    expect(findIn(snap, { id: 'duration_value' })?.text).toBe('60 minutes ▾');

    await setText(phone, { id: 'title' }, 'Dentist');
    await setText(phone, { id: 'start_time' }, '9:00');
    await tapOn(phone, { id: 'duration' });
    const options = findAllIn(await phone.readTree(), { id: 'duration_option' }).map((n) => n.text);
    expect(options).toEqual(['15 minutes', '30 minutes', '45 minutes', '60 minutes', '90 minutes', '120 minutes']);
    await tapOn(phone, { id: 'duration_option', text: '45 minutes' });
    const form = await phone.readTree();
    expect(findIn(form, { id: 'duration_option' })).toBeUndefined();
    expect(findIn(form, { id: 'duration_value' })?.text).toBe('45 minutes ▾');
    expect(phone.world.calendar).toEqual([]);
    await tapOn(phone, { id: 'save' });

    expect(phone.world.calendar).toEqual([
      { id: 1, title: 'Dentist', start: TOMORROW + 9 * 3_600_000, durationMin: 45 },
    ]);
    const day = await phone.readTree();
    expect(day.foreground.activity).toBe('.AllInOneActivity');
    expect(findIn(day, { id: 'date_title' })?.text).toBe('Sat, Mar 16, 2024');
    expect(findIn(day, { id: 'event_title' })?.text).toBe('Dentist');
    expect(findIn(day, { id: 'event_time' })?.text).toBe('09:00 – 09:45 · 45 minutes');
    // Only on its own day.
    await tapOn(phone, { id: 'action_today' });
    expect(findIn(await phone.readTree(), { id: 'event_title' })).toBeUndefined();
  });

  it('an event opens its details; Delete asks first, Cancel keeps it, Delete removes it and records it', async () => {
    const phone = await openCalendar();
    phone.world.calendar.push({ id: 7, title: 'Standup', start: NOW - 10 * 3_600_000, durationMin: 15 });
    await tapOn(phone, { id: 'action_today' });
    await tapOn(phone, { id: 'event_title', text: 'Standup' });
    expect(phone.foreground().activity).toBe('.EventInfoActivity');
    expect((await find(phone, { id: 'event_time' })).node.text).toBe('10:00 – 10:15 · 15 minutes');
    await tapOn(phone, { id: 'delete' });
    expect((await find(phone, { text: 'Delete this event?' })).node).toBeDefined();
    await tapOn(phone, { text: 'Cancel' });
    expect(phone.world.calendar).toHaveLength(1);
    await tapOn(phone, { id: 'delete' });
    await tapOn(phone, { text: 'Delete', id: 'button1' });
    expect(phone.world.calendar).toEqual([]);
    expect(phone.world.events.map((e) => [e.kind, e.app, e.detail.title])).toEqual([
      ['deleted', CALENDAR_PACKAGE, 'Standup'],
    ]);
    expect(phone.foreground().activity).toBe('.AllInOneActivity');
    expect((await find(phone, { id: 'empty' })).node.text).toBe('No events');
  });

  it('a bad start time or date shows an error and stores nothing; Cancel discards', async () => {
    const phone = await openCalendar();
    await tapOn(phone, { id: 'floating_action_button' });
    expect((await find(phone, { id: 'start_date' })).node.text).toBe('2024-03-15');
    await setText(phone, { id: 'title' }, 'Standup');
    await setText(phone, { id: 'start_time' }, '25:00');
    await tapOn(phone, { id: 'save' });
    expect((await find(phone, { id: 'error' })).node.text).toMatch(/HH:MM/);
    await setText(phone, { id: 'start_time' }, '10:30');
    await setText(phone, { id: 'start_date' }, '2024-02-30');
    await tapOn(phone, { id: 'save' });
    expect((await find(phone, { id: 'error' })).node.text).toMatch(/YYYY-MM-DD/);
    expect(phone.world.calendar).toEqual([]);
    await tapOn(phone, { id: 'cancel' });
    expect(phone.foreground().activity).toBe('.AllInOneActivity');
    expect(phone.world.calendar).toEqual([]);
  });

  it('in Chinese: header, form and the saved event render in the XML dump and the PNG', async () => {
    const phone = await openCalendar('zh');
    await tapOn(phone, { desc: '后一天' });
    expect((await find(phone, { id: 'date_title' })).node.text).toMatch(/2024年3月16日.*周六/);
    await tapOn(phone, { id: 'floating_action_button', text: '新建活动' });
    await tapOn(phone, { id: 'title' });
    expect((await phone.imeCommit('牙医复诊')).ok).toBe(true);
    await phone.key('back');
    await settle(phone);
    await setText(phone, { id: 'start_time' }, '14:00');
    await tapOn(phone, { id: 'duration' });
    await tapOn(phone, { id: 'duration_option', text: '30 分钟' });
    const before = await phone.screenshot();
    await tapOn(phone, { id: 'save', text: '保存' });
    expect(phone.world.calendar).toEqual([
      { id: 1, title: '牙医复诊', start: TOMORROW + 14 * 3_600_000, durationMin: 30 },
    ]);
    const xml = await phone.dumpXml();
    expect(xml).toContain('text="牙医复诊"');
    expect(xml).toContain(`resource-id="${CALENDAR_PACKAGE}:id/event_time"`);
    const after = await phone.screenshot();
    expect(after.png.subarray(1, 4).toString()).toBe('PNG');
    expect(after.png.equals(before.png)).toBe(false);
  });
});
