import type { Banner, DialogSpec } from '../app.js';
import type { View } from '../kit/view.js';

/**
 * The system's own windows, described with the same view kit as apps so that the tree, the dump
 * and the screenshot treat them alike: status bar, navigation bar, IME keyboard, dialogs, banners,
 * toasts and the loading spinner.
 */

export const SYSTEM_UI = 'com.android.systemui';
export const IME_PACKAGE = 'com.android.inputmethod.latin';
export const PERMISSION_PACKAGE = 'com.android.permissioncontroller';
export const OVERLAY_PACKAGE = 'com.screenfilter.overlay';

export function statusBarView(time: string, wifi: boolean): View {
  const icons: View[] = [];
  if (wifi)
    icons.push({ kind: 'image', id: 'wifi_signal', desc: 'Wi-Fi signal full.', glyph: '◔', width: 20, height: 20 });
  icons.push({ kind: 'image', id: 'battery', desc: 'Battery 85 percent.', glyph: '▮', width: 20, height: 20 });
  return {
    kind: 'row',
    padding: 2,
    children: [
      { kind: 'column', children: [], weight: 0.15 },
      { kind: 'text', id: 'clock', text: time, size: 'small', weight: 3 },
      ...icons,
      { kind: 'column', children: [], weight: 0.1 },
    ],
  };
}

export type NavKey = 'back' | 'home' | 'recents';

export function navBarView(press: (k: NavKey) => void): View {
  const key = (id: string, desc: string, glyph: string, k: NavKey): View => ({
    kind: 'image',
    id,
    desc,
    glyph,
    className: 'android.widget.ImageView',
    onTap: () => press(k),
  });
  return {
    kind: 'row',
    children: [
      key('back', 'Back', '◀', 'back'),
      key('home', 'Home', '●', 'home'),
      key('recent_apps', 'Overview', '■', 'recents'),
    ],
  };
}

const LETTER_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const SYMBOL_ROWS = ['1234567890', '@#$_&-+()/', '*"\':;!?'];

/** Which keys the keyboard shows: letters, upper case for one letter (shift), or digits and symbols. */
export type KeyboardLayer = 'letters' | 'shift' | 'symbols';

export interface KeyboardHandlers {
  type(text: string): void;
  del(): void;
  enter(): void;
  layer(next: KeyboardLayer): void;
}

export function keyboardView(h: KeyboardHandlers, enterLabel: string, layer: KeyboardLayer = 'letters'): View {
  const key = (label: string, onTap: () => void, weight = 1, desc?: string): View => ({
    kind: 'button',
    text: label,
    desc: desc ?? label,
    style: 'flat',
    className: 'android.widget.FrameLayout',
    weight,
    height: 'fill',
    onTap,
  });
  const source = layer === 'symbols' ? SYMBOL_ROWS : LETTER_ROWS;
  const typeKey = (c: string): View => {
    const label = layer === 'shift' ? c.toUpperCase() : c;
    return key(label, () => {
      h.type(label);
      // Shift is one-shot, as on a phone keyboard.
      if (layer === 'shift') h.layer('letters');
    });
  };
  const rows: View[] = source.map((chars, i) => ({
    kind: 'row',
    height: 'fill',
    gap: 4,
    children: [
      ...(i === 2 && layer !== 'symbols'
        ? [key('⇧', () => h.layer(layer === 'shift' ? 'letters' : 'shift'), 1.5, 'Shift')]
        : []),
      ...[...chars].map(typeKey),
      ...(i === 2 ? [key('⌫', () => h.del(), 1.5, 'Delete')] : []),
    ],
  }));
  rows.push({
    kind: 'row',
    height: 'fill',
    gap: 4,
    children: [
      key(
        layer === 'symbols' ? 'ABC' : '?123',
        () => h.layer(layer === 'symbols' ? 'letters' : 'symbols'),
        1.5,
        layer === 'symbols' ? 'Letters' : 'Symbols',
      ),
      key(',', () => h.type(',')),
      key('space', () => h.type(' '), 5, 'Space'),
      key('.', () => h.type('.')),
      key(enterLabel, () => h.enter(), 1.5, enterLabel === '↵' ? 'Enter' : enterLabel),
    ],
  });
  return { kind: 'column', padding: 6, gap: 6, background: '#e8eaed', children: rows };
}

