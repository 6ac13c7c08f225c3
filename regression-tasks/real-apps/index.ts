export * from './spec.js';
export { REAL_APP_TASKS } from './tasks.js';
