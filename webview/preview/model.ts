/**
 * The preview table's view-model, pure: which rows are visible (the table is virtualised so 100k rows stay
 * smooth — only the rows in the viewport plus a margin exist in the DOM) and which rows match the filter.
 */
import type { PreviewRow, ModelCostForecast } from '../../src/protocol/webview.js';

export interface Window {
    first: number;
    last: number;
    offsetTop: number;
    totalHeight: number;
}

/** Rows [first, last) to render for a viewport, with `overscan` extra rows above and below. */
export function visibleWindow(
    scrollTop: number,
    viewportHeight: number,
    rowHeight: number,
    total: number,
    overscan = 10,
): Window {
    const totalHeight = total * rowHeight;
    if (total === 0 || rowHeight <= 0) return { first: 0, last: 0, offsetTop: 0, totalHeight: 0 };
    const top = Math.max(0, Math.min(scrollTop, Math.max(0, totalHeight - viewportHeight)));
    const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
    const last = Math.min(total, Math.ceil((top + Math.max(0, viewportHeight)) / rowHeight) + overscan);
    return { first, last, offsetTop: first * rowHeight, totalHeight };
}

/**
 * Rows [first, last) to render for a viewport when rows differ in height (a question wrapped over several lines):
 * `offsets[i]` is the top of row i and `offsets[n]` the table's height (rowOffsets).
 */
export function rowWindow(scrollTop: number, viewportHeight: number, offsets: ArrayLike<number>, overscan = 10): Window {
    const total = offsets.length - 1;
    const totalHeight = total > 0 ? offsets[total]! : 0;
    if (total <= 0) return { first: 0, last: 0, offsetTop: 0, totalHeight: 0 };
    const top = Math.max(0, Math.min(scrollTop, Math.max(0, totalHeight - viewportHeight)));
    const first = Math.max(0, rowAt(offsets, top) - overscan);
    const last = Math.min(total, rowAt(offsets, top + Math.max(0, viewportHeight)) + 1 + overscan);
    return { first, last, offsetTop: offsets[first]!, totalHeight };
}

/** The row at height `y`: the last row whose top is at or above it (binary search). */
function rowAt(offsets: ArrayLike<number>, y: number): number {
    let lo = 0,
        hi = offsets.length - 2;
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (offsets[mid]! <= y) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/** Each row's top, and the total height last: offsets[i] = the sum of heights[0..i). */
export function rowOffsets(heights: ArrayLike<number>): Float64Array {
    const out = new Float64Array(heights.length + 1);
    for (let i = 0; i < heights.length; i++) out[i + 1] = out[i]! + heights[i]!;
    return out;
}

/**
 * The lines `text` takes wrapped at spaces into `width` px, as the browser wraps it (greedy, a word wider than the
 * line broken across lines); `measure` gives a string's width in px.
 */
export function wrappedLines(text: string, width: number, measure: (s: string) => number): number {
    const words = text.split(/\s+/).filter(Boolean);
    if (width <= 0 || words.length === 0) return 1;
    const space = measure(' ');
    let lines = 1,
        used = 0;
    for (const word of words) {
        const w = measure(word);
        const need = used === 0 ? w : used + space + w;
        if (need <= width) {
            used = need;
            continue;
        }
        if (used > 0) {
            lines++;
            used = 0;
        }
        if (w <= width) {
            used = w;
            continue;
        }
        // Longer than a line: it fills whole lines, and its rest starts the next.
        lines += Math.ceil(w / width) - 1;
        used = w - (Math.ceil(w / width) - 1) * width;
    }
    return lines;
}

/** The text a row is searched by: question, probe, phrasing, gold and keywords. */
export function rowText(row: PreviewRow): string {
    return `${row.question}\n${row.probe}\n${row.phrasing}\n${row.kind}\n${row.gold}\n${row.keywords.flat().join('\n')}`.toLowerCase();
}

/**
 * Indices of the rows matching every word of the filter (case-insensitive); `probe:name` and `gold:yes`
 * restrict a field. An empty filter matches all rows.
 */
export function filterRows(rows: readonly PreviewRow[], filter: string, texts?: readonly string[]): number[] {
    const terms = filter.toLowerCase().split(/\s+/).filter(Boolean);
    const out: number[] = [];
    for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const text = texts?.[i] ?? rowText(row);
        if (terms.every(t => matches(row, text, t))) out.push(i);
    }
    return out;
}

function matches(row: PreviewRow, text: string, term: string): boolean {
    const colon = term.indexOf(':');
    if (colon > 0) {
        const field = term.slice(0, colon);
        const value = term.slice(colon + 1);
        if (field === 'probe') return row.probe.toLowerCase() === value;
        if (field === 'gold') return row.gold.toLowerCase() === value;
        if (field === 'kind') return row.kind.toLowerCase() === value;
        if (field === 'phrasing') return row.phrasing.toLowerCase() === value;
    }
    return text.includes(term);
}

/** `title, year | director` — hops separated by a bar. */
export function formatKeywords(keywords: string[][]): string {
    return keywords.map(h => h.join(', ')).join(' | ');
}

export function formatForecast(e: ModelCostForecast): string {
    return `${e.model}: ${e.questions} questions · ${e.inputTokens.toLocaleString('en-US')} in + ~${e.outputTokens.toLocaleString('en-US')} out tokens · ${e.costText}`;
}

/**
 * The widths (in characters) of the short columns: as wide as their longest value, never narrower than the
 * title, at most `cap` — so "movie_binary" and "negated" show whole instead of "movie_…" and "neg…".
 */
export function columnWidths(
    rows: readonly Pick<PreviewRow, 'probe' | 'phrasing' | 'gold'>[],
    cap = 32,
): { probe: number; phrasing: number; gold: number } {
    const widest = (title: string, get: (r: Pick<PreviewRow, 'probe' | 'phrasing' | 'gold'>) => string) =>
        Math.min(
            cap,
            rows.reduce((w, r) => Math.max(w, get(r).length), title.length),
        );
    return {
        probe: widest('Probe', r => r.probe),
        phrasing: widest('Phrasing', r => r.phrasing),
        gold: widest('Gold', r => r.gold),
    };
}