/** The agent's IME (text arrives by broadcast): a slim bar instead of keys. */
export function agentImeView(): View {
  return {
    kind: 'row',
    padding: 8,
    background: '#e8eaed',
    children: [{ kind: 'text', id: 'agent_ime_status', text: 'Agent IME · ready', size: 'small', color: '#5f6368' }],
  };
}

export function dialogView(d: DialogSpec, onButton: (i: number) => void): View {
  const children: View[] = [
    { kind: 'text', id: 'alertTitle', text: d.title, size: 'large', bold: true, className: 'android.widget.TextView' },
  ];
  if (d.message) children.push({ kind: 'text', id: 'message', text: d.message, size: 'body' });
  const buttons: View[] = d.buttons.map((b, i) => ({
    kind: 'button',
    id: b.id ?? `button${i + 1}`,
    text: b.text,
    style: d.kind === 'system' ? 'secondary' : 'flat',
    onTap: () => onButton(i),
  }));
  // Permission dialogs stack their choices; app dialogs put them in a row.
  if (d.kind === 'system') children.push(...buttons);
  else children.push({ kind: 'row', gap: 8, children: buttons });
  return { kind: 'column', padding: 24, gap: 12, background: '#ffffff', children };
}

export function bannerView(b: Banner, onTap: () => void): View {
  return {
    kind: 'column',
    id: 'notification_banner',
    padding: 12,
    gap: 2,
    background: '#ffffff',
    onTap,
    children: [
      { kind: 'text', id: 'title', text: b.title, size: 'body', bold: true },
      { kind: 'text', id: 'text', text: b.text, size: 'small' },
    ],
  };
}

export function toastView(text: string): View {
  return {
    kind: 'column',
    padding: 12,
    background: '#323232',
    children: [{ kind: 'text', id: 'message', text, size: 'body', color: '#ffffff' }],
  };
}

export function spinnerView(): View {
  return {
    kind: 'column',
    children: [
      { kind: 'column', children: [], height: 'fill' },
      { kind: 'image', id: 'progress', className: 'android.widget.ProgressBar', glyph: '◌', height: 48 },
      { kind: 'column', children: [], height: 'fill' },
    ],
  };
}

export interface ShadeHandlers {
  open(id: number): void;
  clear(): void;
  wifi(on: boolean): void;
  bluetooth(on: boolean): void;
  dark(on: boolean): void;
  brightness(v: number): void;
}

/** The quick-settings panel: tiles are Switches (as SystemUI reports them) and a brightness slider. */
export function shadeView(
  s: { wifi: boolean; bluetooth: boolean; darkMode: boolean; brightness: number },
  h: ShadeHandlers,
  zh: boolean,
  topPad: number,
  notifications: { id: number; value: Banner }[],
): View {
  const rows: View[] = notifications.map((n) => ({
    kind: 'column',
    id: 'notification_row',
    padding: 12,
    background: '#ffffff',
    onTap: () => h.open(n.id),
    children: [
      { kind: 'text', id: 'title', text: n.value.title, size: 'body', bold: true },
      { kind: 'text', id: 'text', text: n.value.text, size: 'small' },
    ],
  }));
  if (rows.length) {
    rows.push({ kind: 'button', id: 'clear_all', text: zh ? '全部清除' : 'Clear all', style: 'flat', onTap: h.clear });
  }
  const tile = (text: string, checked: boolean, onToggle: (v: boolean) => void): View => ({
    kind: 'switch',
    text,
    desc: text,
    checked,
    onToggle,
    height: 72,
  });
  return {
    kind: 'column',
    id: 'quick_settings_panel',
    padding: 16,
    gap: 12,
    background: '#e8eaed',
    children: [
      { kind: 'column', children: [], height: topPad },
      {
        kind: 'row',
        gap: 12,
        children: [
          tile(zh ? 'WLAN' : 'Wi-Fi', s.wifi, h.wifi),
          tile(zh ? '蓝牙' : 'Bluetooth', s.bluetooth, h.bluetooth),
        ],
      },
      {
        kind: 'row',
        gap: 12,
        children: [tile(zh ? '深色主题' : 'Dark theme', s.darkMode, h.dark), { kind: 'column', children: [] }],
      },
      {
        kind: 'seekbar',
        id: 'slider',
        desc: zh ? '显示亮度' : 'Display brightness',
        min: 0,
        max: 255,
        value: s.brightness,
        onChange: h.brightness,
      },
      ...rows,
    ],
  };
}
