import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadSpec } from '../../../../src/core/spec/load.js';
import { loadData } from '../../../../src/core/data/index.js';
import { generateQuestions } from '../../../../src/core/probes/generate.js';
import { capabilityOf, coreOf } from '../../../../src/core/probes/registry.js';
import { judgeQuestionGroups } from '../../../../src/core/verify/groups.js';
import { createVerifyContext, verify } from '../../../../src/core/verify/verify.js';
import { openClaims } from '../../../../src/core/families/open/answer.js';
import { summariseClaims } from '../../../../src/core/families/open/check.js';
import type { Question } from '../../../../src/core/probes/question.js';

const fixture = path.resolve('test/fixtures/open/open.probe');

// Loaded before the tests are declared: with every unit file in one process (scripts/test.mjs), a suite
// declaring tests after an await would declare them after the run has moved on.
const { model: spec } = await loadSpec(fixture);
const data = await loadData(spec);
const generate = (probe: string) => {
    const g = generateQuestions(spec, data, { probe });
    return { questions: [...g.questions], diagnostics: g.diagnostics, stats: g.stats };
};
const open = { ...coreOf('open'), ...capabilityOf('open', 'figures')!, ...capabilityOf('open', 'simulator')! };

describe('the open family', () => {
    it('asks each pair with no context, clean, and each kind at each level, as one levels group', () => {
        const { questions, diagnostics } = generate('pair');
        assert.deepEqual(
            diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        assert.equal(questions.length, 6 * 6);
        const avatar = questions.filter(q => q.entity.key[0] === 'Avatar');
        assert.deepEqual(
            avatar.map(q => q.phrasing),
            ['none', 'clean', 'rewire-50', 'rewire-100', 'delete-50', 'delete-100'],
        );
        assert.deepEqual(
            open.phrasings(spec.probes.find(p => p.name === 'pair')!),
            avatar.map(q => q.phrasing),
        );
        assert.equal(new Set(avatar.map(q => q.group!.id)).size, 1);
        assert.ok(avatar.every(q => q.group!.relation === 'levels' && q.group!.role === q.phrasing));
        assert.equal(
            avatar[0]!.question,
            'Explain the relationship between Avatar and James Cameron and its significance.\nAnswer:',
        );
        const del = avatar.find(q => q.phrasing === 'delete-100')!;
        assert.equal(del.open!.context!.edges.length, 0);
        assert.equal(del.open!.context!.deleted!.length, del.open!.clean!.edges.length);
        // The graph panel's path is the context sent, perturbed edges named by their kind.
        const rewired = avatar.find(q => q.phrasing === 'rewire-100')!;
        assert.ok(rewired.path.edges.length > 0 && rewired.path.edges.every(e => e.label.endsWith('(rewire)')));
    });

    it('fills presets with the entity names; a baseline can be left out', () => {
        const { questions } = generate('single');
        const titanic = questions.filter(q => q.entity.key[0] === 'Titanic');
        assert.deepEqual(
            titanic.map(q => q.phrasing),
            ['clean', 'swap-100'],
        );
        assert.ok(titanic[0]!.question.startsWith('Critically assess the importance of Titanic.\nBelow are the facts'));
        assert.equal(titanic[0]!.open!.form, 'paths');
    });

    it('reports an unknown preset and a pair with no fk between them, at the probe', () => {
        assert.match(
            generate('bad_preset')
                .diagnostics.map(d => d.message)
                .join('\n'),
            /Unknown preset 'poetic'/,
        );
        const bad = generate('bad_pair').diagnostics;
        assert.equal(bad[0]!.code, 'open-pair');
        assert.match(bad[0]!.message, /No fk leads from Director to Movie/);
    });

    const avatarClean = () => generate('pair').questions.find(q => q.entity.key[0] === 'Avatar' && q.phrasing === 'clean')!;

    it("scores an answer from the facts stored with the question; the spec's aliases apply", () => {
        const q = avatarClean();
        assert.ok(q.open!.aliases['Director(James Cameron)']!.includes('Cameron'));
        const claims = openClaims(q, 'Avatar was directed by Cameron. Avatar runs 162 minutes.');
        assert.deepEqual(
            claims.map(c => c.data.label),
            ['supported', 'supported'],
        );
        const ok = verify(q, 'Avatar was directed by Cameron. Avatar runs 162 minutes.', createVerifyContext(spec, data), 'm');
        assert.equal(ok.correct, true);
        const wrong = verify(q, 'Avatar was directed by Cameron. Avatar runs 170 minutes.', createVerifyContext(spec, data), 'm');
        assert.equal(wrong.correct, false);
        assert.equal(verify(q, '', createVerifyContext(spec, data), 'm').answer, 'unparseable');
    });

    it('FActScore as the paper aggregates it: per answer, then the mean over answers with claims (issue 24, item 10)', () => {
        const q = avatarClean();
        // Two answers: 2 of 2 claims supported, and 1 of 4 — pooled 3 / 6 = 0.5, per answer (1 + 0.25) / 2 = 0.625.
        const good = 'Avatar was directed by Cameron. Avatar runs 162 minutes.';
        const poor = 'Avatar was directed by Cameron. Avatar runs 170 minutes. Avatar runs 171 minutes. Avatar runs 172 minutes.';
        const ctx = createVerifyContext(spec, data);
        const items = [good, poor, ''].map(r => ({ q, v: verify(q, r, ctx, 'm') }));
        const figures = open.extras!(items).figures!.open as {
            supported: { value: number };
            factScore: { value: number; n: number; withoutClaims: number; low: number; high: number };
        };
        assert.equal(figures.supported.value, 0.5);
        assert.equal(figures.factScore.value, 0.625);
        assert.deepEqual([figures.factScore.n, figures.factScore.withoutClaims], [2, 1]);
        assert.ok(figures.factScore.low < 0.625 && figures.factScore.high > 0.625);
    });

    it('the simulator following its context fully follows every corrupted edge, exactly', () => {
        for (const q of generate('pair').questions.filter(x => x.phrasing.startsWith('rewire'))) {
            const answer = open.answerText(q, q.gold, { follows: 1, invents: 0, seed: 1 });
            const s = summariseClaims(openClaims(q, answer));
            const perturbed = q.open!.context!.edges.filter(e => e.perturbed).length;
            assert.equal(Math.round(s.followedCorrupted * s.claims), perturbed, `${q.entity.key[0]} ${q.phrasing}: ${answer}`);
        }
    });

    it('judges the levels group: robust, or which members followed corrupted context', () => {
        const questions = generate('pair').questions.filter(q => q.entity.key[0] === 'Titanic');
        const verdictsFor = (answer: (q: Question) => string) =>
            questions.map(q => verify(q, answer(q), createVerifyContext(spec, data), 'm'));
        const follows = judgeQuestionGroups(
            questions,
            verdictsFor(q => open.answerText(q, q.gold, { follows: 1, invents: 0, seed: 1 })),
        );
        assert.equal(follows.length, 1);
        assert.equal(follows[0]!.outcome, 'followed-corrupted');
        assert.match(follows[0]!.detail!, /rewire-50, rewire-100/);
        const careful = judgeQuestionGroups(
            questions,
            verdictsFor(() => 'Titanic was directed by James Cameron.'),
        );
        assert.deepEqual([careful[0]!.outcome, careful[0]!.ok], ['robust', true]);
    });
});
