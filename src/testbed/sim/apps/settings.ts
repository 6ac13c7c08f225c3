import type { App, AppContext, AppScreen, Route } from '../app.js';
import type { View } from '../kit/view.js';
import { OTHER, type TextKey, st as tr } from './settings-text.js';

/**
 * Settings (com.android.settings) laid out as on Android 14: Network & internet → Internet holds
 * the Wi-Fi switch; Connected devices → Connection preferences → Bluetooth holds "Use Bluetooth";
 * Display has brightness (0–255) and Dark theme; About phone; and Settings' search, which opens the
 * page an entry lives on. Every toggle mutates `world.settings` and counts in `world.toggles`, so a
 * checker can tell "Bluetooth was never touched".
 */

export const SETTINGS_PACKAGE = 'com.android.settings';

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

  /** Every searchable entry: its title and the page it lives on. */
  const searchable = (ctx: AppContext): { id: string; title: string; open: () => void }[] => {
    const to = (activity: string) => () => ctx.navigate(activity);
    return [
      { id: 'network', title: tr(ctx, 'network'), open: to('.NetworkDashboardActivity') },
      { id: 'internet', title: tr(ctx, 'internet'), open: to('.InternetSettings') },
      { id: 'wifi', title: tr(ctx, 'wifi'), open: to('.InternetSettings') },
      { id: 'devices', title: tr(ctx, 'devices'), open: to('.ConnectedDeviceDashboardActivity') },
      { id: 'prefs', title: tr(ctx, 'prefs'), open: to('.AdvancedConnectedDeviceActivity') },
      { id: 'bluetooth', title: tr(ctx, 'bluetooth'), open: to('.BluetoothSettings') },
      { id: 'display', title: tr(ctx, 'display'), open: to('.DisplaySettings') },
      { id: 'brightness', title: tr(ctx, 'brightness'), open: to('.DisplaySettings') },
      { id: 'dark', title: tr(ctx, 'dark'), open: to('.DisplaySettings') },
      { id: 'about', title: tr(ctx, 'about'), open: to('.AboutPhone') },
      { id: 'model', title: tr(ctx, 'model'), open: to('.AboutPhone') },
      { id: 'android', title: tr(ctx, 'android'), open: to('.AboutPhone') },
      ...OTHER.filter(([, en]) => en).map(([id, en, zh]) => {
        const title = ctx.locale === 'zh' ? zh : en;
        return { id, title, open: () => ctx.navigate('.SubSettings', { title }) };
      }),
    ];
  };

  const subPage = (ctx: AppContext, id: string, key: TextKey): View =>
    entry(id, tr(ctx, key), '', () => ctx.navigate('.SubSettings', { title: tr(ctx, key) }));

  const network = (ctx: AppContext): AppScreen => ({
    activity: '.NetworkDashboardActivity',
    title: tr(ctx, 'network'),
    root: page(tr(ctx, 'network'), [
      entry('internet', tr(ctx, 'internet'), tr(ctx, ctx.world.settings.wifi ? 'wifiNetwork' : 'wifiOff'), () =>
        ctx.navigate('.InternetSettings'),
      ),
      subPage(ctx, 'sims', 'sims'),
      { kind: 'switch', id: 'airplane_mode', text: tr(ctx, 'airplane'), checked: false, onToggle: () => {} },
      subPage(ctx, 'hotspot', 'hotspot'),
    ]),
  });

  const internet = (ctx: AppContext): AppScreen => {
    const s = ctx.world.settings;
    const rows: View[] = [
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
    ];
    if (s.wifi) rows.push(entry('wifi_network', tr(ctx, 'wifiNetwork'), tr(ctx, 'connected'), () => {}));
    return { activity: '.InternetSettings', title: tr(ctx, 'internet'), root: page(tr(ctx, 'internet'), rows) };
  };

  const devices = (ctx: AppContext): AppScreen => ({
    activity: '.ConnectedDeviceDashboardActivity',
    title: tr(ctx, 'devices'),
    root: page(tr(ctx, 'devices'), [
      subPage(ctx, 'pair_new_device', 'pair'),
      entry('connection_preferences', tr(ctx, 'prefs'), tr(ctx, 'prefsSummary'), () =>
        ctx.navigate('.AdvancedConnectedDeviceActivity'),
      ),
    ]),
  });

  const prefs = (ctx: AppContext): AppScreen => ({
    activity: '.AdvancedConnectedDeviceActivity',
    title: tr(ctx, 'prefs'),
    root: page(tr(ctx, 'prefs'), [
      entry('bluetooth_settings', tr(ctx, 'bluetooth'), '', () => ctx.navigate('.BluetoothSettings')),
      subPage(ctx, 'cast', 'cast'),
      subPage(ctx, 'printing', 'printing'),
      { kind: 'switch', id: 'nfc', text: tr(ctx, 'nfc'), checked: false, onToggle: () => {} },
    ]),
  });

  const bluetooth = (ctx: AppContext): AppScreen => {
    const s = ctx.world.settings;
    return {
      activity: '.BluetoothSettings',
      title: tr(ctx, 'bluetooth'),
      root: page(tr(ctx, 'bluetooth'), [
        {
          kind: 'switch',
          id: 'bluetooth_switch',
          text: tr(ctx, 'useBluetooth'),
          checked: s.bluetooth,
          onToggle: (v) => {
            s.bluetooth = v;
            count(ctx, 'bluetooth');
          },
        },
        subPage(ctx, 'pair_new_device', 'pair'),
      ]),
    };
  };

  const main = (ctx: AppContext): AppScreen => {
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
      entry('network_internet', tr(ctx, 'network'), tr(ctx, 'networkSummary'), () =>
        ctx.navigate('.NetworkDashboardActivity'),
      ),
      entry('connected_devices', tr(ctx, 'devices'), tr(ctx, 'devicesSummary'), () =>
        ctx.navigate('.ConnectedDeviceDashboardActivity'),
      ),
      ...OTHER.map(([id, en, zh]) => {
        if (id === 'display') {
          return entry('display_settings', tr(ctx, 'display'), tr(ctx, 'displaySummary'), () =>
            ctx.navigate('.DisplaySettings'),
          );
        }
        const t = ctx.locale === 'zh' ? zh : en;
        return entry(id, t, '', () => ctx.navigate('.SubSettings', { title: t }));
      }),
      entry('about_phone', tr(ctx, 'about'), ctx.world.about.model, () => ctx.navigate('.AboutPhone')),
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
        {
          kind: 'text',
          id: 'brightness_header',
          text: tr(ctx, 'brightnessHeader'),
          size: 'small',
          bold: true,
          height: 40,
        },
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
        { kind: 'switch', id: 'adaptive_brightness', text: tr(ctx, 'adaptive'), checked: false, onToggle: () => {} },
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
    activities: [
      '.Settings',
      '.NetworkDashboardActivity',
      '.InternetSettings',
      '.ConnectedDeviceDashboardActivity',
      '.AdvancedConnectedDeviceActivity',
      '.BluetoothSettings',
      '.DisplaySettings',
      '.AboutPhone',
      '.SubSettings',
      '.SearchSettings',
    ],
    onLaunch() {
      query = '';
    },
    render(route, ctx) {
      switch (route.activity) {
        case '.SearchSettings':
          return search(ctx);
        case '.NetworkDashboardActivity':
          return network(ctx);
        case '.InternetSettings':
          return internet(ctx);
        case '.ConnectedDeviceDashboardActivity':
          return devices(ctx);
        case '.AdvancedConnectedDeviceActivity':
          return prefs(ctx);
        case '.BluetoothSettings':
          return bluetooth(ctx);
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
