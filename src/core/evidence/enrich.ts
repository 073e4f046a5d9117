/**
 * Context enriching (ReEval category 2): the sentence of the passage that states the answer, merged with related
 * passages that do not state it; the gold is unchanged. Related passages are retrieved by query and by evidence, as
 * the paper does: BM25 (MiniSearch) of each candidate against the question and against the supporting sentence,
 * candidates that match neither dropped, ranked by the sum of the two ranks. A case is kept only when the answer
 * is in the supporting sentence and in no related passage (in any form: URL, slug, case, apostrophe).
 */
import MiniSearch from 'minisearch';
import { foldedHits, occurrences, sentences } from './text.js';

export type EnrichRejection = 'no-support' | 'no-related';

export interface Enriched { passage: string; support: string; related: string[]; position: number }

/** The sentence of a passage that states the answer (the first one that does), else undefined. */
export function supportingSentence(passage: string, forms: readonly string[]): string | undefined {
    return sentences(passage).find(s => occurrences(s, forms).length > 0);
}

const STOP = new Set('a an the of in on at to for from by with and or but is are was were be been has have had do does did it its this that these those what which who whom whose when where why how as than then there their they he she his her him we our you your i not no yes will would can could should may might into about after before over under between during since up down out more most less'.split(' '));

/** Lower-case words, stop words dropped, a plural's s folded (“contests” ~ “contest”). */
function term(t: string): string | null {
    const w = t.toLowerCase();
    if (w.length < 2 || STOP.has(w)) return null;
    return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/**
 * Up to `k` candidates related to the question or the supporting sentence (a BM25 score > 0), none that states the
 * answer in any form, best by the sum of the two ranks (a candidate one retrieval misses ranks last there).
 */
export function relatedPassages(question: string, support: string, candidates: readonly string[], forms: readonly string[], k: number): string[] {
    const pool = candidates.map((text, id) => ({ id, text })).filter(c => !forms.some(f => foldedHits(c.text, f).length > 0));
    if (pool.length === 0) return [];
    const index = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], processTerm: term });
    index.addAll(pool);
    const rank = (query: string) => new Map(index.search(query).map((r, i) => [r.id as number, i]));
    const byQuestion = rank(question), byEvidence = rank(support);
    const score = (id: number) => (byQuestion.get(id) ?? pool.length) + (byEvidence.get(id) ?? pool.length);
    return pool.filter(c => byQuestion.has(c.id) || byEvidence.has(c.id))
        .sort((a, b) => score(a.id) - score(b.id) || a.id - b.id)
        .slice(0, k).map(c => c.text);
}

/** Passages of a text column (blank lines, else sentences), short scraps dropped. */
export function splitPassages(s: string): string[] {
    const blocks = s.split(/\n{2,}/).map(x => x.trim()).filter(Boolean);
    return (blocks.length > 1 ? blocks : sentences(s)).filter(x => x.length > 20);
}

/** An enriched case, validated, or why there is none. The support lands at a random position among the passages. */
export function enrichCase(c: { question: string; passage: string; forms: readonly string[]; candidates: readonly string[]; random: () => number; max: number }): Enriched | EnrichRejection {
    const support = supportingSentence(c.passage, c.forms);
    if (support === undefined) return 'no-support';
    const related = relatedPassages(c.question, support, c.candidates, c.forms, c.max);
    if (related.length === 0) return 'no-related';
    const at = Math.floor(c.random() * (related.length + 1));
    const parts = [...related.slice(0, at), support, ...related.slice(at)];
    return { passage: parts.join('\n\n'), support, related, position: at + 1 };
}
