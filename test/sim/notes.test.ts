import { describe, expect, it } from 'vitest';
import { noteByTitle, sortedNotes } from '../../src/testbed/sim/apps/notes-data.js';
import { VirtualPhone } from '../../src/testbed/sim/index.js';
import { find, findAllIn, findIn, setText, settle, tapOn } from './helpers.js';

/** Notes through the phone's input surface: list, full note, editor, delete, and Share → Messages. */

const NOTES = 'com.android.notes';

async function openNotes(locale: 'en' | 'zh' = 'en', seed = 3): Promise<VirtualPhone> {
  const phone = new VirtualPhone({ seed, locale });
  expect((await phone.launch(NOTES)).ok).toBe(true);
  await settle(phone);
  return phone;
}

describe('Notes', () => {
  it('lists seeded notes newest first (title + preview); a note shows its full body', async () => {
    const phone = await openNotes();
    const notes = sortedNotes(phone.world);
    expect(notes.length).toBe(12);
    const snap = await phone.readTree();
    const titles = findAllIn(snap, { id: 'note_title' }).map((n) => n.text);
    expect(titles.length).toBeGreaterThan(4);
    expect(titles).toEqual(notes.slice(0, titles.length).map((n) => n.title));
    const previews = findAllIn(snap, { id: 'note_preview' }).map((n) => n.text);
    expect(previews[0]).toBe(notes[0]!.body.length > 48 ? `${notes[0]!.body.slice(0, 47)}…` : notes[0]!.body);

    const note = notes[2]!;
    await tapOn(phone, { id: 'note_title', text: note.title });
    expect((await phone.readTree()).foreground).toEqual({ package: NOTES, activity: '.NoteActivity' });
    expect((await find(phone, { id: 'note_body' })).node.text).toBe(note.body);
    expect((await find(phone, { id: 'note_edited' })).node.text).toMatch(/^Edited [A-Z][a-z]{2} \d{1,2}, 20\d\d$/);
  });

  it('bodies are seeded: another seed gives some note another body', async () => {
    const a = new VirtualPhone({ seed: 1 }).world.notes.map((n) => n.body);
    const b = new VirtualPhone({ seed: 2 }).world.notes.map((n) => n.body);
    const c = new VirtualPhone({ seed: 1 }).world.notes.map((n) => n.body);
    expect(a).toEqual(c);
    expect(a).not.toEqual(b);
  });

  it('Share → Messages opens compose with the body as the draft; sending records exactly that body', async () => {
    const phone = await openNotes();
    const note = noteByTitle(phone.world, 'Parking spot')!;
    await setText(phone, { id: 'search' }, 'Parking');
    expect(findAllIn(await phone.readTree(), { id: 'note_title' }).map((n) => n.text)).toEqual(['Parking spot']);
    await tapOn(phone, { id: 'note_title', text: 'Parking spot' });
    await tapOn(phone, { id: 'share' });
    const chooser = await phone.readTree();
    expect(findIn(chooser, { text: 'Share' })).toBeDefined();
    await tapOn(phone, { text: 'Cancel' });
    expect((await phone.readTree()).foreground.activity).toBe('.NoteActivity');

    await tapOn(phone, { id: 'share' });
    await tapOn(phone, { text: 'Messages' });
    const compose = await phone.readTree();
    expect(compose.foreground).toEqual({ package: 'com.android.messaging', activity: '.ComposeActivity' });
    expect(findIn(compose, { id: 'message' })?.text).toBe(note.body);
    expect(phone.world.sent).toEqual([]);
    await setText(phone, { id: 'recipient' }, '15551234567');
    await tapOn(phone, { id: 'send' });
    expect(phone.world.sent).toEqual([expect.objectContaining({ to: '15551234567', body: note.body })]);
    expect(phone.world.events.map((e) => e.kind)).toEqual(['sent']);
    // The note itself is unchanged by sharing it.
    expect(noteByTitle(phone.world, 'Parking spot')?.body).toBe(note.body);
  });

  it('a second share into a running Messages replaces the draft with the new text', async () => {
    const phone = await openNotes();
    const first = noteByTitle(phone.world, 'Gate code')!;
    const second = noteByTitle(phone.world, 'Gift ideas')!;
    for (const note of [first, second]) {
      // Notes resumes on the note shared last time: back to its list first.
      await phone.launch(NOTES);
      await settle(phone);
      if ((await phone.readTree()).foreground.activity === '.NoteActivity') {
        await phone.key('back');
        await settle(phone);
      }
      await setText(phone, { id: 'search' }, note.title);
      await tapOn(phone, { id: 'note_title', text: note.title });
      await tapOn(phone, { id: 'share' });
      await tapOn(phone, { text: 'Messages' });
      expect(findIn(await phone.readTree(), { id: 'message' })?.text).toBe(note.body);
    }
  });

  it('creates and edits a note; Delete asks first and records one deleted event', async () => {
    const phone = await openNotes();
    await tapOn(phone, { id: 'new_note' });
    await tapOn(phone, { id: 'save' });
    expect((await find(phone, { id: 'error' })).node.text).toBe('Enter a title or some text');
    await setText(phone, { id: 'title' }, 'Shopping');
    await setText(phone, { id: 'body' }, 'Milk, eggs');
    await tapOn(phone, { id: 'save' });
    expect(phone.world.notes.at(-1)).toMatchObject({ title: 'Shopping', body: 'Milk, eggs' });
    expect((await find(phone, { id: 'note_body' })).node.text).toBe('Milk, eggs');

    await tapOn(phone, { id: 'edit' });
    await setText(phone, { id: 'body' }, 'Milk, eggs, bread');
    await tapOn(phone, { id: 'save' });
    expect((await find(phone, { id: 'note_body' })).node.text).toBe('Milk, eggs, bread');

    await tapOn(phone, { id: 'delete' });
    expect(findIn(await phone.readTree(), { text: 'Delete this note?' })).toBeDefined();
    await tapOn(phone, { id: 'cancel' });
    expect(noteByTitle(phone.world, 'Shopping')).toBeDefined();
    await tapOn(phone, { id: 'delete' });
    await tapOn(phone, { id: 'confirm_delete' });
    expect(noteByTitle(phone.world, 'Shopping')).toBeUndefined();
    expect(phone.world.events).toEqual([
      expect.objectContaining({ kind: 'deleted', app: NOTES, detail: expect.objectContaining({ title: 'Shopping' }) }),
    ]);
    expect((await phone.readTree()).foreground.activity).toBe('.NotesActivity');
  });

  it('in landscape a note keeps Share, Edit and Delete on screen', async () => {
    const phone = new VirtualPhone({ seed: 3, screen: 'landscape' });
    await phone.launch(NOTES);
    await settle(phone);
    const first = sortedNotes(phone.world)[0]!;
    await tapOn(phone, { id: 'note_title', text: first.title });
    const snap = await phone.readTree();
    for (const id of ['share', 'edit', 'delete']) {
      const n = findIn(snap, { id });
      expect(n, id).toBeDefined();
      expect(n!.bounds.bottom).toBeLessThanOrEqual(snap.screen.height);
    }
  });

  it('speaks Chinese in the zh locale: 备忘录, 分享 → 信息', async () => {
    const phone = await openNotes('zh');
    const xml = await phone.dumpXml();
    expect(xml).toContain('text="备忘录"');
    expect(xml).toContain('text="搜索笔记"');
    const note = noteByTitle(phone.world, '购物清单')!;
    await setText(phone, { id: 'search' }, '购物');
    await tapOn(phone, { id: 'note_title', text: '购物清单' });
    expect((await find(phone, { id: 'note_edited' })).node.text).toMatch(/^编辑于 20\d\d年\d{1,2}月\d{1,2}日$/);
    await tapOn(phone, { text: '分享' });
    expect(await phone.dumpXml()).toContain('text="信息"');
    await tapOn(phone, { text: '信息' });
    expect(findIn(await phone.readTree(), { id: 'message' })?.text).toBe(note.body);
  });
});
