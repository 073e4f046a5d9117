/**
 * Which reading of an answer decides a verdict: the pattern reader's (the response as verified), or the model
 * reader's when a probe says \`decide_by reader\` (src/core/verify/model-read.ts). Families that score the answer's
 * words or claims outside \`score\` (figures, question groups, explanations, the graph panel) ask here, so every
 * figure follows the reading that decided.
 */
import type { ModelClaim, Verdict } from './types.js';

/** The model reader decided this verdict. */
function modelDecided(v: Pick<Verdict, 'modelRead'>): boolean {
    return v.modelRead?.patterns !== undefined && v.modelRead.answer !== undefined;
}

/** The words scored as the answer: the model's short answer when it decided (nothing when it read no answer), else the response after the answer word. */
export function answerWords(v: Pick<Verdict, 'modelRead' | 'rationaleText'>): string {
    return modelDecided(v) && v.modelRead!.reads === 'short' ? (v.modelRead!.text ?? '') : v.rationaleText;
}

/** The claims the model read when it decided; undefined: the family reads the response's claims itself. */
export function decidingClaims(v: Pick<Verdict, 'modelRead'> | undefined): ModelClaim[] | undefined {
    return v && modelDecided(v) && v.modelRead!.reads === 'claims' ? (v.modelRead!.claims ?? []) : undefined;
}
