import type { App, AppContext, AppScreen, Route } from '../app.js';
import type { View } from '../kit/view.js';

/**
 * The launcher (com.android.launcher3): a home screen with a few icons and a dock, an app drawer
 * with two pages (all installed apps plus stock filler apps so a page 2 exists; swipe left/right to
 * page), and the recents overview. It reads the installed apps through `LauncherDeps`.
 */

export const LAUNCHER_PACKAGE = 'com.android.launcher3';
const PAGE_SIZE = 20;
const COLUMNS = 4;

export interface LauncherDeps {
  installed(): App[];
  recents(): string[];
  kill(pkg: string): void;
}

function label(app: App, ctx: AppContext): string {
  return ctx.locale === 'zh' && app.labelZh ? app.labelZh : app.label;
}

function icon(app: App, ctx: AppContext, id?: string): View {
  const text = label(app, ctx);
  return {
    kind: 'column',
    id,
    desc: text,
    className: 'android.widget.FrameLayout',
    onTap: () => ctx.launch(app.package),
    children: [
      { kind: 'image', color: app.iconColor, glyph: app.glyph, width: 56, height: 56 },
      { kind: 'text', text, size: 'small', align: 'center' },
    ],
  };
}

function grid(apps: App[], ctx: AppContext): View[] {
  const rows: View[] = [];
  for (let i = 0; i < apps.length; i += COLUMNS) {
    const cells: View[] = apps.slice(i, i + COLUMNS).map((a) => icon(a, ctx));
    while (cells.length < COLUMNS) cells.push({ kind: 'column', children: [] });
    rows.push({ kind: 'row', gap: 8, children: cells });
  }
  return rows;
}

/** The app drawer's pages (20 icons each, sorted by English label): task authors use it to pick a page-2 app. */
export function drawerPages(installed: App[]): App[][] {
  const apps = installed
    .filter((a) => !a.hidden && a.package !== LAUNCHER_PACKAGE)
    .sort((a, b) => a.label.localeCompare(b.label));
  const pages: App[][] = [];
  for (let i = 0; i < apps.length; i += PAGE_SIZE) pages.push(apps.slice(i, i + PAGE_SIZE));
  return pages.length ? pages : [[]];
}

