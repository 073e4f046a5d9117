/** The open family's engine (issue 17, OKGQA): retrieval, perturbation, similarity, claim checking. */
export * from './types.js';
export { personalisedPageRank, PPR_DEFAULTS, type PprOptions, type PprResult } from './ppr.js';
export { prizeCollectingSteiner, pcstObjective, type PcstInput, type PcstResult } from './steiner.js';
export {
    retrieve,
    topTriplets,
    bestPaths,
    steinerSubgraph,
    RETRIEVAL_DEFAULTS,
    type Retrieval,
    type RetrievalSettings,
} from './retrieve.js';
export { openPrompt, renderContext, renderTriplet, FACTS_INTRO } from './render.js';
export { perturb, perturbedCount, PERTURBATION_KINDS, type PerturbOptions } from './perturb.js';
export { sc2d, sd2, clusteringVector, degreeVector } from './similarity.js';
export { splitClaims, linkClaims, buildLexicon, stem, type Claim, type Lexicon, type LinkedClaim } from './claims.js';
export {
    checkClaim,
    causeOf,
    contextFacts,
    dataFacts,
    verifyOpenAnswer,
    summariseClaims,
    type Fact,
    type FactSource,
    type ClaimSummary,
} from './check.js';
export { simulatedOpenAnswer, type SimulatedOpenOptions } from './simulate.js';
