import type { App, AppContext, AppScreen, Route } from '../app.js';
import type { View } from '../kit/view.js';
import { recordEvent } from '../world.js';
import { formatDate } from './files-data.js';
import { MESSAGES_PACKAGE } from './messages.js';
import { seedNotes, sortedNotes } from './notes-data.js';

/**
 * Notes: a list (title + one-line preview, newest first) with search, a note view with the full
 * body, an editor for new and existing notes, Delete behind a dialog, and Share through a chooser
 * whose Messages target opens Messages' compose screen with the body as the draft (ACTION_SEND).
 */
export const NOTES_PACKAGE = 'com.android.notes';

const T = {
  notes: ['Notes', '备忘录'],
  search: ['Search notes', '搜索笔记'],
  newNote: ['+ New note', '+ 新建笔记'],
  noNotes: ['No notes', '没有笔记'],
  share: ['Share', '分享'],
  messages: ['Messages', '信息'],
  edit: ['Edit', '编辑'],
  delete: ['Delete', '删除'],
  cancel: ['Cancel', '取消'],
  save: ['Save', '保存'],
  title: ['Title', '标题'],
  body: ['Note', '笔记内容'],
  edited: ['Edited ', '编辑于 '],
  deleteTitle: ['Delete this note?', '要删除此笔记吗？'],
  emptyTitle: ['Enter a title or some text', '请输入标题或内容'],
} as const;

function tr(ctx: AppContext, k: keyof typeof T): string {
  return T[k][ctx.locale === 'zh' ? 1 : 0];
}

function preview(body: string): string {
  const line = body.split('\n')[0] ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}

