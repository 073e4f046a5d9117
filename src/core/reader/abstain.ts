/**
 * Abstention in answers read as claims (open answers; issue 41): an answer commits when one of its sentences states
 * something — a number or a name after its first word — without declining ("I don't know", "I can't verify", a
 * refusal: answer.ts `notAnswering`) and without a hedge that never commits ("might", "may have", "possibly",
 * "perhaps", "not sure", "unclear"); what it states inside a denied span (denial.ts) is not its own. "I believe" and "I think" commit ("I'm not certain, but I believe it was
 * Cameron" is an answer). An answer that declines or hedges and commits nowhere is unsure: neither passed nor failed
 * (M), as a yes / no "unsure" is.
 */
import { notAnswering } from './answer.js';
import { sentences } from './claims.js';
import { plainApostrophes } from './text.js';
import { reportedSpans, withoutDenied } from './denial.js';
import type { Stance } from './types.js';

export const HEDGE =
    /\b(?:might|may\s+(?:have|be|not)|could\s+(?:have|be)|possibly|perhaps|maybe|not\s+(?:sure|certain|confident)|unclear|uncertain|unsure|i\s+(?:can(?:no|')?t|cannot)\s+(?:be\s+sure|confirm|verify))\b/i;
/** Something stated: a digit, or a capitalised word after the sentence's first word ("I" is no name). */
const STATES = /\d|\s(?!I\b)\p{Lu}/u;
/**
 * Advice to the reader instead of a claim: where to check, what would settle it, an offer to try again ("If you can
 * check the credits, that would settle it", "I'd recommend checking IMDb"). It states nothing of the answer's own.
 */
export const ADVICE =
    /^[\s*_>-]*if\s+you\s+(?:can|could|want|wish|need|have|check|look|(?:'d|would)\s+like)\b|\b(?:i'?d|i\s+would)\s+(?:recommend|suggest|advise)\b|\b(?:recommend|suggest)\s+(?:checking|consulting|verifying|confirming|looking)\b|\bwould\s+(?:settle|clarify|confirm|resolve|verify)\b/i;

export interface ClaimsAnswer {
    label: 'yes' | 'unsure' | 'unparseable';
    stance: Stance;
    /** The first declining or hedging words read, when the answer is unsure. */
    span?: [number, number];
    /**
     * The first declining or hedging words anywhere, also in an answer that commits elsewhere ("I can't give a reliable
     * answer. Avatar was a landmark."): whether what it commits to is an answer is for its claims to show.
     */
    declines?: [number, number];
    why: string;
}

export function readClaimsAnswer(response: string): ClaimsAnswer {
    if (response.trim() === '') return { label: 'unparseable', stance: 'none', why: 'empty' };
    let first: { span: [number, number]; stance: Stance } | undefined;
    let committed: ClaimsAnswer | undefined;
    let declines: [number, number] | undefined;
    const commit = (c: ClaimsAnswer): ClaimsAnswer => (declines ? { ...c, declines } : c);
    for (const [a, b] of sentences(response)) {
        const s = response.slice(a, b);
        // A typographic apostrophe ("I don’t have enough information") declines as the typed one does (same length).
        const decline = notAnswering(plainApostrophes(s));
        const hedge = decline ? undefined : HEDGE.exec(s);
        if (!decline && !hedge) {
            // A sentence that only reports values it sets aside ("The passage says X, which is clearly off") or the given
            // facts' words ("The facts provided say X") states none of its own.
            if (!committed && !ADVICE.test(s) && STATES.test(withoutDenied(withoutDenied(s), reportedSpans(s))))
                committed = {
                    label: 'yes',
                    stance: first ? 'hedged' : 'answer',
                    why: first ? 'a committed claim after a hedge' : 'states claims',
                };
            continue;
        }
        // "I'm not sure, but I believe it was Cameron": the sentence commits after its hedge.
        const at = decline ? decline.span : ([hedge!.index, hedge!.index + hedge![0].length] as [number, number]);
        const rest = s.slice(at[1]);
        if (
            /^[\s,;:-]*(?:but|however|though|although)\b.*\b(?:i\s+(?:believe|think)|it\s+(?:was|is))\b/i.test(rest) &&
            STATES.test(rest)
        ) {
            committed ??= { label: 'yes', stance: 'hedged', why: 'a hedge that commits' };
            continue;
        }
        declines ??= [a + at[0], a + at[1]];
        if (!committed) first ??= { span: [a + at[0], a + at[1]], stance: decline?.stance ?? 'hedged' };
    }
    if (committed) return commit(committed);
    if (first)
        return {
            label: 'unsure',
            stance: first.stance === 'refuse' ? 'refuse' : 'abstain',
            span: first.span,
            why: first.stance === 'refuse' ? 'refuses' : 'declines or only hedges, and commits to no claim',
        };
    return { label: 'yes', stance: 'answer', why: 'states claims' };
}
