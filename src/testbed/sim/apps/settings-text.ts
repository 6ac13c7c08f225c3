import type { AppContext } from '../app.js';

/** Settings' strings in both locales, and its main list as Android 14 on a Pixel shows it. */

export const T = {
  title: ['Settings', '设置'],
  network: ['Network & internet', '网络和互联网'],
  networkSummary: ['Mobile, Wi-Fi, hotspot', '移动网络、WLAN、热点'],
  internet: ['Internet', '互联网'],
  wifi: ['Wi-Fi', 'WLAN'],
  wifiOff: ['Off', '已关闭'],
  wifiNetwork: ['HomeNet', 'HomeNet'],
  connected: ['Connected', '已连接'],
  sims: ['SIMs', 'SIM 卡'],
  airplane: ['Airplane mode', '飞行模式'],
  hotspot: ['Hotspot & tethering', '热点和网络共享'],
  devices: ['Connected devices', '已连接的设备'],
  devicesSummary: ['Bluetooth, pairing', '蓝牙、配对'],
  pair: ['Pair new device', '与新设备配对'],
  prefs: ['Connection preferences', '连接偏好设置'],
  prefsSummary: ['Bluetooth, NFC', '蓝牙、NFC'],
  bluetooth: ['Bluetooth', '蓝牙'],
  useBluetooth: ['Use Bluetooth', '使用蓝牙'],
  nfc: ['NFC', 'NFC'],
  cast: ['Cast', '投射'],
  printing: ['Printing', '打印'],
  display: ['Display', '显示'],
  displaySummary: ['Dark theme, font size, brightness', '深色主题、字号、亮度'],
  brightnessHeader: ['Brightness', '亮度'],
  brightness: ['Brightness level', '亮度'],
  adaptive: ['Adaptive brightness', '自动调节亮度'],
  dark: ['Dark theme', '深色主题'],
  about: ['About phone', '关于手机'],
  model: ['Model', '型号'],
  android: ['Android version', 'Android 版本'],
  build: ['Build number', '版本号'],
  nothing: ['Nothing to configure here on the virtual phone.', '虚拟手机上这里没有可设置的内容。'],
  search: ['Search settings', '搜索设置'],
  noResults: ['No results', '无结果'],
} as const;

export type TextKey = keyof typeof T;

export function st(ctx: AppContext, k: TextKey): string {
  return T[k][ctx.locale === 'zh' ? 1 : 0];
}

/** Main-list entries without a page of their own here, in the order a Pixel shows them. */
export const OTHER: [string, string, string][] = [
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