export function createNotesApp(): App {
  let query = '';
  let draftTitle = '';
  let draftBody = '';
  let formError = '';

  const openEditor = (ctx: AppContext, noteId?: number): void => {
    const note = ctx.world.notes.find((n) => n.id === noteId);
    draftTitle = note?.title ?? '';
    draftBody = note?.body ?? '';
    formError = '';
    ctx.navigate('.EditNoteActivity', note ? { noteId: note.id } : {});
  };

  const listScreen = (ctx: AppContext): AppScreen => {
    const q = query.trim().toLowerCase();
    const shown = sortedNotes(ctx.world).filter(
      (n) => !q || n.title.toLowerCase().includes(q) || n.body.toLowerCase().includes(q),
    );
    const rows: View[] = shown.map((n) => ({
      kind: 'column',
      id: 'note_row',
      padding: 12,
      gap: 2,
      onTap: () => ctx.navigate('.NoteActivity', { noteId: n.id }),
      children: [
        { kind: 'text', id: 'note_title', text: n.title, size: 'body', bold: true },
        { kind: 'text', id: 'note_preview', text: preview(n.body), size: 'small', color: '#5f6368' },
      ],
    }));
    if (rows.length === 0) rows.push({ kind: 'text', id: 'empty', text: tr(ctx, 'noNotes'), size: 'body' });
    return {
      activity: '.NotesActivity',
      title: tr(ctx, 'notes'),
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          { kind: 'text', id: 'action_bar_title', text: tr(ctx, 'notes'), size: 'title', bold: true },
          {
            kind: 'edit',
            id: 'search',
            value: query,
            hint: tr(ctx, 'search'),
            onChange: (v) => {
              query = v;
            },
          },
          { kind: 'list', id: 'notes', gap: 0, height: 'fill', children: rows },
          {
            kind: 'button',
            id: 'new_note',
            text: tr(ctx, 'newNote'),
            style: 'primary',
            onTap: () => openEditor(ctx),
          },
        ],
      },
    };
  };

  const share = (ctx: AppContext, text: string): void => {
    ctx.showDialog({
      kind: 'app',
      title: tr(ctx, 'share'),
      buttons: [
        {
          text: tr(ctx, 'messages'),
          id: 'share_messages',
          onTap: () => {
            ctx.closeDialog();
            ctx.launch(MESSAGES_PACKAGE, '.ComposeActivity', { text });
          },
        },
        { text: tr(ctx, 'cancel'), id: 'cancel', onTap: () => ctx.closeDialog() },
      ],
    });
  };

  const noteScreen = (ctx: AppContext, route: Route): AppScreen => {
    const { world } = ctx;
    const note = world.notes.find((n) => n.id === Number(route.params.noteId));
    if (!note) return listScreen(ctx);
    const confirmDelete = (): void => {
      ctx.showDialog({
        kind: 'app',
        title: tr(ctx, 'deleteTitle'),
        message: note.title,
        buttons: [
          { text: tr(ctx, 'cancel'), id: 'cancel', onTap: () => ctx.closeDialog() },
          {
            text: tr(ctx, 'delete'),
            id: 'confirm_delete',
            onTap: () => {
              world.notes = world.notes.filter((n) => n.id !== note.id);
              recordEvent(world, {
                kind: 'deleted',
                app: NOTES_PACKAGE,
                at: ctx.clock.now(),
                detail: { noteId: note.id, title: note.title },
              });
              ctx.closeDialog();
              ctx.back();
            },
          },
        ],
      });
    };
    return {
      activity: '.NoteActivity',
      title: note.title,
      root: {
        kind: 'column',
        padding: 16,
        gap: 12,
        children: [
          { kind: 'text', id: 'note_title', text: note.title, size: 'title', bold: true },
          {
            kind: 'text',
            id: 'note_edited',
            text: `${tr(ctx, 'edited')}${formatDate(note.at, ctx.locale === 'zh')}`,
            size: 'small',
            color: '#5f6368',
          },
          {
            kind: 'list',
            id: 'note_scroll',
            height: 'fill',
            children: [{ kind: 'text', id: 'note_body', text: note.body }],
          },
          {
            kind: 'row',
            gap: 8,
            children: [
              { kind: 'button', id: 'share', text: tr(ctx, 'share'), onTap: () => share(ctx, note.body) },
              { kind: 'button', id: 'edit', text: tr(ctx, 'edit'), onTap: () => openEditor(ctx, note.id) },
              { kind: 'button', id: 'delete', text: tr(ctx, 'delete'), style: 'danger', onTap: confirmDelete },
            ],
          },
        ],
      },
    };
  };

  const save = (ctx: AppContext, route: Route): void => {
    const title = draftTitle.trim();
    const body = draftBody.trim();
    if (!title && !body) {
      formError = tr(ctx, 'emptyTitle');
      return;
    }
    const { world } = ctx;
    const at = ctx.clock.now();
    const existing = world.notes.find((n) => n.id === Number(route.params.noteId));
    if (existing) {
      Object.assign(existing, { title, body, at });
      ctx.back();
      return;
    }
    const id = world.notes.reduce((m, n) => Math.max(m, n.id), 0) + 1;
    world.notes.push({ id, title, body, at });
    ctx.replace('.NoteActivity', { noteId: id });
  };

  const editorScreen = (ctx: AppContext, route: Route): AppScreen => {
    const children: View[] = [
      {
        kind: 'row',
        gap: 8,
        children: [
          { kind: 'button', id: 'cancel', text: tr(ctx, 'cancel'), style: 'flat', onTap: () => ctx.back() },
          { kind: 'column', children: [], weight: 2 },
          { kind: 'button', id: 'save', text: tr(ctx, 'save'), style: 'primary', onTap: () => save(ctx, route) },
        ],
      },
      {
        kind: 'edit',
        id: 'title',
        value: draftTitle,
        hint: tr(ctx, 'title'),
        onChange: (v) => {
          draftTitle = v;
          formError = '';
        },
      },
      {
        kind: 'edit',
        id: 'body',
        value: draftBody,
        hint: tr(ctx, 'body'),
        onChange: (v) => {
          draftBody = v;
          formError = '';
        },
      },
    ];
    if (formError) children.push({ kind: 'text', id: 'error', text: formError, color: '#c62828', size: 'body' });
    return {
      activity: '.EditNoteActivity',
      title: tr(ctx, 'notes'),
      root: { kind: 'column', padding: 16, gap: 12, children },
    };
  };

  return {
    package: NOTES_PACKAGE,
    label: 'Notes',
    labelZh: '备忘录',
    iconColor: '#f9ab00',
    glyph: 'N',
    activities: ['.NotesActivity', '.NoteActivity', '.EditNoteActivity'],
    seedWorld: seedNotes,
    onLaunch() {
      query = '';
    },
    render(route, ctx) {
      if (route.activity === '.NoteActivity') return noteScreen(ctx, route);
      if (route.activity === '.EditNoteActivity') return editorScreen(ctx, route);
      return listScreen(ctx);
    },
  };
}
