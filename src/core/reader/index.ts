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
    notAnswering,
    skipLead,
    firstSentenceEnd,
    AUTHORS_DECLINE_WORDS,
} from './answer.js';
export type {
    Reading,
    ChoiceReading,
    Stance,
    YesNo,
    Truth,
    ChoiceLabel,
    ChoiceOptions,
    ClosedOptions,
    AnswerRule,
} from './answer.js';
export { findVerdict, type VerdictFinding, type VerdictRead, type Polarity, type VerdictRole } from './verdict.js';
export { Linker, shortForms, partOfLongerName, type EntityEntry, type Mention, type LinkerOptions } from './link.js';
export { ClaimReader, sentences, clauses, negationAt, rationalePoints, factScore, tripleScores } from './claims.js';
export type { RelationPhrasing, FactIndex, FactRow, ClaimStatus, ReadClaim, Interval, Triple } from './claims.js';
export { buildLooseLexicon, linkClaims, linkStatedClaims, splitClaims, stem, statesLabel } from './loose.js';
export type { Claim, LinkedClaim, LooseLexicon, LooseName, LooseEntry, LooseRelation, StatedClaim } from './loose.js';
export { deniedSpans, isDenied, withoutDenied } from './denial.js';
export { readClaimsAnswer, type ClaimsAnswer } from './abstain.js';
