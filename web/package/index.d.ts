export * from './rules.js';
export * from './engine.js';
