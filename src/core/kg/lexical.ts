/**
 * Lexical relatedness of short texts to a query: BM25 (MiniSearch's BM25+) over words, English stop words dropped
 * and words cut to a crude stem ("directed", "director", "direction" → "direct"; "contests" → "contest"), so a
 * question can be matched to passages (evidence enriching) and to a graph's nodes and edges (open retrieval).
 */
import { lazyPackage } from '../lazy-package.js';
import type MiniSearch from 'minisearch';

const miniSearch = lazyPackage<typeof MiniSearch>('minisearch', () => require('minisearch'));

const STOP = new Set(
    'a an the of in on at to for from by with and or but is are was were be been has have had do does did it its this that these those what which who whom whose when where why how as than then there their they he she his her him we our you your i not no yes will would can could should may might into about after before over under between during since up down out more most less'.split(
        ' ',
    ),
);

/** A word as indexed: lower case, stop words dropped (null), common suffixes cut. */
export function stem(token: string): string | null {
    const w = token.toLowerCase();
    if (w.length < 2 || STOP.has(w)) return null;
    if (w.length <= 4) return w;
    return w.replace(/(ations?|ions?|ings?|ers?|ors?|ed|es|s)$/, '') || w;
}

/** MiniSearch's tokenizer and BM25+ parameters (its defaults): the direct path below must score as it does. */
const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/**
 * Up to this many texts are scored directly, without an index: building a MiniSearch index costs more than scoring a
 * few short passages (evidence enriching scores a handful per row). The scores are MiniSearch's, to the last bit
 * (test/unit/kg/lexical.test.ts compares them).
 */
const DIRECT = 32;

/**
 * BM25 score of every text against each query, one array per query (0 where a text shares no word with it).
 * Texts are indexed once; `via` forces a path (tests compare them).
 */
export function lexicalScores(texts: readonly string[], queries: readonly string[], via?: 'index' | 'direct'): Float64Array[] {
    if (via === 'direct' || (via === undefined && texts.length <= DIRECT)) return directScores(texts, queries);
    // The language server loads this module with the probe families and builds no index.
    const Search = miniSearch();
    const index = new Search<{ id: number; text: string }>({ fields: ['text'], processTerm: stem });
    index.addAll(texts.map((text, id) => ({ id, text })));
    return queries.map(q => {
        const out = new Float64Array(texts.length);
        for (const r of index.search(q)) out[r.id as number] = r.score;
        return out;
    });
}

/**
 * MiniSearch's BM25+ without its index: per text the counts of its stemmed words and its length (distinct raw tokens,
 * as MiniSearch counts it), the mean length as MiniSearch keeps it (a running mean); per query each word's score summed
 * in the query's order, times the number of distinct query words the text matched.
 */
function directScores(texts: readonly string[], queries: readonly string[]): Float64Array[] {
    const docs = texts.map(t => {
        const tokens = t.split(SPACE_OR_PUNCTUATION);
        const tf = new Map<string, number>();
        for (const token of tokens) {
            const w = stem(token);
            if (w) tf.set(w, (tf.get(w) ?? 0) + 1);
        }
        return { tf, length: new Set(tokens).size };
    });
    let mean = 0;
    docs.forEach((d, i) => {
        mean = (mean * i + d.length) / (i + 1);
    });
    const df = new Map<string, number>();
    for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    return queries.map(q => {
        const out = new Float64Array(texts.length);
        const matched = new Array<Set<string> | undefined>(texts.length);
        for (const token of q.split(SPACE_OR_PUNCTUATION)) {
            const w = stem(token);
            const n = w ? df.get(w) : undefined;
            if (!w || !n) continue;
            const idf = Math.log(1 + (texts.length - n + 0.5) / (n + 0.5));
            docs.forEach((d, i) => {
                const tf = d.tf.get(w);
                if (!tf) return;
                out[i] += idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * d.length) / mean)));
                (matched[i] ??= new Set()).add(w);
            });
        }
        for (let i = 0; i < out.length; i++) if (matched[i]) out[i] *= matched[i]!.size;
        return out;
    });
}
