/**
 * The run room's front door: the faces (src/cli, src/server, src/extension) import it, nothing deeper. Preparing
 * and executing a run (prepare.ts, runner.ts), the whole user action (spec-run.ts), the preview (preview.ts) and
 * the progress text (format.ts, also through the light front door light.ts).
 */
export * from './prepare.js';
export * from './spec-run.js';
export { batchable } from './batch.js';
export { previewSpec, previewSummary, type Preview, type PreviewBlocked, type PreviewRequest } from './preview.js';
export * from './light.js';
export { estimateProbe, type EstimateBudget } from './estimate.js';
export { suitePower, powerLines, powerSummary, type SuitePower } from './power.js';
