import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
    summaryLine,
    questionGroupsLine,
    ratio,
    failureText,
    runFinishedMessage,
    problemsNotice,
    batchStates,
    unverifiedRunMessage,
    unfinishedRunMessage,
} from '../../../src/extension/results/summary.js';
import { anchorResults } from '../../../src/core/report/anchors.js';
import { summarizeQuestionGroups } from '../../../src/core/verify/groups.js';
import { question, verdict } from '../../fixtures/extension/model.js';

describe('result summaries (formatting the engine figures)', () => {
    const qs = ['a', 'b', 'c', 'd'].map(id => question(id, 'basic'));
    const vs = [
        verdict('a', true, 'found'),
        verdict('b', true, 'missing'),
        verdict('c', false, 'contradicted'),
        verdict('d', false, 'found', 'unsure'),
    ];

    it('formats the CodeLens line in the paper style from the engine metrics', () => {
        assert.equal(ratio(0.85), '.85');
        assert.equal(ratio(1), '1.00');
        const r = anchorResults({ questions: qs, verdicts: vs }, new Map()).get('probe:movie_binary')![0]!;
        assert.equal(summaryLine('gpt-4o-mini', r), 'gpt-4o-mini · A .50 R .50 AR .25 H .25 · 2 of 4 rationales failed');
        assert.match(summaryLine('m', { ...r, failedRationales: 1 }), /1 of 4 rationales failed$/);
        assert.equal(questionGroupsLine(r), '');
    });

    it('names each question group\'s outcomes as its relation declares them, never "consistent" for every relation', () => {
        const members = (relation: string, outcome: string, ok: boolean | null, n: number) =>
            Array.from({ length: n }, (_, i) => ({
                group: `${relation}-${outcome}-${i}`,
                relation,
                probe: 'p',
                variant: '',
                model: 'm',
                sample: 0,
                outcome,
                ok,
                members: [],
            }));
        const groups = summarizeQuestionGroups([
            ...members('levels', 'robust', true, 5),
            ...members('levels', 'followed-corrupted', false, 3),
            ...members('twins', 'consistent', true, 4),
            ...members('twins', 'undecided', null, 1),
            ...members('statements', 'fooled', false, 2),
        ]);
        assert.equal(
            questionGroupsLine({ questionGroups: groups }),
            'Question groups: levels 5/8 robust (3 followed-corrupted), twins 4/4 consistent (1 undecided), statements 0/2 (2 fooled)',
        );
    });

    it('shows n/a for a figure the engine reports as not applying (R / AR of a statement or open probe), never .00', () => {
        const r = anchorResults({ questions: qs, verdicts: vs }, new Map()).get('probe:movie_binary')![0]!;
        const line = summaryLine('m', { ...r, metrics: { ...r.metrics, R: null, AR: null } as unknown as typeof r.metrics });
        assert.equal(line, 'm · A .50 R n/a AR n/a H .25 · 4 answers');
        assert.doesNotMatch(line, /rationales failed/);
    });

    it('ends a run with the count and the actions Show Failures and Open Report', () => {
        assert.deepEqual(runFinishedMessage(96, 360, 'suite movies', 'completed'), {
            text: 'HalluProbe: 96 of 360 answers failed · suite movies',
            actions: ['Show Failures', 'Open Report'],
        });
        assert.deepEqual(runFinishedMessage(0, 360, 'suite movies', 'failed').actions, ['Open Report']);
        assert.match(runFinishedMessage(0, 360, 'suite movies', 'failed').text, /\(failed\)$/);
    });

    it('a run that verified nothing says why and what was kept, never "0 of 0 answers failed" (issue 36 item 3)', () => {
        const dead = unverifiedRunMessage({
            label: 'suite movies',
            status: 'failed',
            run: 'r2',
            answered: 0,
            slots: 189,
            unanswered: 3,
            cause: 'local: connection: cannot reach http://127.0.0.1:9/v1: fetch failed — is the server running on that address?',
            shown: 'r1',
        });
        assert.equal(
            dead.text,
            'HalluProbe: no answers verified · suite movies (failed): 3 calls failed — local: connection: cannot reach http://127.0.0.1:9/v1: fetch failed — is the server running on that address? The figures shown stay those of run r1.',
        );
        assert.deepEqual(dead.actions, ['Resume']);
        const stopped = unverifiedRunMessage({
            label: 'suite movies',
            status: 'cancelled',
            run: 'r2',
            answered: 85,
            slots: 189,
            unanswered: 0,
        });
        assert.equal(
            stopped.text,
            'HalluProbe: run stopped · suite movies — 85 of 189 answers kept in run r2; Resume asks the other 104.',
        );
        assert.deepEqual(stopped.actions, ['Resume']);
        assert.equal(
            unfinishedRunMessage({ id: 'r3', suite: 'movies', status: 'running' }, 'movie.probe', { answered: 85, slots: 189 }),
            'HalluProbe: run r3 of movie.probe (suite movies) did not finish (the window was reloaded or closed while it ran) — 85 of 189 answers kept. Resume it?',
        );
    });

    it('a batch run: its results arriving is the news; its batches by state while it waits', () => {
        assert.equal(
            runFinishedMessage(3, 18, 'suite movies · batch', 'completed', 0, true).text,
            'HalluProbe: batch results arrived: 3 of 18 answers failed · suite movies · batch',
        );
        assert.equal(
            batchStates([
                { status: 'in_progress', requests: 50, done: 20 },
                { status: 'in_progress', requests: 30, done: 0 },
                { status: 'completed', requests: 10, done: 10 },
            ]),
            'batches: 2 in_progress (20/80), 1 completed',
        );
        assert.equal(batchStates([]), 'batches: none yet');
    });

    it('sums up several located problems in one line for the Problems panel, instead of one toast with all of them', () => {
        const at = (line: number) => ({
            file: '/ws/movie.probe',
            range: { start: { line, character: 0 }, end: { line, character: 5 } },
        });
        const problems = [1, 2, 3].map(l => ({
            severity: 'error' as const,
            code: 'syntax',
            message: `bad ${l}`,
            location: at(l),
        }));
        assert.equal(problemsNotice(problems), 'HalluProbe: 3 problems in movie.probe');
        assert.equal(problemsNotice(problems.slice(0, 1)), undefined);
        assert.equal(problemsNotice([...problems, { severity: 'error', code: 'x', message: 'no place' }]), undefined);
    });

    it('explains a failure: question, gold vs answer, keywords per hop, failed hop', () => {
        const text = failureText(question('c', 'basic'), vs[2]!);
        assert.match(text, /^Question: Is there a movie c\?/);
        assert.match(text, /Gold: yes · Answer \(gpt-4o-mini\): no ✗/);
        assert.match(text, /hop 1 contradicted\n {4}contradicted Movie\.title "Avatar" \(the rationale says "Titanic"\)/);
        assert.match(text, /Failed hop: 1 — contradicted "Avatar"/);
        assert.match(failureText(question('b', 'basic'), vs[1]!), /missing Movie\.title "Avatar"/);
    });
});
