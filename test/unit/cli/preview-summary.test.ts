/** preview's summary says what it counts: questions and rows per probe, rows per relation. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summary } from '../../../src/cli/commands/preview.js';

test('a 60-row file with three phrasings: 180 questions from 60 rows, not "from 180 rows"', () => {
    const probe = {
        rows: 60,
        generated: 180,
        skippedNull: 0,
        skippedViolating: 0,
        skippedDangling: 0,
        skippedCycle: 0,
        skippedInvalid: 0,
    };
    const other = { ...probe, generated: 60 };
    const stats = { ...probe, rows: 120, generated: 240, byProbe: { movie_binary: probe, know_movie: other } };
    const line = summary(
        stats,
        new Map([
            ['Movie', { rowCount: 60 }],
            ['Director', { rowCount: 1 }],
        ]),
    );
    assert.equal(
        line,
        '240 questions (movie_binary 180 from 60 rows, know_movie 60 from 60 rows); data: Movie 60 rows, Director 1 row; no rows skipped.',
    );
});
