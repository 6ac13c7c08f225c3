import type { WireScreen } from '../../../device/protocol/wire.js';

/** Screen presets of the virtual phone (pixels of the full physical screen, density in dpi). */
export type ScreenPreset = 'phone' | 'phone-large' | 'foldable' | 'landscape';
export type ScreenOption = ScreenPreset | { width: number; height: number; density: number };

const PRESETS: Record<ScreenPreset, { width: number; height: number; density: number; rotation: number }> = {
  phone: { width: 1080, height: 2400, density: 420, rotation: 0 },
  'phone-large': { width: 1440, height: 3120, density: 560, rotation: 0 },
  // An unfolded inner display: nearly square (w:h ≈ 1.2).
  foldable: { width: 2208, height: 1840, density: 420, rotation: 0 },
  landscape: { width: 2400, height: 1080, density: 420, rotation: 1 },
};

export function resolveScreen(opt: ScreenOption = 'phone'): WireScreen {
  if (typeof opt === 'string') {
    const p = PRESETS[opt];
    if (!p) throw new Error(`unknown screen preset "${opt}"; use one of ${Object.keys(PRESETS).join(', ')}`);
    return { ...p };
  }
  if (!(opt.width > 0 && opt.height > 0 && opt.density > 0)) {
    throw new Error('screen needs positive width, height and density');
  }
  return {
    width: Math.round(opt.width),
    height: Math.round(opt.height),
    density: Math.round(opt.density),
    rotation: opt.width > opt.height ? 1 : 0,
  };
}

/** dp → px for this screen, as Android rounds it. */
export function dpToPx(screen: WireScreen, dp: number): number {
  return Math.round((dp * screen.density) / 160);
}

/** The fixed system areas of the screen, in pixels. */
export interface ScreenGeometry {
  statusBarHeight: number;
  navBarHeight: number;
  /** Top of the IME window when it is shown (the keyboard covers ~40% of the screen with the nav bar). */
  keyboardTop: number;
}

export function screenGeometry(screen: WireScreen): ScreenGeometry {
  const statusBarHeight = dpToPx(screen, 24);
  const navBarHeight = dpToPx(screen, 48);
  return { statusBarHeight, navBarHeight, keyboardTop: Math.round(screen.height * 0.6) };
}