export function createLauncherApp(deps: LauncherDeps): App {
  const visible = (): App[] => drawerPages(deps.installed()).flat();

  const home = (ctx: AppContext): AppScreen => {
    const apps = visible();
    const zh = ctx.locale === 'zh';
    const byPkg = (p: string) => apps.find((a) => a.package === p);
    const dock = ['com.android.settings', 'com.android.messaging', 'com.android.contacts', 'com.android.browser']
      .map(byPkg)
      .filter((a): a is App => a !== undefined);
    const favourites = apps.filter((a) => !dock.includes(a)).slice(0, 8);
    const d = new Date(ctx.clock.now());
    return {
      activity: '.Launcher',
      title: zh ? '主屏幕' : 'Home',
      root: {
        kind: 'column',
        id: 'workspace',
        padding: 16,
        gap: 16,
        onSwipe: (dir) => {
          if (dir === 'up') ctx.navigate('.Launcher', { drawer: true, page: 1 });
        },
        children: [
          {
            kind: 'text',
            id: 'date',
            text: d.toISOString().slice(0, 10),
            size: 'large',
          },
          ...grid(favourites, ctx),
          { kind: 'column', children: [], height: 'fill' },
          {
            kind: 'button',
            id: 'all_apps',
            text: zh ? '所有应用' : 'Apps',
            desc: zh ? '所有应用' : 'Apps list',
            style: 'secondary',
            onTap: () => ctx.navigate('.Launcher', { drawer: true, page: 1 }),
          },
          { kind: 'row', id: 'hotseat', gap: 8, children: dock.map((a) => icon(a, ctx)) },
        ],
      },
    };
  };

  const drawer = (route: Route, ctx: AppContext): AppScreen => {
    const apps = [...visible()];
    const pages = Math.max(1, Math.ceil(apps.length / PAGE_SIZE));
    const page = Math.min(pages, Math.max(1, Number(route.params.page ?? 1)));
    const zh = ctx.locale === 'zh';
    const go = (p: number) => ctx.replace('.Launcher', { drawer: true, page: p });
    return {
      activity: '.Launcher',
      title: zh ? '所有应用' : 'Apps',
      root: {
        kind: 'column',
        id: 'apps_view',
        padding: 16,
        gap: 12,
        onSwipe: (dir) => {
          if (dir === 'left' && page < pages) go(page + 1);
          else if (dir === 'right' && page > 1) go(page - 1);
          else if (dir === 'down') ctx.back();
        },
        children: [
          ...grid(apps.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), ctx),
          { kind: 'column', children: [], height: 'fill' },
          {
            kind: 'text',
            id: 'page_indicator',
            text: zh ? `第 ${page} / ${pages} 页` : `Page ${page} of ${pages}`,
            desc: zh ? `第 ${page} 页，共 ${pages} 页` : `Page ${page} of ${pages}`,
            size: 'small',
          },
        ],
      },
    };
  };

  const recents = (ctx: AppContext): AppScreen => {
    const zh = ctx.locale === 'zh';
    const apps = deps
      .recents()
      .map((p) => deps.installed().find((a) => a.package === p))
      .filter((a): a is App => a !== undefined);
    const cards: View[] = apps.map((a) => ({
      kind: 'row',
      id: 'snapshot',
      desc: label(a, ctx),
      height: 96,
      padding: 12,
      gap: 12,
      background: '#f1f3f4',
      onTap: () => ctx.launch(a.package),
      children: [
        { kind: 'image', color: a.iconColor, glyph: a.glyph, width: 48, height: 48 },
        { kind: 'text', text: label(a, ctx), size: 'large', weight: 3 },
      ],
    }));
    return {
      activity: '.RecentsActivity',
      title: zh ? '最近使用' : 'Recents',
      root: {
        kind: 'column',
        padding: 16,
        gap: 12,
        children: [
          cards.length
            ? { kind: 'list', id: 'recents_list', gap: 12, children: cards }
            : { kind: 'text', text: zh ? '没有最近使用的应用' : 'No recent items', height: 'fill' },
          {
            kind: 'button',
            id: 'clear_all',
            text: zh ? '全部清除' : 'Clear all',
            style: 'flat',
            onTap: () => {
              for (const p of [...deps.recents()]) deps.kill(p);
              ctx.back();
            },
          },
        ],
      },
    };
  };

  return {
    package: LAUNCHER_PACKAGE,
    label: 'Launcher',
    labelZh: '桌面',
    iconColor: '#5f6368',
    glyph: '⌂',
    activities: ['.Launcher', '.RecentsActivity'],
    hidden: true,
    render(route, ctx) {
      if (route.activity === '.RecentsActivity') return recents(ctx);
      return route.params.drawer ? drawer(route, ctx) : home(ctx);
    },
  };
}

/** Stock apps that fill the drawer: each opens a plain screen with its name. */
const STOCK: [string, string, string, string][] = [
  ['calculator', 'Calculator', '计算器', '#34a853'],
  ['camera', 'Camera', '相机', '#5f6368'],
  ['files', 'Files', '文件', '#fbbc04'],
  ['gallery', 'Gallery', '图库', '#ea4335'],
  ['maps', 'Maps', '地图', '#0f9d58'],
  ['music', 'Music', '音乐', '#ff7043'],
  ['notes', 'Notes', '备忘录', '#f9ab00'],
  ['phone', 'Phone', '电话', '#188038'],
  ['recorder', 'Recorder', '录音机', '#d93025'],
  ['weather', 'Weather', '天气', '#4fc3f7'],
  ['email', 'Email', '电子邮件', '#c5221f'],
  ['news', 'News', '新闻', '#3949ab'],
  ['podcasts', 'Podcasts', '播客', '#8e24aa'],
  ['fitness', 'Fitness', '健身', '#00897b'],
  ['wallet', 'Wallet', '钱包', '#455a64'],
  ['translate', 'Translate', '翻译', '#1e88e5'],
  ['radio', 'FM Radio', '收音机', '#6d4c41'],
  ['compass', 'Compass', '指南针', '#546e7a'],
];

export function stockAppFactories(): (() => App)[] {
  return STOCK.map(([id, en, zh, color]) => () => ({
    package: `com.android.stock.${id}`,
    label: en,
    labelZh: zh,
    iconColor: color,
    glyph: en[0],
    activities: ['.MainActivity'],
    render: (_route, ctx) => ({
      activity: '.MainActivity',
      title: ctx.locale === 'zh' ? zh : en,
      root: {
        kind: 'column',
        padding: 24,
        gap: 16,
        children: [
          { kind: 'text', id: 'title', text: ctx.locale === 'zh' ? zh : en, size: 'title', bold: true },
          {
            kind: 'text',
            text: ctx.locale === 'zh' ? '此应用在虚拟手机上没有内容。' : 'Nothing to see here on the virtual phone.',
          },
        ],
      },
    }),
  }));
}
