/**
 * Short answers compared as SQuAD does (lower case, punctuation and articles dropped, white space folded), and the
 * places an answer occurs in a passage (whole words, any case, typographic quotes ignored).
 */
import { partOfLongerName } from '../../reader/index.js';

/** SQuAD-style normalisation of an answer. */
export function normalise(s: string): string {
    return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
        .replace(/[\u2018\u2019\u201c\u201d"'`]/g, '').replace(/[^\p{L}\p{N}\s]/gu, ' ')
        .replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The answer without wrapping quotes (datasets often write “Squid Game”). */
export function unquote(s: string): string {
    return s.trim().replace(/^["'\u201c\u201d\u2018\u2019]+|["'\u201c\u201d\u2018\u2019.]+$/g, '').trim();
}

export function exactMatch(prediction: string, golds: readonly string[]): boolean {
    const p = normalise(prediction);
    return golds.some(g => normalise(g) === p);
}

export function tokenF1(prediction: string, golds: readonly string[]): number {
    const p = normalise(prediction).split(' ').filter(Boolean);
    let best = 0;
    for (const g of golds) {
        const t = normalise(g).split(' ').filter(Boolean);
        if (p.length === 0 || t.length === 0) { best = Math.max(best, p.length === t.length ? 1 : 0); continue; }
        const counts = new Map<string, number>();
        for (const w of t) counts.set(w, (counts.get(w) ?? 0) + 1);
        let same = 0;
        for (const w of p) { const c = counts.get(w) ?? 0; if (c > 0) { same++; counts.set(w, c - 1); } }
        if (same === 0) continue;
        const precision = same / p.length, recall = same / t.length;
        best = Math.max(best, (2 * precision * recall) / (precision + recall));
    }
    return best;
}

/**
 * The answer is stated in the prediction: an exact match, or the normalised answer as whole words inside it.
 * A one-word form that is part of a longer form of the list (a name part: "James" of "James Harden") counts
 * only where it is not one word of a longer written name ("LeBron James" names someone else).
 */
export function states(prediction: string, golds: readonly string[]): boolean {
    const p = ` ${normalise(prediction)} `;
    const forms = golds.map(normalise).filter(n => n.length > 0);
    return forms.some(n => {
        if (!p.includes(` ${n} `)) return false;
        const part = !n.includes(' ') && forms.some(o => o !== n && ` ${o} `.includes(` ${n} `));
        return !part || occurrences(prediction, [n]).some(([a, b]) => !partOfLongerName(prediction, a, b));
    });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole-word patterns, compiled once per form (a run asks about the same answers many times). */
const patterns = new Map<string, RegExp>();
function wordPattern(form: string): RegExp {
    let re = patterns.get(form);
    if (!re) {
        if (patterns.size > 50_000) patterns.clear();
        re = new RegExp(`(?<![\\p{L}\\p{N}])${escape(form)}(?![\\p{L}\\p{N}])`, 'giu');
        patterns.set(form, re);
    }
    return re;
}

/** Where any of `forms` occurs in `text` as whole words (case-insensitive), longest form first, non-overlapping. */
export function occurrences(text: string, forms: readonly string[]): [number, number][] {
    const out: [number, number][] = [];
    const sorted = [...new Set(forms.map(unquote).filter(f => f.length > 0))].sort((a, b) => b.length - a.length);
    for (const f of sorted) {
        for (const m of text.matchAll(wordPattern(f))) {
            const span: [number, number] = [m.index, m.index + m[0].length];
            if (!out.some(([a, b]) => a < span[1] && span[0] < b)) out.push(span);
        }
    }
    return out.sort((a, b) => a[0] - b[0]);
}
