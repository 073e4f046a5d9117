/**
 * Lexical relatedness of short texts to a query: BM25 (MiniSearch's BM25+) over words, English stop words dropped
 * and words cut to a crude stem ("directed", "director", "direction" → "direct"; "contests" → "contest"), so a
 * question can be matched to passages (evidence enriching) and to a graph's nodes and edges (open retrieval).
 */
import MiniSearch from 'minisearch';

const STOP = new Set('a an the of in on at to for from by with and or but is are was were be been has have had do does did it its this that these those what which who whom whose when where why how as than then there their they he she his her him we our you your i not no yes will would can could should may might into about after before over under between during since up down out more most less'.split(' '));

/** A word as indexed: lower case, stop words dropped (null), common suffixes cut. */
export function stem(token: string): string | null {
    const w = token.toLowerCase();
    if (w.length < 2 || STOP.has(w)) return null;
    if (w.length <= 4) return w;
    return w.replace(/(ations?|ions?|ings?|ers?|ors?|ed|es|s)$/, '') || w;
}

/**
 * BM25 score of every text against each query, one array per query (0 where a text shares no word with it).
 * Texts are indexed once.
 */
export function lexicalScores(texts: readonly string[], queries: readonly string[]): Float64Array[] {
    const index = new MiniSearch<{ id: number; text: string }>({ fields: ['text'], processTerm: stem });
    index.addAll(texts.map((text, id) => ({ id, text })));
    return queries.map(q => {
        const out = new Float64Array(texts.length);
        for (const r of index.search(q)) out[r.id as number] = r.score;
        return out;
    });
}
