// Results per spec line (CodeLens, hovers, Show Failures) come from the same engine functions as the reports.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anchorResults, worstExamples } from '../../../src/core/report/anchors.js';
import { buildReport } from '../../../src/core/report/model.js';
import { questionPassed } from '../../../src/core/verify/passed.js';
import { question, verdict } from '../../fixtures/extension/model.js';

const run = { id: 'r', spec: '/ws/movie.probe', suite: 's', started: '2026-01-01', finished: null, status: 'completed' };

describe('results per probe and FD', () => {
    const qs = ['a', 'b', 'c', 'd'].map(id => question(id, 'basic'));
    const vs = [
        verdict('a', true, 'found'),
        verdict('b', true, 'missing'),
        verdict('c', false, 'contradicted'),
        verdict('d', false, 'found', 'unsure'),
    ];

    it('computes A, R, AR, M and H = 1 − A − M on a hand-checked case', () => {
        const r = anchorResults({ questions: qs, verdicts: vs }, new Map()).get('probe:movie_binary')![0]!;
        assert.deepEqual(
            [r.metrics.n, r.metrics.A, r.metrics.R, r.metrics.AR, r.metrics.M, r.metrics.H],
            [4, 0.5, 0.5, 0.25, 0.25, 0.25],
        );
        assert.equal(r.failedRationales, 2);
        assert.equal(r.failed, 3);
    });

    it('shows the same H as the report when an unsure answer is overridden to correct', () => {
        const overrides = [
            {
                run: 'r',
                questionId: 'd',
                model: 'gpt-4o-mini',
                sample: 0,
                correct: true,
                by: 'ann',
                at: '2026-01-01',
                why: 'right film',
            },
        ];
        const lens = anchorResults({ questions: qs, verdicts: vs, overrides }, new Map()).get('probe:movie_binary')![0]!;
        const report = buildReport({ run, questions: qs, answers: [], verdicts: vs }, overrides).metrics.find(
            g => g.mode === 'all',
        )!;
        assert.equal(report.H, 0.25);
        assert.equal(lens.metrics.H, report.H, 'the CodeLens and the report agree');
        assert.equal(lens.metrics.A, report.A);
    });

    it('groups verdicts per probe, FD and model; a knowledge probe counts what the model knows', () => {
        const knows = { ...question('k', 'knows'), kind: 'knows', probe: 'know_movie', keywords: [] };
        const kv = { ...verdict('k', true, 'found'), hops: [], known: true };
        const groups = anchorResults(
            { questions: [...qs, knows], verdicts: [...vs, { ...vs[0]!, model: 'other' }, kv] },
            new Map([['movie_binary', 'movie_title']]),
        );
        assert.deepEqual([...groups.keys()], ['probe:movie_binary', 'fd:movie_title', 'probe:know_movie']);
        assert.deepEqual(
            groups.get('fd:movie_title')!.map(g => [g.model, g.metrics.n]),
            [
                ['gpt-4o-mini', 4],
                ['other', 1],
            ],
        );
        const k = groups.get('probe:know_movie')![0]!;
        assert.equal(k.metrics.n, 0);
        assert.deepEqual(k.known, { k: 1, n: 1 });
    });

    it('a knowledge probe never fails, and a question without keywords passes on its answer alone', () => {
        const knows = { ...question('k', 'basic'), kind: 'knows', keywords: [] };
        const noHops = { ...vs[1]!, correct: false, rationale: false, hops: [] };
        assert.equal(questionPassed(knows, noHops), true);
        const plain = { ...question('p', 'basic'), keywords: [] };
        assert.equal(questionPassed(plain, { ...noHops, correct: true }), true);
        assert.equal(questionPassed(plain, noHops), false);
        assert.equal(
            questionPassed(qs[1]!, { ...vs[1]!, override: { rationale: true, by: 'me', at: 'now', why: 'alias' } }),
            true,
        );
        assert.deepEqual(worstExamples(new Map([[noHops.questionId, knows]]), [noHops]), []);
    });

    it('orders the worst examples', () => {
        const byId = new Map(qs.map(q => [q.id, q]));
        assert.deepEqual(
            worstExamples(byId, vs).map(e => e.questionId),
            ['c', 'd', 'b'],
        );
        // The failing list's explanation (explainVerdict): the answer against the gold, and the conflicting value too.
        assert.match(worstExamples(byId, vs)[0]!.line, /^answer no, expected yes; hop 1: "Avatar" contradicted by "Titanic"$/);
    });
});
