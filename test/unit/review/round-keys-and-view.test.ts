// One review round for every face (the terminal and the editor's Review Answers panel): keys label the current answer
// at once, skip and undo walk through the round, and the panel's view and the CodeLens's trust line are the engine's
// figures (the same agreement the reports compute for the line's answers).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewSample, ReviewRound, type ReviewItem } from '../../../src/core/review/index.js';
import { anchorTrust, buildReport, reviewView, LENS_NOT_REVIEWED } from '../../../src/core/report/index.js';
import { sqliteEngine } from '../../support/stores.js';
import { fillReviewRun } from '../../support/review-run.js';

const engine = sqliteEngine();
after(() => engine.stop());

test("a round labels the shown answer at once, skips, undoes, and its view carries the engine's agreement", async () => {
    const { store } = await engine.fresh();
    try {
        const runId = await fillReviewRun(store);
        const round = new ReviewRound(await reviewSample(store, runId, { reviewer: 'ann', seed: 1 }), 'ann');
        const start = reviewView(round);
        assert.equal(start.item?.header, '1 of 6 · binary', "the header does not give the reader's class away");
        assert.match(start.item!.reader.stratum, /^binary · (pass|fail) · opening$/);
        assert.equal(start.agreement.n, 0);
        assert.match(start.agreement.text, /n\/a \(no label yet\)/);
        // The span the reader read is marked in the response as it is.
        const first = round.current!;
        assert.deepEqual(
            start.item!.answer.spans.map(s => first.response.slice(s.start, s.end)),
            [first.verdict.read!.text],
        );
        assert.deepEqual(start.keys.map(k => k.key).join(''), 'apfursz');

        const seen: ReviewItem[] = [];
        const press = async (action: Parameters<ReviewRound['act']>[1]) => {
            seen.push(round.current!);
            return round.act(store, action);
        };
        // The reader's own class of each of the first two answers, then: agree, the opposite, skip, undo (the skip), unreadable.
        const a = await press('agree');
        assert.equal(a.kind, 'labelled');
        const opposite = round.current!.verdict.correct ? 'fail' : 'pass';
        await press(opposite);
        await press('skip');
        const undone = await round.act(store, 'undo');
        assert.deepEqual(undone.kind === 'undone' ? undone.item : undefined, seen[2]);
        assert.equal(round.current, seen[2]);
        await press('unreadable');
        const view = reviewView(round, await round.act(store, 'undo'));
        assert.match(view.last!, /^Undone: r\d is unlabelled again\.$/);
        await press('unreadable');
        const labels = await store.labels(runId);
        // (Labels given in the same millisecond come back in either order.)
        assert.deepEqual(
            labels.map(l => [l.questionId, l.label]).sort(),
            [
                [seen[0]!.question.id, seen[0]!.verdict.correct ? 'pass' : 'fail'],
                [seen[1]!.question.id, opposite],
                [seen[2]!.question.id, 'unreadable'],
            ].sort(),
        );
        const after3 = reviewView(round);
        assert.deepEqual([after3.agreement.k, after3.agreement.n], [1, 3]);
        assert.match(after3.agreement.text, /^Reader agrees 0\.33 \[0\.06, 0\.79\] on 3 reviewed\.$/);
        assert.match(after3.progress, /^4 of 6 to label · 3 labelled now, 3 by ann in all \(6 answers\)$/);

        // The lens's line over the same answers: the report's trust groups (one per phrasing) summed, and A corrected.
        const results = (await store.loadRunResults(runId))!;
        const lens = anchorTrust(results, labels, new Map()).get('probe:movie_binary')!;
        assert.equal(lens.length, 1);
        const groups = buildReport({ ...results, labels }).trust.groups;
        assert.equal(groups.length, 2);
        assert.deepEqual(
            [lens[0]!.agreement.k, lens[0]!.agreement.n],
            [groups.reduce((k, g) => k + g.agreement.k, 0), groups.reduce((n, g) => n + g.agreement.n, 0)],
        );
        assert.match(
            lens[0]!.line,
            /^reader agrees 0\.33 \[0\.06, 0\.79\] on 3 reviewed · A corrected \d\.\d\d \[\d\.\d\d, \d\.\d\d\]$/,
        );
        assert.match(lens[0]!.lens, /^reader agrees \.33 \[\.06, \.79\] on 3 · A corrected \d?\.\d\d \[\d?\.\d\d, \d?\.\d\d\]$/);
        assert.equal(anchorTrust(results, [], new Map()).get('probe:movie_binary')![0]!.line, LENS_NOT_REVIEWED);
        // An FD's line sums the probes using it: here the one probe, so the same figures.
        const fd = anchorTrust(results, labels, new Map([['movie_binary', 'movie_title']])).get('fd:movie_title')!;
        assert.deepEqual([fd[0]!.agreement, fd[0]!.lens], [lens[0]!.agreement, lens[0]!.lens]);
    } finally {
        await store.close();
    }
});
