export * from './clock.js';
export * from './errors.js';
export * from './geometry.js';
export * from './logger.js';
export * from './random.js';
export * from './snapshot.js';
export * from './types.js';
export * from './wait-conditions.js';
