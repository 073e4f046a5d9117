// Questions without an answer are counted per probe and model in every format and in the editor's lines: a run
// stopped halfway (slots never asked) and a model whose every call failed never read as "all passed".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anchorResults } from '../../../src/core/report/anchors.js';
import { buildReport } from '../../../src/core/report/model.js';
import { renderCsv, renderJsonl, renderJunit } from '../../../src/core/report/formats.js';
import { summaryLine } from '../../../src/extension/results/summary.js';
import { question, verdict } from '../../fixtures/extension/model.js';

const qs = ['a', 'b', 'c', 'd'].map(id => question(id, 'basic'));
const settings = {
    models: [
        { name: 'gpt-4o-mini', provider: 'openai' },
        { name: 'other', provider: 'openai' },
    ],
};
const run = {
    id: 'r',
    spec: '/ws/movie.probe',
    suite: 's',
    started: '2026-01-01',
    finished: null,
    status: 'cancelled',
    settings,
};
// gpt-4o-mini answered a and b; c's call failed; d was never asked. "other" answered nothing: its calls failed.
const answers = ['a', 'b'].map(id => ({ questionId: id, model: 'gpt-4o-mini', sample: 0, text: 'Yes.' }));
const verdicts = [verdict('a', true, 'found'), verdict('b', true, 'found')];
const failures = [
    { question: 'c', model: 'gpt-4o-mini', sample: 0, error: 'HTTP 500' },
    ...qs.map(q => ({ question: q.id, model: 'other', sample: 0, error: 'HTTP 401' })),
];

describe('unanswered questions, per probe and model', () => {
    it('the report counts failed and not-answered slots; jsonl has a line for each, JUnit a property and an error', () => {
        const d = buildReport({ run, questions: qs, answers, verdicts, failures });
        assert.deepEqual(d.unanswered.map(u => [u.model, u.failed, u.notAnswered]).sort(), [
            ['gpt-4o-mini', 1, 1],
            ['other', 4, 0],
        ]);
        const lines = renderJsonl(d)
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as { status?: string; question: string; model: string });
        assert.deepEqual(
            lines
                .filter(l => l.status)
                .map(l => [l.status, l.question, l.model])
                .sort(),
            [
                ['failed', 'a', 'other'],
                ['failed', 'b', 'other'],
                ['failed', 'c', 'gpt-4o-mini'],
                ['failed', 'c', 'other'],
                ['failed', 'd', 'other'],
                ['not answered', 'd', 'gpt-4o-mini'],
            ],
        );
        const junit = renderJunit(d);
        assert.match(
            junit,
            /<testsuite name="gpt-4o-mini \/ movie_binary" tests="3" failures="0" errors="1">\s*<properties><property name="not answered yet" value="1"\/><property name="calls failed" value="1"\/>/,
        );
        assert.match(
            junit,
            /<testsuite name="other \/ movie_binary" tests="4" failures="0" errors="4">\s*<properties><property name="not answered yet" value="0"\/><property name="calls failed" value="4"\/>/,
        );
        const csv = renderCsv(d).trim().split('\n');
        // By column name (columns follow these two: the review's figures).
        const head = csv[0]!.split(',');
        assert.ok(
            csv.some(l => {
                const c = l.split(',');
                return (
                    l.startsWith('other,movie_binary,,,,,,0,no answers,') &&
                    c[head.indexOf('not_answered')] === '0' &&
                    c[head.indexOf('failed_calls')] === '4'
                );
            }),
            csv.join('\n'),
        );
    });

    it("the editor's line per probe and per FD says how many were not answered, also for a model with no answer at all", () => {
        const lines = anchorResults({ run, questions: qs, verdicts, answers }, new Map([['movie_binary', 'movie_title']]));
        for (const key of ['probe:movie_binary', 'fd:movie_title']) {
            const byModel = new Map(lines.get(key)!.map(r => [r.model, r]));
            assert.equal(byModel.get('gpt-4o-mini')!.unanswered, 2);
            assert.equal(byModel.get('other')!.unanswered, 4);
            assert.equal(byModel.get('other')!.metrics.n, 0);
        }
        const mine = lines.get('probe:movie_binary')!.find(r => r.model === 'gpt-4o-mini')!;
        assert.equal(
            summaryLine('gpt-4o-mini', mine),
            'gpt-4o-mini · A 1.00 R 1.00 AR 1.00 H .00 · 0 of 2 rationales failed · 2 not answered',
        );
        assert.equal(
            summaryLine(
                'other',
                lines.get('probe:movie_binary')!.find(r => r.model === 'other')!,
            ),
            'other · no answers · 4 not answered',
        );
    });
});
