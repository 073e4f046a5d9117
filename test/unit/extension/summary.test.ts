import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { metricsOf, summaryLine, ratio, failureText, worstExamples, groupResults, passed } from '../../../src/extension/results/summary.js';
import { question, verdict } from '../../fixtures/extension/model.js';

describe('result summaries', () => {
    const vs = [verdict('a', true, 'found'), verdict('b', true, 'missing'), verdict('c', false, 'contradicted'), verdict('d', false, 'found', 'unsure')];

    it('computes A, R, AR, M and H = 1 − A − M on a hand-checked case', () => {
        const m = metricsOf(vs);
        assert.deepEqual(m, { n: 4, A: 0.5, R: 0.5, AR: 0.25, M: 0.25, H: 0.25, failedRationales: 2 });
        assert.deepEqual(metricsOf([]), { n: 0, A: 0, R: 0, AR: 0, M: 0, H: 0, failedRationales: 0 });
    });

    it('formats the CodeLens line in the paper style', () => {
        assert.equal(ratio(0.85), '.85');
        assert.equal(ratio(1), '1.00');
        assert.equal(summaryLine('gpt-4o-mini', { n: 300, A: 0.85, R: 0.81, AR: 0.8, M: 0, H: 0.15, failedRationales: 45 }),
            'gpt-4o-mini · A .85 R .81 AR .80 H .15 · n 300 · 45 failed rationales');
        assert.match(summaryLine('m', { ...metricsOf(vs), failedRationales: 1 }), /1 failed rationale$/);
    });

    it('explains a failure: question, gold vs answer, keywords per hop, failed hop', () => {
        const text = failureText(question('c', 'basic'), vs[2]!);
        assert.match(text, /^Question: Is there a movie c\?/);
        assert.match(text, /Gold: yes · Answer \(gpt-4o-mini\): no ✗/);
        assert.match(text, /hop 1 contradicted\n {4}contradicted Movie\.title "Avatar" \(the rationale says "Titanic"\)/);
        assert.match(text, /Failed hop: 1 — contradicted "Avatar"/);
        assert.match(failureText(question('b', 'basic'), vs[1]!), /missing Movie\.title "Avatar"/);
    });

    it('honours overrides when deciding pass / fail', () => {
        assert.equal(passed(vs[1]!), false);
        assert.equal(passed({ ...vs[1]!, override: { rationale: true, by: 'me', at: 'now', why: 'alias' } }), true);
    });

    it('a knowledge probe never fails, and a question without keywords passes on its answer alone', () => {
        const knows = { ...question('k', 'basic'), kind: 'knows' as const, keywords: [] };
        const noHops = { ...vs[1]!, correct: false, rationale: false, hops: [] };
        assert.equal(passed(noHops, knows), true);
        assert.equal(passed({ ...noHops, correct: true }), true);
        assert.equal(passed(noHops), false);
        assert.deepEqual(worstExamples(new Map([[noHops.questionId, knows]]), [noHops]), []);
    });

    it('orders the worst examples and groups verdicts per probe, FD and model', () => {
        const qs = new Map(['a', 'b', 'c', 'd'].map(id => [id, question(id, 'basic')]));
        assert.deepEqual(worstExamples(qs, vs).map(e => e.questionId), ['c', 'd', 'b']);
        assert.match(worstExamples(qs, vs)[0]!.line, /answered no \(gold yes\) · contradicted "Avatar"/);
        const groups = groupResults(qs, [...vs, { ...vs[0]!, model: 'other' }], new Map([['movie_binary', 'movie_title']]));
        assert.deepEqual([...groups.keys()], ['probe:movie_binary', 'fd:movie_title']);
        assert.deepEqual(groups.get('fd:movie_title')!.map(g => [g.model, g.verdicts.length]), [['gpt-4o-mini', 4], ['other', 1]]);
    });
});
