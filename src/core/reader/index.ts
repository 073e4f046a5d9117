/**
 * The reader (issue 28): one room that reads model output for every family — answers (yes / no, statements,
 * options, short answers) with span and reason, entity linking, claims with negation and their status.
 * It imports no family and nothing of verify / report; they import it.
 */
export {
    readYesNo,
    readStatement,
    readChoice,
    readShort,
    saysNoWord,
    skipLead,
    firstSentenceEnd,
    AUTHORS_DECLINE_WORDS,
} from './answer.js';
export type { Reading, ClosedOptions } from './answer.js';
export { findVerdict } from './verdict.js';
export type { Proposition } from './proposition.js';
export { Linker, partOfLongerName, type EntityEntry, type Mention } from './link.js';
export { ClaimReader, clauses, negationAt, rationalePoints, factScore } from './claims.js';
export type { RelationPhrasing, FactRow } from './claims.js';
export { buildLooseLexicon, linkClaims, linkStatedClaims, splitClaims, statesLabel } from './loose.js';
export type { LinkedClaim, LooseLexicon, LooseName, LooseEntry } from './loose.js';
export type { StatedClaim } from './types.js';
export { deniedSpans, isDenied, withoutDenied } from './denial.js';
export { readClaimsAnswer } from './abstain.js';
