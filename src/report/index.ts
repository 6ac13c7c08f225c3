export { type Gesture, gestureOf } from './gesture.js';
export { type IndexedRun, writeIndex } from './index-page.js';
export { loadRun } from './load.js';
export { type RenderOptions, renderReport } from './render.js';
export type { ReportStep, RunModel, Shot, StepFile } from './schema.js';
export { escapeHtml } from './text.js';
export { type RunTotals, totalsOf } from './totals.js';
export { type WriteReportOptions, writeReport } from './write.js';
