/**
 * The run room's light front door: the text of a run's progress, cost and summary, loading no native module, for
 * the extension's eagerly loaded files (better-sqlite3 loads only when a store is first used:
 * src/extension/native.ts). `index.ts` re-exports it all.
 */
export { availableModels, defaultModel, modelDescription, suiteAsksBatch, suiteRunModel } from './settings.js';
export {
    batchStates,
    heldLine,
    pacingLines,
    preparedLines,
    priceText,
    replayLines,
    progressBar,
    progressLine,
    summaryLines,
    usd,
    waitingParts,
} from './format.js';
