export * from './types.js';
export * from './operations.js';
export * from './validate.js';
export * from './resources.js';
export * from './answer-types.js';
export * from './values.js';
export * from './durations.js';
