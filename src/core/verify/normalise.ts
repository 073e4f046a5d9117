/** Text folding moved to the reader (src/core/reader/fold.ts); verify keeps its old import path. */
export * from '../reader/fold.js';
