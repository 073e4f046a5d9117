/**
 * Outdated answers. A question built from dated data (`as of 2019`) asks in that time; a model that answers it with
 * what it takes to be later facts ("he currently plays for Juventus", "he joined Juventus in 2021") is wrong about
 * the time asked, but not in the way an invented fact is. How it is recognised (docs/probes.md, "as of"):
 *
 * - the question is dated (year Y), and the verdict is wrong: a committed answer that is not the gold (unsure, don't
 *   know and refusals are not), or a keyword contradicted by another value of its attribute;
 * - and the response itself places its claim after Y: it names a year later than Y that the question does not name,
 *   or it speaks of the present ("currently", "now plays", "today", "as of now", "these days", …).
 *
 * The data cannot say that the later fact is *true* (a snapshot holds one time); the model's own dating is the
 * evidence, and the value it states instead (a contradicted keyword's other value) is kept beside it. Without such a
 * dating the answer stays plainly wrong: naming another value is not, alone, evidence of a later time.
 */
import type { Question } from '../probes/question.js';
import type { Verdict } from './types.js';

/** Words that place a claim in the present (after any past snapshot). */
const PRESENT =
    /\b(?:currently|presently|nowadays|at present|at the moment|right now|as of (?:now|today)|these days|today|(?:is|are|has|have|was) now|now (?:plays?|is|are|works?|lives?|coaches|manages|owns|holds|runs|leads|belongs|represents))\b/i;
const YEAR = /(?<![\d.,])(1[6-9]\d\d|2[01]\d\d)(?![\d.,]\d)/g;

/** Where the response dates what it says after `year`: a later year not in the question, else a present-time phrase. */
export function laterClaim(
    response: string,
    question: string,
    year: number,
): { said: string; span: [number, number] } | undefined {
    const asked = new Set(question.match(YEAR) ?? []);
    for (const m of response.matchAll(YEAR)) {
        if (Number(m[1]) > year && !asked.has(m[1]!)) return { said: m[1]!, span: [m.index, m.index + m[1]!.length] };
    }
    const now = PRESENT.exec(response);
    return now ? { said: now[0], span: [now.index, now.index + now[0].length] } : undefined;
}

const COMMITTED = new Set(['yes', 'no', 'true', 'false', 'option', 'none', 'multiple', 'binding', 'answer']);

/** The verdict's `outdated` for a dated question (see the file comment); undefined when it is not. */
export function outdatedOf(question: Question, verdict: Verdict, response: string): Verdict['outdated'] {
    if (!question.asOf) return undefined;
    const contradicted = verdict.hops.flatMap(h => h.keywords).find(k => k.status === 'contradicted');
    const wrong = (!verdict.correct && COMMITTED.has(verdict.answer)) || contradicted !== undefined;
    if (!wrong) return undefined;
    const later = laterClaim(response, question.question, question.asOf.year);
    if (!later) return undefined;
    const out: NonNullable<Verdict['outdated']> = { asOf: question.asOf.text, said: later.said, span: later.span };
    if (contradicted?.conflict) out.value = contradicted.conflict.value;
    return out;
}
