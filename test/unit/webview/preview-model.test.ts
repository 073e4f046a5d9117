import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    visibleWindow,
    rowWindow,
    rowOffsets,
    wrappedLines,
    filterRows,
    formatKeywords,
    formatForecast,
    columnWidths,
} from '../../../webview/preview/model.js';
import type { PreviewRow } from '../../../src/protocol/webview.js';

const row = (i: number, probe = 'movie_binary', gold = 'yes'): PreviewRow => ({
    id: `q${i}`,
    probe,
    kind: 'binary',
    phrasing: gold === 'yes' ? 'basic' : 'negated',
    question: `Is movie ${i} directed by Cameron?`,
    gold,
    keywords: [[`Title ${i}`]],
    tokens: 40,
});

describe('preview view-model', () => {
    it('sizes the probe, phrasing and gold columns to their longest value (no "movie_…" / "neg…")', () => {
        const rows = [
            { probe: 'movie_binary', phrasing: 'negated', gold: 'no' },
            { probe: 'x', phrasing: 'is_there', gold: 'option 3 (Directed by James Cameron.)' },
        ];
        assert.deepEqual(columnWidths(rows), { probe: 12, phrasing: 8, gold: 32 });
        assert.deepEqual(columnWidths([]), { probe: 5, phrasing: 8, gold: 4 });
    });

    it('renders only the visible rows of 100,000 plus overscan', () => {
        const w = visibleWindow(2_000_000, 600, 24, 100_000, 5);
        assert.equal(w.totalHeight, 2_400_000);
        assert.equal(w.first, Math.floor(2_000_000 / 24) - 5);
        assert.equal(w.last, Math.ceil((2_000_000 + 600) / 24) + 5);
        assert.equal(w.offsetTop, w.first * 24);
        assert.ok(w.last - w.first < 50);
    });

    it('clamps the window at both ends and handles an empty table', () => {
        assert.deepEqual(visibleWindow(-50, 240, 24, 100, 2), { first: 0, last: 12, offsetTop: 0, totalHeight: 2400 });
        const end = visibleWindow(1e9, 240, 24, 100, 2);
        assert.equal(end.last, 100);
        assert.equal(end.first, 100 - 10 - 2);
        assert.deepEqual(visibleWindow(0, 240, 24, 0), { first: 0, last: 0, offsetTop: 0, totalHeight: 0 });
    });

    it('wraps a question as the browser does: greedy at spaces, a word wider than the line broken (issue 36 item 5)', () => {
        const px = (s: string) => s.length * 10;
        assert.equal(wrappedLines('Is there a movie', 1000, px), 1);
        // "Is there" = 80 px, "a movie" = 70 px in 100 px lines.
        assert.equal(wrappedLines('Is there a movie', 100, px), 2);
        assert.equal(wrappedLines('Is there a movie', 80, px), 2);
        assert.equal(wrappedLines('Is there a movie', 79, px), 3);
        // 25 characters (250 px) in 100 px lines: three lines, the rest (50 px) then takes " x".
        assert.equal(wrappedLines('aaaaaaaaaaaaaaaaaaaaaaaaa x', 100, px), 3);
        assert.equal(wrappedLines('', 100, px), 1);
    });

    it('finds the rows in view when rows differ in height', () => {
        const heights = Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? 64 : 28));
        const offsets = rowOffsets(heights);
        assert.equal(
            offsets[1000],
            heights.reduce((a, b) => a + b, 0),
        );
        const w = rowWindow(5000, 600, offsets, 0);
        assert.ok(offsets[w.first]! <= 5000 && offsets[w.first + 1]! > 5000, `first ${w.first}`);
        assert.ok(offsets[w.last - 1]! <= 5600 && offsets[w.last]! > 5600, `last ${w.last}`);
        assert.equal(w.offsetTop, offsets[w.first]);
        const overscan = rowWindow(5000, 600, offsets, 5);
        assert.deepEqual([overscan.first, overscan.last], [w.first - 5, w.last + 5]);
        // Clamped at the end, and an empty table.
        assert.equal(rowWindow(1e9, 600, offsets, 2).last, 1000);
        assert.deepEqual(rowWindow(0, 600, rowOffsets([])), { first: 0, last: 0, offsetTop: 0, totalHeight: 0 });
        // Uniform rows give the uniform window.
        const uniform = rowOffsets(new Array(100_000).fill(24));
        assert.deepEqual(rowWindow(2_000_000, 600, uniform, 5), visibleWindow(2_000_000, 600, 24, 100_000, 5));
    });

    it('filters by words and by field', () => {
        const rows = [row(1), row(2, 'director_decade', 'no'), row(3, 'movie_binary', 'no')];
        assert.deepEqual(filterRows(rows, ''), [0, 1, 2]);
        assert.deepEqual(filterRows(rows, 'gold:no'), [1, 2]);
        assert.deepEqual(filterRows(rows, 'probe:movie_binary gold:no'), [2]);
        assert.deepEqual(filterRows(rows, 'TITLE 2'), [1]);
        assert.deepEqual(filterRows(rows, 'nothing-like-this'), []);
    });

    it('formats keywords per hop and costs', () => {
        assert.equal(formatKeywords([['James Cameron'], ['1954', '1950s']]), 'James Cameron | 1954, 1950s');
        assert.equal(
            formatForecast({ model: 'gpt', questions: 3, inputTokens: 1200, outputTokens: 90, cost: 0, costText: '$0' }),
            'gpt: 3 questions · 1,200 in + ~90 out tokens · $0',
        );
    });
});
