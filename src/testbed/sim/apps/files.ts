import type { App, AppContext, AppScreen, Route } from '../app.js';
import type { View } from '../kit/view.js';
import { recordEvent } from '../world.js';
import { DOWNLOADS, deleteFiles, type FileEntry, formatDate, formatSize, listFolder, SEED_TIME } from './files-data.js';

/**
 * Files (AOSP DocumentsUI's package): Browse (Downloads, Internal storage), a folder list over the
 * same sdcard map adb uses (name, size, date; search; long-press selects), a file viewer, and
 * Delete behind a "Delete 1 item?" dialog. A confirmed delete removes the files and records one
 * 'deleted' event.
 */
export const FILES_PACKAGE = 'com.android.documentsui';
const STORAGE = '/sdcard';

const T = {
  files: ['Files', '文件'],
  categories: ['Categories', '类别'],
  downloads: ['Downloads', '下载'],
  storage: ['Internal storage', '内部存储空间'],
  searchIn: ['Search in ', '搜索'],
  noFiles: ['No files', '没有文件'],
  noResults: ['No results', '无结果'],
  delete: ['Delete', '删除'],
  cancel: ['Cancel', '取消'],
  size: ['Size', '大小'],
  modified: ['Modified', '修改时间'],
  location: ['Location', '位置'],
  clear: ['Clear selection', '取消选择'],
  more: ['More options', '更多选项'],
  open: ['Open', '打开'],
  gone: ['This file no longer exists', '此文件已不存在'],
} as const;

function tr(ctx: AppContext, k: keyof typeof T): string {
  return T[k][ctx.locale === 'zh' ? 1 : 0];
}

function glyph(name: string): { glyph: string; color: string } {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'pdf') return { glyph: 'PDF', color: '#d93025' };
  if (ext === 'doc' || ext === 'docx') return { glyph: 'W', color: '#1a73e8' };
  if (ext === 'jpg' || ext === 'png') return { glyph: '▣', color: '#188038' };
  return { glyph: '≡', color: '#5f6368' };
}

