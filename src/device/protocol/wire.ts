/** The snapshot and hello schemas are shared by device and perception, so they live in core. */
export * from '../../core/snapshot.js';
