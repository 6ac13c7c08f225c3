import type { AppFactory } from '../app.js';

/**
 * Every app installed on the virtual phone. Each app file adds its factory here (one line each), so
 * apps can be written independently of each other.
 */
export const appFactories: AppFactory[] = [];
