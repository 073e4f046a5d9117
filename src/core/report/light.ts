/**
 * The report room's light front door: per-line results (CodeLens, hovers, Show Failures) and the simulator's
 * label, loading no native module, for the extension's eagerly loaded files (better-sqlite3 loads only when a store
 * is first used: src/extension/native.ts). `index.ts` re-exports it all.
 */
export { type AnchorResult, type AnchorFacts, anchorResults, fdOfProbe, worstExamples } from './anchors.js';
export { factView, rowFactResults, rowsAtLine, type RowFacts } from './fact-view.js';
export { SIMULATOR_LABEL, explainVerdict, simulatedModels, type ReportRun } from './model.js';
export { ratio } from './numbers.js';
export { anchorTrust, LENS_NOT_REVIEWED, type AnchorTrust } from './anchor-trust.js';
