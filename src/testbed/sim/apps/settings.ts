import type { App, AppContext, AppScreen, Route } from '../app.js';
import type { View } from '../kit/view.js';

/**
 * Settings (com.android.settings): Wi-Fi and Bluetooth switches, Display (brightness 0–255, dark
 * mode) and About phone. Every toggle mutates `world.settings` and counts in `world.toggles`, so a
 * checker can tell "Bluetooth was never touched".
 */

export const SETTINGS_PACKAGE = 'com.android.settings';

const T = {
  title: ['Settings', '设置'],
  wifi: ['Wi-Fi', 'WLAN'],
  bluetooth: ['Bluetooth', '蓝牙'],
  display: ['Display', '显示'],
  displaySummary: ['Brightness, dark mode', '亮度、深色模式'],
  brightness: ['Brightness level', '亮度'],
  dark: ['Dark mode', '深色模式'],
  about: ['About phone', '关于手机'],
  aboutSummary: ['Model, Android version', '型号、Android 版本'],
  model: ['Model', '型号'],
  android: ['Android version', 'Android 版本'],
  build: ['Build number', '版本号'],
  nothing: ['Nothing to configure here on the virtual phone.', '虚拟手机上这里没有可设置的内容。'],
  search: ['Search settings', '搜索设置'],
  noResults: ['No results', '无结果'],
} as const;

/** Main-list entries in the order a Pixel shows them (`display` marks where Display goes). */
const OTHER: [string, string, string][] = [
  ['network_internet', 'Network & internet', '网络和互联网'],
  ['connected_devices', 'Connected devices', '已连接的设备'],
  ['apps', 'Apps', '应用'],
  ['notifications', 'Notifications', '通知'],
  ['battery', 'Battery', '电池'],
  ['storage', 'Storage', '存储'],
  ['sound', 'Sound & vibration', '声音和振动'],
  ['display', '', ''],
  ['wallpaper', 'Wallpaper & style', '壁纸和样式'],
  ['accessibility', 'Accessibility', '无障碍'],
  ['security', 'Security & privacy', '安全和隐私'],
  ['location', 'Location', '位置信息'],
  ['safety', 'Safety & emergency', '安全和紧急情况'],
  ['accounts', 'Passwords & accounts', '密码和帐号'],
  ['wellbeing', 'Digital wellbeing', '数字健康'],
  ['google', 'Google', 'Google'],
  ['system', 'System', '系统'],
  ['tips', 'Tips & support', '提示和支持'],
];

function tr(ctx: AppContext, k: keyof typeof T): string {
  return T[k][ctx.locale === 'zh' ? 1 : 0];
}

function count(ctx: AppContext, key: string): void {
  ctx.world.toggles[key] = (ctx.world.toggles[key] ?? 0) + 1;
}

function entry(id: string, title: string, summary: string, onTap: () => void): View {
  return {
    kind: 'column',
    id,
    padding: 12,
    onTap,
    children: [
      { kind: 'text', id: 'title', text: title, size: 'large' },
      ...(summary
        ? [{ kind: 'text' as const, id: 'summary', text: summary, size: 'small' as const, color: '#5f6368' }]
        : []),
    ],
  };
}

function page(title: string, children: View[]): View {
  return {
    kind: 'column',
    children: [
      { kind: 'text', id: 'action_bar_title', text: title, size: 'title', bold: true, height: 64 },
      { kind: 'list', id: 'recycler_view', children },
    ],
  };
}