export function createFilesApp(): App {
  let query = '';
  let selected = new Set<string>();

  const folderName = (ctx: AppContext, path: string): string =>
    path === DOWNLOADS ? tr(ctx, 'downloads') : path === STORAGE ? tr(ctx, 'storage') : path.split('/').pop() || path;

  const countLabel = (ctx: AppContext, n: number): string =>
    ctx.locale === 'zh' ? `${n} 个文件` : `${n} file${n === 1 ? '' : 's'}`;

  const openFolder = (ctx: AppContext, path: string): void => {
    query = '';
    selected = new Set();
    ctx.navigate('.FolderActivity', { path });
  };

  /** The confirmation every delete goes through; `after` runs once the files are gone. */
  const confirmDelete = (ctx: AppContext, paths: string[], after: () => void): void => {
    const zh = ctx.locale === 'zh';
    const n = paths.length;
    const name = paths[0]?.split('/').pop() ?? '';
    ctx.showDialog({
      kind: 'app',
      title: zh ? `要删除 ${n} 项内容吗？` : `Delete ${n} item${n === 1 ? '' : 's'}?`,
      message:
        n === 1
          ? zh
            ? `“${name}”将从此设备中永久删除。`
            : `"${name}" will be permanently deleted from this device.`
          : zh
            ? `这 ${n} 项内容将从此设备中永久删除。`
            : `These ${n} items will be permanently deleted from this device.`,
      buttons: [
        { text: tr(ctx, 'cancel'), id: 'cancel', onTap: () => ctx.closeDialog() },
        {
          text: tr(ctx, 'delete'),
          id: 'confirm_delete',
          onTap: () => {
            const gone = deleteFiles(ctx.world, paths);
            recordEvent(ctx.world, {
              kind: 'deleted',
              app: FILES_PACKAGE,
              at: ctx.clock.now(),
              detail: { paths: gone },
            });
            selected = new Set();
            ctx.closeDialog();
            after();
            ctx.toast(zh ? `已删除 ${gone.length} 项` : `${gone.length} item${gone.length === 1 ? '' : 's'} deleted`);
          },
        },
      ],
    });
  };

  /** A row's overflow menu (a bottom sheet on a phone): Open, Delete. */
  const rowMenu = (ctx: AppContext, path: string): void => {
    ctx.showDialog({
      kind: 'app',
      title: path.split('/').pop() ?? path,
      buttons: [
        {
          text: tr(ctx, 'open'),
          id: 'menu_open',
          onTap: () => {
            ctx.closeDialog();
            ctx.navigate('.FileViewerActivity', { path });
          },
        },
        {
          text: tr(ctx, 'delete'),
          id: 'menu_delete',
          onTap: () => {
            ctx.closeDialog();
            confirmDelete(ctx, [path], () => {});
          },
        },
        { text: tr(ctx, 'cancel'), id: 'cancel', onTap: () => ctx.closeDialog() },
      ],
    });
  };

  const browseScreen = (ctx: AppContext): AppScreen => {
    const downloads = listFolder(ctx.world, DOWNLOADS).filter((f) => !f.dir).length;
    const entry = (id: string, title: string, summary: string, path: string): View => ({
      kind: 'row',
      id,
      padding: 12,
      gap: 12,
      onTap: () => openFolder(ctx, path),
      children: [
        { kind: 'image', color: '#1a73e8', glyph: id === 'downloads' ? '↓' : '▤', width: 40, height: 40 },
        {
          kind: 'column',
          weight: 5,
          children: [
            { kind: 'text', text: title, size: 'large' },
            { kind: 'text', text: summary, size: 'small', color: '#5f6368' },
          ],
        },
      ],
    });
    return {
      activity: '.FilesActivity',
      title: tr(ctx, 'files'),
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          { kind: 'text', id: 'action_bar_title', text: tr(ctx, 'files'), size: 'title', bold: true },
          { kind: 'text', text: tr(ctx, 'categories'), size: 'small', color: '#5f6368' },
          entry('downloads', tr(ctx, 'downloads'), countLabel(ctx, downloads), DOWNLOADS),
          entry('internal_storage', tr(ctx, 'storage'), STORAGE, STORAGE),
        ],
      },
    };
  };

  const fileRow = (ctx: AppContext, f: FileEntry, selecting: boolean): View => {
    const zh = ctx.locale === 'zh';
    const icon = f.dir ? { glyph: '▤', color: '#5f6368' } : glyph(f.name);
    const toggle = (): void => {
      if (selected.has(f.path)) selected.delete(f.path);
      else selected.add(f.path);
    };
    const children: View[] = [
      { kind: 'image', color: icon.color, glyph: icon.glyph, width: 40, height: 40 },
      {
        kind: 'column',
        weight: 5,
        children: [
          { kind: 'text', id: 'file_name', text: f.name, size: 'body' },
          ...(f.dir
            ? []
            : [
                {
                  kind: 'text' as const,
                  id: 'file_summary',
                  text: `${formatSize(f.size)} · ${formatDate(f.at, zh)}`,
                  size: 'small' as const,
                  color: '#5f6368',
                },
              ]),
        ],
      },
    ];
    if (selecting && !f.dir)
      children.push({ kind: 'checkbox', id: 'select', text: '', checked: selected.has(f.path), onToggle: toggle });
    else if (!f.dir)
      children.push({
        kind: 'button',
        id: 'more_options',
        text: '⋮',
        desc: tr(ctx, 'more'),
        style: 'flat',
        weight: 0.6,
        onTap: () => rowMenu(ctx, f.path),
      });
    return {
      kind: 'row',
      id: f.dir ? 'folder_row' : 'file_row',
      padding: 12,
      gap: 12,
      background: selected.has(f.path) ? '#e8f0fe' : undefined,
      onTap: () => {
        if (f.dir) openFolder(ctx, f.path);
        else if (selecting) toggle();
        else ctx.navigate('.FileViewerActivity', { path: f.path });
      },
      onLongPress: f.dir
        ? undefined
        : () => {
            selected.add(f.path);
          },
      children,
    };
  };

  const folderScreen = (ctx: AppContext, route: Route): AppScreen => {
    const path = typeof route.params.path === 'string' ? route.params.path : DOWNLOADS;
    const all = listFolder(ctx.world, path);
    // Files deleted behind the app's back (adb rm) leave the selection.
    for (const p of selected) if (!ctx.world.files.has(p)) selected.delete(p);
    const q = query.trim().toLowerCase();
    const shown = q ? all.filter((f) => f.name.toLowerCase().includes(q)) : all;
    const selecting = selected.size > 0;
    const name = folderName(ctx, path);
    const zh = ctx.locale === 'zh';
    const bar: View = selecting
      ? {
          kind: 'row',
          gap: 8,
          children: [
            {
              kind: 'button',
              id: 'clear_selection',
              text: '✕',
              desc: tr(ctx, 'clear'),
              style: 'flat',
              onTap: () => {
                selected = new Set();
              },
            },
            {
              kind: 'text',
              id: 'selection_count',
              text: zh ? `已选择 ${selected.size} 项` : `${selected.size} selected`,
              size: 'large',
              bold: true,
              weight: 3,
            },
            {
              kind: 'button',
              id: 'delete',
              text: tr(ctx, 'delete'),
              style: 'danger',
              onTap: () => confirmDelete(ctx, [...selected], () => {}),
            },
          ],
        }
      : { kind: 'text', id: 'action_bar_title', text: name, size: 'title', bold: true };
    const rows = shown.map((f) => fileRow(ctx, f, selecting));
    if (rows.length === 0)
      rows.push({ kind: 'text', id: 'empty', text: tr(ctx, q ? 'noResults' : 'noFiles'), size: 'body' });
    return {
      activity: '.FolderActivity',
      title: name,
      root: {
        kind: 'column',
        padding: 12,
        gap: 8,
        children: [
          bar,
          {
            kind: 'edit',
            id: 'search',
            value: query,
            hint: zh ? `在“${name}”中搜索` : `${T.searchIn[0]}${name}`,
            onChange: (v) => {
              query = v;
            },
          },
          { kind: 'list', id: 'files', gap: 0, height: 'fill', children: rows },
        ],
      },
    };
  };

  const viewerScreen = (ctx: AppContext, route: Route): AppScreen => {
    const path = String(route.params.path ?? '');
    const data = ctx.world.files.get(path);
    const name = path.split('/').pop() ?? path;
    const page = (body: View[]): AppScreen => ({
      activity: '.FileViewerActivity',
      title: name,
      root: {
        kind: 'column',
        padding: 16,
        gap: 12,
        children: [{ kind: 'text', id: 'file_title', text: name, size: 'large', bold: true }, ...body],
      },
    });
    if (!data) return page([{ kind: 'text', id: 'gone', text: tr(ctx, 'gone'), size: 'body' }]);
    const icon = glyph(name);
    const detail = (label: keyof typeof T, id: string, value: string): View => ({
      kind: 'column',
      children: [
        { kind: 'text', text: tr(ctx, label), size: 'small', color: '#5f6368' },
        { kind: 'text', id, text: value, size: 'body' },
      ],
    });
    return page([
      // Scrolls, so Delete stays on screen in landscape too.
      {
        kind: 'list',
        id: 'details',
        height: 'fill',
        gap: 12,
        children: [
          { kind: 'image', id: 'preview', color: icon.color, glyph: icon.glyph, height: 200 },
          detail('size', 'file_size', formatSize(data.length)),
          detail('modified', 'file_date', formatDate(ctx.world.fileTimes.get(path) ?? SEED_TIME, ctx.locale === 'zh')),
          detail('location', 'file_path', path),
        ],
      },
      {
        kind: 'button',
        id: 'delete',
        text: tr(ctx, 'delete'),
        style: 'danger',
        onTap: () => confirmDelete(ctx, [path], () => ctx.back()),
      },
    ]);
  };

  return {
    package: FILES_PACKAGE,
    label: 'Files',
    labelZh: '文件',
    iconColor: '#fbbc04',
    glyph: 'F',
    activities: ['.FilesActivity', '.FolderActivity', '.FileViewerActivity'],
    onLaunch() {
      query = '';
      selected = new Set();
    },
    onBack(route) {
      // Back first leaves selection mode, as a contextual action bar does.
      if (route.activity === '.FolderActivity' && selected.size > 0) {
        selected = new Set();
        return true;
      }
      return false;
    },
    render(route, ctx) {
      if (route.activity === '.FolderActivity') return folderScreen(ctx, route);
      if (route.activity === '.FileViewerActivity') return viewerScreen(ctx, route);
      return browseScreen(ctx);
    },
  };
}
