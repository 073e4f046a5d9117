/** Verification: answer parsing, keyword / alias / contradiction matching, metrics, judge, overrides. */
export * from './types.js';
export { parseBinary, parseChoice, parseStatement, type ParsedAnswer } from './answer.js';
export { createVerifyContext, verify, keywordsPresent, hopPresent, type VerifyContext } from './verify.js';
export { verifyRun, type VerifiableStore, type VerifyRunResult } from './run.js';
export {
    computeMetrics,
    groupMetrics,
    wilson,
    figure,
    knownEntities,
    entityKey,
    MODE_LABELS,
    type GroupMetrics,
    type Figure,
    type Interval,
    type EvaluationMode,
} from './metrics.js';
export { applyOverrides, overriddenRead, type Override } from './overrides.js';
export {
    judgeGroups,
    summarizeGroups,
    registerGroupRelation,
    GROUP_RELATIONS,
    type GroupVerdict,
    type GroupSummary,
    type GroupRelation,
} from './groups.js';
export { failedVerdicts, questionPassed, isMeasured } from './passed.js';
export { runJudge, cohensKappa, sampleVerdicts, JUDGE_LABEL, JUDGE_PRESET, type JudgeClient, type JudgeResult } from './judge.js';
export {
    factVerdicts,
    observe,
    sameValue,
    FACT_CLASSES,
    FACT_CLASS_TEXT,
    type FactClass,
    type FactReport,
    type FactVerdict,
    type FamilyFactVerdict,
    type FactSummary,
    type PairAgreement,
    type Disagreeing,
} from './facts.js';
