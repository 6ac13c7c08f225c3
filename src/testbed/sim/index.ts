/** The virtual phone's public surface: what servers, the CLI and tests import. */

export type * from './app.js';
export { createLauncherApp, drawerPages, LAUNCHER_PACKAGE, stockAppFactories } from './apps/launcher.js';
export { appFactories } from './apps/registry.js';
export { createSettingsApp, SETTINGS_PACKAGE } from './apps/settings.js';
export type { Frame, LaidWindow } from './engine/frame.js';
export { FLING_FACTOR, FLING_MS, LONG_PRESS_MS, SHORT_TAP_MS } from './engine/input.js';
export type { LaidNode } from './engine/node.js';
export { resolveScreen, type ScreenOption, type ScreenPreset, screenGeometry } from './engine/screen.js';
export { AGENT_IME, LATIN_IME } from './engine/services.js';
export { IME_PACKAGE, OVERLAY_PACKAGE, PERMISSION_PACKAGE, SYSTEM_UI } from './engine/system-views.js';
export type * from './kit/view.js';
export { NO_FAULTS, VirtualPhone, type VirtualPhoneDeps } from './phone.js';
export { renderPng } from './render/png.js';
export { frameToSvg } from './render/svg.js';
export { frameToSnapshot } from './render/tree.js';
export { EMPTY_DUMP_ERROR, frameToXml } from './render/xml.js';
export type * from './surface.js';
export type * from './world.js';
export { createWorld } from './world-seed.js';
