/**
 * Context enriching (ReEval category 2): the sentence of the passage that states the answer, merged with related
 * passages that do not state it; the gold is unchanged. Related passages are retrieved by query and by evidence, as
 * the paper does: BM25 (MiniSearch) of each candidate against the question and against the supporting sentence,
 * candidates that match neither dropped, ranked by the sum of the two ranks. A case is kept only when the answer
 * is in the supporting sentence and in no related passage (in any form: URL, slug, case, apostrophe).
 */
import { lexicalScores } from '../../kg/lexical.js';
import { mentions, occurrences, sentences } from './text.js';

export type EnrichRejection = 'no-support' | 'no-related';

/** An enriched case: its passage, the supporting sentence, what surrounds it, and where the support sits (1-based among the passages; none when a model merged them). */
export interface Enriched {
    passage: string;
    support: string;
    related: string[];
    position?: number;
}

/** The sentence of a passage that states the answer (the first one that does), else undefined. */
export function supportingSentence(passage: string, forms: readonly string[]): string | undefined {
    return sentences(passage).find(s => occurrences(s, forms).length > 0);
}

/** Which retrieval an enriched copy's passages come from (ReEval builds one copy of each); none: both, ranks summed. */
export type EnrichFocus = 'evidence' | 'question';

/**
 * Up to `k` candidates related to the question or the supporting sentence (a BM25 score > 0), none that states the
 * answer in any form, best by the sum of the two ranks (a candidate one retrieval misses ranks last there); with a
 * `focus`, by that retrieval alone (ReEval's evidence-focused and question-focused copies).
 */
export function relatedPassages(
    question: string,
    support: string,
    candidates: readonly string[],
    forms: readonly string[],
    k: number,
    focus?: EnrichFocus,
): string[] {
    const pool = candidates.filter(c => !mentions(c, forms));
    if (pool.length === 0) return [];
    const [q, e] = lexicalScores(pool, [question, support]);
    // Each retrieval's rank of a pool entry (by its BM25 score), absent where it shares no word with the query.
    const rank = (scores: Float64Array) =>
        new Map(
            pool
                .map((_, i) => i)
                .filter(i => scores[i]! > 0)
                .sort((a, b) => scores[b]! - scores[a]! || a - b)
                .map((i, r) => [i, r]),
        );
    const byQuestion = focus === 'evidence' ? new Map<number, number>() : rank(q!),
        byEvidence = focus === 'question' ? new Map<number, number>() : rank(e!);
    const score = (i: number) => (byQuestion.get(i) ?? pool.length) + (byEvidence.get(i) ?? pool.length);
    return pool
        .map((_, i) => i)
        .filter(i => byQuestion.has(i) || byEvidence.has(i))
        .sort((a, b) => score(a) - score(b) || a - b)
        .slice(0, k)
        .map(i => pool[i]!);
}

/** Passages of a text column (blank lines, else sentences), short scraps dropped. */
export function splitPassages(s: string): string[] {
    const blocks = s
        .split(/\n{2,}/)
        .map(x => x.trim())
        .filter(Boolean);
    return (blocks.length > 1 ? blocks : sentences(s)).filter(x => x.length > 20);
}

/** An enriched case, validated, or why there is none. The support lands at a random position among the passages. */
export function enrichCase(c: {
    question: string;
    passage: string;
    forms: readonly string[];
    candidates: readonly string[];
    random: () => number;
    max: number;
    focus?: EnrichFocus;
}): Enriched | EnrichRejection {
    const support = supportingSentence(c.passage, c.forms);
    if (support === undefined) return 'no-support';
    const related = relatedPassages(c.question, support, c.candidates, c.forms, c.max, c.focus);
    if (related.length === 0) return 'no-related';
    const at = Math.floor(c.random() * (related.length + 1));
    const parts = [...related.slice(0, at), support, ...related.slice(at)];
    return { passage: parts.join('\n\n'), support, related, position: at + 1 };
}
