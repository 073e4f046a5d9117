/**
 * The review room's front door: a person's labels of a run's answers, the stratified review sample, the trust figures
 * every report shows (the reader's agreement with the labels, corrected figures), the labels' import and the corpus.
 */
export { reviewSample, recordReviewLabel, importLabels, readOf, type ReviewSession } from './step.js';
export {
    reviewItems,
    reviewOrder,
    reviewPlan,
    agreementOf,
    labelsNeeded,
    slotOf,
    type ReviewItem,
    type ReviewFilter,
    type ReviewPlan,
    type ReviewPlanOptions,
} from './sample.js';
export { readerClass, howRead, stratumOf, type ReaderClass } from './strata.js';
export {
    computeTrust,
    belowAgreement,
    cohensKappaOf,
    countingLabels,
    NO_REVIEW_LINE,
    LABEL_VALUES,
    type TrustReport,
    type TrustGroup,
    type CorrectedFigure,
    type ReviewerAgreement,
} from './trust.js';
export { ppiShare, type PpiEstimate } from './ppi.js';
export { corpusLines, readerCheck, type CorpusEntry, type ReaderCheck } from './corpus.js';
export {
    ReviewRound,
    REVIEW_KEYS,
    CLAIM_MARKS,
    MARKABLE_CLAIMS,
    claimKeys,
    isClaimAction,
    defaultReviewer,
    type ReviewAction,
    type ReviewOutcome,
    type ClaimAction,
    type ClaimStatus,
} from './round.js';
