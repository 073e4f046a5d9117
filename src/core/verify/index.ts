/** Verification: answer parsing, keyword / alias / contradiction matching, metrics, judge, overrides. */
export * from './types.js';
export { wilson } from './metrics.js';
export { overriddenRead } from './overrides.js';
export { failedVerdicts, questionPassed } from './passed.js';
export { factVerdicts, type FactClass } from './facts.js';
