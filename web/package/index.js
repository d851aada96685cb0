// Konakis in the browser: the rules (synchronous) and the engine (in a Web Worker).
export * from './rules.js';
export * from './engine.js';