export function createSettingsApp(): App {
  let query = '';

  /** Every searchable entry: its title and what tapping it opens. */
  const searchable = (ctx: AppContext): { id: string; title: string; open: () => void }[] => [
    { id: 'wifi', title: tr(ctx, 'wifi'), open: () => ctx.navigate('.Settings') },
    { id: 'bluetooth', title: tr(ctx, 'bluetooth'), open: () => ctx.navigate('.Settings') },
    { id: 'display', title: tr(ctx, 'display'), open: () => ctx.navigate('.DisplaySettings') },
    { id: 'brightness', title: tr(ctx, 'brightness'), open: () => ctx.navigate('.DisplaySettings') },
    { id: 'dark', title: tr(ctx, 'dark'), open: () => ctx.navigate('.DisplaySettings') },
    { id: 'about', title: tr(ctx, 'about'), open: () => ctx.navigate('.AboutPhone') },
    { id: 'model', title: tr(ctx, 'model'), open: () => ctx.navigate('.AboutPhone') },
    { id: 'android', title: tr(ctx, 'android'), open: () => ctx.navigate('.AboutPhone') },
    ...OTHER.filter(([, en]) => en).map(([id, en, zh]) => {
      const title = ctx.locale === 'zh' ? zh : en;
      return { id, title, open: () => ctx.navigate('.SubSettings', { title }) };
    }),
  ];

  const main = (ctx: AppContext): AppScreen => {
    const s = ctx.world.settings;
    const rows: View[] = [
      {
        kind: 'row',
        id: 'search_action_bar',
        desc: tr(ctx, 'search'),
        height: 56,
        padding: 8,
        background: '#f1f3f4',
        onTap: () => {
          query = '';
          ctx.navigate('.SearchSettings');
        },
        children: [{ kind: 'text', id: 'search_action_bar_title', text: tr(ctx, 'search'), color: '#5f6368' }],
      },
      {
        kind: 'switch',
        id: 'wifi_switch',
        text: tr(ctx, 'wifi'),
        checked: s.wifi,
        onToggle: (v) => {
          s.wifi = v;
          count(ctx, 'wifi');
        },
      },
      {
        kind: 'switch',
        id: 'bluetooth_switch',
        text: tr(ctx, 'bluetooth'),
        checked: s.bluetooth,
        onToggle: (v) => {
          s.bluetooth = v;
          count(ctx, 'bluetooth');
        },
      },
      ...OTHER.map(([id, en, zh]) => {
        if (id === 'display') {
          return entry('display_settings', tr(ctx, 'display'), tr(ctx, 'displaySummary'), () =>
            ctx.navigate('.DisplaySettings'),
          );
        }
        const t = ctx.locale === 'zh' ? zh : en;
        return entry(id, t, '', () => ctx.navigate('.SubSettings', { title: t }));
      }),
      entry('about_phone', tr(ctx, 'about'), tr(ctx, 'aboutSummary'), () => ctx.navigate('.AboutPhone')),
    ];
    return { activity: '.Settings', title: tr(ctx, 'title'), root: page(tr(ctx, 'title'), rows) };
  };

  const search = (ctx: AppContext): AppScreen => {
    const q = query.trim().toLowerCase();
    const hits = q ? searchable(ctx).filter((e) => e.title.toLowerCase().includes(q)) : [];
    const results: View[] = hits.map((h) => entry(`result_${h.id}`, h.title, '', h.open));
    if (q && !hits.length) results.push({ kind: 'text', id: 'no_results', text: tr(ctx, 'noResults') });
    return {
      activity: '.SearchSettings',
      title: tr(ctx, 'search'),
      root: {
        kind: 'column',
        padding: 8,
        gap: 8,
        children: [
          {
            kind: 'edit',
            id: 'search_src_text',
            value: query,
            hint: tr(ctx, 'search'),
            onChange: (v) => {
              query = v;
            },
            onSubmit: () => {
              hits[0]?.open();
            },
          },
          { kind: 'list', id: 'search_results', children: results },
        ],
      },
    };
  };

  const display = (ctx: AppContext): AppScreen => {
    const s = ctx.world.settings;
    return {
      activity: '.DisplaySettings',
      title: tr(ctx, 'display'),
      root: page(tr(ctx, 'display'), [
        { kind: 'text', id: 'brightness_title', text: tr(ctx, 'brightness'), size: 'large', height: 40 },
        {
          kind: 'seekbar',
          id: 'brightness',
          desc: tr(ctx, 'brightness'),
          min: 0,
          max: 255,
          value: s.brightness,
          onChange: (v) => {
            s.brightness = Math.min(255, Math.max(0, Math.round(v)));
          },
        },
        {
          kind: 'switch',
          id: 'dark_mode',
          text: tr(ctx, 'dark'),
          checked: s.darkMode,
          onToggle: (v) => {
            s.darkMode = v;
            count(ctx, 'darkMode');
          },
        },
      ]),
    };
  };

  const about = (ctx: AppContext): AppScreen => {
    const a = ctx.world.about;
    const item = (id: string, title: string, value: string): View => entry(id, title, value, () => {});
    return {
      activity: '.AboutPhone',
      title: tr(ctx, 'about'),
      root: page(tr(ctx, 'about'), [
        item('model', tr(ctx, 'model'), a.model),
        item('android_version', tr(ctx, 'android'), a.androidVersion),
        item('build_number', tr(ctx, 'build'), a.buildNumber),
      ]),
    };
  };

  const sub = (route: Route, ctx: AppContext): AppScreen => {
    const title = String(route.params.title ?? tr(ctx, 'title'));
    return {
      activity: '.SubSettings',
      title,
      root: page(title, [{ kind: 'text', text: tr(ctx, 'nothing') }]),
    };
  };

  return {
    package: SETTINGS_PACKAGE,
    label: 'Settings',
    labelZh: '设置',
    iconColor: '#5f6368',
    glyph: '⚙',
    activities: ['.Settings', '.DisplaySettings', '.AboutPhone', '.SubSettings', '.SearchSettings'],
    onLaunch() {
      query = '';
    },
    render(route, ctx) {
      switch (route.activity) {
        case '.SearchSettings':
          return search(ctx);
        case '.DisplaySettings':
          return display(ctx);
        case '.AboutPhone':
          return about(ctx);
        case '.SubSettings':
          return sub(route, ctx);
        default:
          return main(ctx);
      }
    },
  };
}
