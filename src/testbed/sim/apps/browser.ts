import type { App, AppContext, AppScreen, Route } from '../app.js';
import { tr } from '../kit/locale.js';
import type { View } from '../kit/view.js';
import { BOOKMARKS, normalizeUrl, pageLines, seedBrowser } from './browser-data.js';

/**
 * Browser: a start page with bookmarks and an address bar; a page is drawn only into the screenshot
 * (the tree holds one WebView node) and takes a moment to load.
 */
export const BROWSER_PACKAGE = 'com.android.browser';
const LOAD_MS = 800;

export function createBrowserApp(): App {
  let address = '';
  /** Page visits still loading, keyed by the visit number in the route. */
  const loading = new Set<number>();
  let visits = 0;

  const open = (ctx: AppContext, url: string): void => {
    if (!url) return;
    const visit = ++visits;
    loading.add(visit);
    address = url;
    ctx.navigate('.PageActivity', { url, visit });
    ctx.later(LOAD_MS, () => {
      loading.delete(visit);
      ctx.invalidate();
    });
  };

  const addressBar = (ctx: AppContext): View => ({
    kind: 'edit',
    id: 'url',
    value: address,
    hint: tr(ctx, 'Search or type web address', '搜索或输入网址'),
    onChange: (v) => {
      address = v;
    },
    onSubmit: () => open(ctx, normalizeUrl(address)),
  });

  const startScreen = (ctx: AppContext): AppScreen => ({
    activity: '.BrowserActivity',
    title: 'Browser',
    root: {
      kind: 'column',
      padding: 12,
      gap: 8,
      children: [
        addressBar(ctx),
        { kind: 'text', text: tr(ctx, 'Bookmarks', '书签'), size: 'large', bold: true },
        {
          kind: 'list',
          id: 'bookmarks',
          height: 'fill',
          gap: 0,
          children: BOOKMARKS.map(
            (b): View => ({
              kind: 'column',
              id: 'bookmark',
              padding: 12,
              onTap: () => open(ctx, b.url),
              children: [
                { kind: 'text', id: 'bookmark_title', text: b.title, size: 'body', bold: true },
                { kind: 'text', id: 'bookmark_url', text: b.url, size: 'small', color: '#5f6368' },
              ],
            }),
          ),
        },
      ],
    },
  });

  const pageScreen = (ctx: AppContext, route: Route): AppScreen => {
    const url = String(route.params.url ?? '');
    return {
      activity: '.PageActivity',
      title: url,
      loading: loading.has(Number(route.params.visit)),
      root: {
        kind: 'column',
        padding: 0,
        gap: 0,
        children: [
          { kind: 'row', padding: 8, children: [addressBar(ctx)] },
          { kind: 'webview', id: 'webview', height: 'fill', lines: pageLines(ctx.world, url) },
        ],
      },
    };
  };

  return {
    package: BROWSER_PACKAGE,
    label: 'Browser',
    labelZh: '浏览器',
    iconColor: '#0f9d58',
    glyph: 'B',
    activities: ['.BrowserActivity', '.PageActivity'],
    seedWorld: seedBrowser,
    onLaunch() {
      address = '';
    },
    render(route, ctx) {
      if (route.activity === '.PageActivity') return pageScreen(ctx, route);
      return startScreen(ctx);
    },
  };
}
