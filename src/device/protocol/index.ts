/** The helper bridge protocol v3 (helper/PROTOCOL.md): wire, action, receipt and compat schemas. */
export * from './actions.js';
export * from './apps.js';
export * from './compat.js';
export * from './gesture.js';
export * from './receipt.js';
export * from './scroll-target.js';
export * from './transport.js';
export * from './wire.js';
