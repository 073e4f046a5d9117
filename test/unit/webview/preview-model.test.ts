import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { visibleWindow, filterRows, formatKeywords, formatCost, formatEstimate, columnWidths } from '../../../webview/preview/model.js';
import type { PreviewRow } from '../../../src/protocol/webview.js';

const row = (i: number, probe = 'movie_binary', gold = 'yes'): PreviewRow => ({
    id: `q${i}`, probe, kind: 'binary', phrasing: gold === 'yes' ? 'basic' : 'negated', question: `Is movie ${i} directed by Cameron?`,
    gold, keywords: [[`Title ${i}`]], tokens: 40,
});

describe('preview view-model', () => {
    it('sizes the probe, phrasing and gold columns to their longest value (no "movie_…" / "neg…")', () => {
        const rows = [{ probe: 'movie_binary', phrasing: 'negated', gold: 'no' }, { probe: 'x', phrasing: 'is_there', gold: 'option 3 (Directed by James Cameron.)' }];
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
        assert.equal(formatCost(null), 'no price');
        assert.equal(formatCost(0.004), '< $0.01');
        assert.equal(formatCost(1.234), '$1.23');
        assert.equal(formatEstimate({ model: 'gpt', questions: 3, inputTokens: 1200, outputTokens: 90, cost: 0 }), 'gpt: 3 questions · 1,200 in + ~90 out tokens · $0');
    });
});
