/**
 * The review room's front door: a person's labels of a run's answers, the stratified review sample, the trust figures
 * every report shows (the reader's agreement with the labels, corrected figures), the labels' import and the corpus.
 */
export { reviewSample, importLabels } from './step.js';
export { reviewItems, reviewOrder, reviewPlan, agreementOf, labelsNeeded, slotOf, type ReviewItem } from './sample.js';
export { readerClass } from './strata.js';
export { cohensKappaOf } from './trust.js';
export { ppiShare } from './ppi.js';
export { corpusLines, readerCheck } from './corpus.js';
export { ReviewRound, REVIEW_KEYS, claimKeys, defaultReviewer, type ReviewAction } from './round.js';
