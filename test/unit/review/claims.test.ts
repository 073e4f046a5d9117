// For open answers, each claim's status (issue 34, item 2): a review marks each claim the data check read by a digit —
// supported, contradicted, unverifiable, unmarked in turn — the panel's view and the terminal's words say the marks,
// and the label stores them (and `store copy` carries them).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewSample, ReviewRound } from '../../../src/core/review/index.js';
import { outcomeText, reviewView } from '../../../src/core/report/index.js';
import { copyStore, openStore } from '../../../src/core/store/index.js';
import { sqliteEngine } from '../../support/stores.js';
import { fillReviewRun } from '../../support/review-run.js';

const engine = sqliteEngine();
after(() => engine.stop());

test('the claims of an open answer are marked by digit, shown with their marks, stored with the label and copied', async () => {
    const { store, where } = await engine.fresh();
    let target: Awaited<ReturnType<typeof openStore>> | undefined,
        closed = false;
    try {
        const runId = await fillReviewRun(store);
        // One answer read as three claims by the data check (as the open family scores them).
        const results = (await store.loadRunResults(runId))!;
        const v = results.verdicts[0]!;
        await store.saveVerdicts(runId, [
            {
                ...v,
                claims: [
                    { status: 'supported', text: 'It is Movie.' },
                    { status: 'contradicted', text: 'It came out in 1990.' },
                    { status: 'unverifiable', text: 'It was loved.' },
                ],
            },
        ]);
        const round = new ReviewRound(
            await reviewSample(store, runId, { reviewer: 'ann', seed: 1 }),
            'ann',
            undefined,
            v.questionId,
        );
        assert.equal(round.current!.verdict.questionId, v.questionId);
        const slot = reviewView(round).item!.slot;
        assert.deepEqual(reviewView(round).item!.claims, [
            { key: '1', text: 'It is Movie.', mark: 'unmarked', action: 'claim-1' },
            { key: '2', text: 'It came out in 1990.', mark: 'unmarked', action: 'claim-2' },
            { key: '3', text: 'It was loved.', mark: 'unmarked', action: 'claim-3' },
        ]);
        // 1 once: supported; 2 twice: contradicted; 3 four times: round to unmarked again; 5: no such claim.
        const one = await round.act(store, 'claim-1', slot);
        assert.equal(outcomeText(one, round), 'Claim 1 marked supported (stored with the label).');
        await round.act(store, 'claim-2', slot);
        await round.act(store, 'claim-2', slot);
        for (let i = 0; i < 4; i++) await round.act(store, 'claim-3', slot);
        assert.equal(outcomeText(await round.act(store, 'claim-5', slot), round), 'This answer has no claim 5.');
        assert.deepEqual(
            reviewView(round).item!.claims!.map(c => c.mark),
            ['supported', 'contradicted', 'unmarked'],
        );
        assert.deepEqual(await store.labels(runId), [], 'a mark alone stores nothing');
        const labelled = await round.act(store, 'fail', slot);
        assert.match(outcomeText(labelled, round), /^Labelled fail\. Claims marked: 1 supported, 2 contradicted\. /);
        const stored = await store.labels(runId);
        assert.deepEqual(
            stored.map(l => [l.questionId, l.label, l.claims]),
            [
                [
                    v.questionId,
                    'fail',
                    [
                        { index: 0, status: 'supported' },
                        { index: 1, status: 'contradicted' },
                    ],
                ],
            ],
        );
        // The next answer (no claims) starts unmarked and shows none; undo takes the label and its marks back.
        assert.equal(reviewView(round).item!.claims, undefined);
        await round.act(store, 'undo');
        assert.deepEqual(
            reviewView(round).item!.claims!.map(c => c.mark),
            ['unmarked', 'unmarked', 'unmarked'],
        );
        await round.act(store, 'claim-3', slot);
        await round.act(store, 'agree', slot);
        assert.deepEqual(
            (await store.labels(runId)).map(l => l.claims),
            [[{ index: 2, status: 'supported' }]],
        );
        // store copy carries the marks.
        await store.close();
        closed = true;
        const copy = `${where}-copy.db`;
        await copyStore(where, copy);
        target = await openStore(copy);
        assert.deepEqual(
            (await target.labels(runId)).map(l => l.claims),
            [[{ index: 2, status: 'supported' }]],
        );
    } finally {
        if (!closed) await store.close();
        await target?.close();
    }
});
