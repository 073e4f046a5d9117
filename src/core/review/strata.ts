/**
 * How the reader reached a verdict, as the review sample's strata: the family, the reader's class (pass, fail,
 * unreadable) and how it read the answer — the model reader disagreeing with the patterns, unverifiable claims, a
 * hedged answer, a refusal or "I don't know", an answer read at the conclusion ("The answer is …" closing the
 * response) or at the opening. Pure: from a verdict alone, so the sample, the trust figures and the corpus agree.
 */
import { effectiveCorrect, isMissingAnswer } from '../verify/metrics.js';
import type { Verdict } from '../verify/types.js';
import type { ReviewLabelValue } from '../store/types.js';

/** The reader's verdict in the labels' words: what a person's label is compared with. */
export type ReaderClass = Exclude<ReviewLabelValue, 'unsure'>;

/**
 * The reader's class: `pass` the answer read is right, `unreadable` it read no answer (unsure, does not know,
 * unparseable: M), `fail` it read a wrong answer (H). `own`: the reader's own verdict, before any override.
 */
export function readerClass(v: Verdict, own = false): ReaderClass {
    if (own ? v.correct : effectiveCorrect(v)) return 'pass';
    return isMissingAnswer(v) ? 'unreadable' : 'fail';
}

/** How the verdict was reached, in a few words (the stratum's last part). */
function howRead(v: Verdict): string {
    if (v.modelRead && v.modelRead.agree === false) return 'model reader disagrees';
    if (v.modelRead?.claims?.some(c => c.status === 'unverifiable')) return 'unverifiable claims';
    const stance = v.read?.stance;
    if (stance === 'hedged') return 'hedged';
    if (stance === 'refuse') return 'refusal or denial';
    if (stance === 'abstain') return 'does not know';
    if (stance === 'none') return 'nothing read';
    const why = v.read?.why ?? '';
    if (/closes the response|conclu/i.test(why)) return 'conclusion';
    if (/^opens|first sentence|^states/i.test(why)) return 'opening';
    return 'other';
}

/** The stratum of a verdict: family · reader class · how it was read. */
export function stratumOf(kind: string, v: Verdict): string {
    return `${kind} · ${readerClass(v, true)} · ${howRead(v)}`;
}

/** Strata read first: where the readers disagree, then claims nobody could check. */
export function stratumPriority(stratum: string): number {
    return stratum.endsWith('model reader disagrees') ? 0 : stratum.endsWith('unverifiable claims') ? 1 : 2;
}
