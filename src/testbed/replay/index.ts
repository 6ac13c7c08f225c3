export * from './graph.js';
export * from './load-graph.js';
export * from './match.js';
export * from './phone.js';
export * from './state-file.js';
