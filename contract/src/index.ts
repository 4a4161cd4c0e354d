export * from './constants.js';
export * from './common.js';
export * from './auth.js';
export * from './todos.js';
export * from './groups.js';
export * from './statistics.js';
export * from './system.js';
