import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { judgeQuestionGroups, summarizeQuestionGroups, registerGroupRelation } from '../../../src/core/verify/groups.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { Verdict } from '../../../src/core/verify/types.js';
import { movieWorld } from '../../fixtures/probes/world.js';

const verdict = (q: Question, answer: Verdict['answer'], model = 'm', option?: number): Verdict => ({
    questionId: q.id,
    model,
    sample: 0,
    answer,
    correct: answer === q.gold,
    rationale: false,
    rationaleText: '',
    hops: [],
    ...(option ? { option } : {}),
});

describe('question groups', () => {
    it('ties the phrasings of one row of a probe into one group', async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data).questions];
        // movie_long has one phrasing: a row of one question is no group.
        assert.ok(qs.filter(q => q.probe === 'movie_long').every(q => q.group === undefined));
        const binary = qs.filter(q => q.kind === 'binary' && q.probe !== 'movie_long');
        const byEntity = new Map<string, Set<string | undefined>>();
        const row = (q: Question) => `${q.probe}|${q.entity.key.join('|')}`;
        for (const q of binary) byEntity.set(row(q), (byEntity.get(row(q)) ?? new Set()).add(q.group?.id));
        for (const ids of byEntity.values()) assert.equal(ids.size, 1, 'one group per row');
        assert.equal(new Set(binary.map(q => q.group?.id)).size, byEntity.size, 'rows do not share groups');
        assert.ok(binary.every(q => q.group?.relation === 'twins' && q.group.role === q.phrasing));
        assert.ok(
            qs.filter(q => q.kind === 'knows').every(q => q.group === undefined),
            'one question per entity: no group',
        );
        const again = [...generateQuestions(w.model, w.data).questions];
        assert.deepEqual(
            again.map(q => q.group?.id),
            qs.map(q => q.group?.id),
            'deterministic',
        );
    });

    it('judges twins: consistent, inconsistent or undecided, and counts the decided ones', async t => {
        const w = await movieWorld();
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'movie_binary' }).questions];
        const [basic, negated] = qs as [Question, Question];
        assert.equal(basic.group!.id, negated.group!.id);
        assert.deepEqual([basic.gold, negated.gold], ['yes', 'no']);
        const one = (a: Verdict['answer'], b: Verdict['answer']) =>
            judgeQuestionGroups([basic, negated], [verdict(basic, a), verdict(negated, b)])[0]!;
        assert.deepEqual([one('yes', 'no').outcome, one('yes', 'no').ok], ['consistent', true]);
        assert.deepEqual(
            [one('no', 'yes').outcome, one('no', 'yes').ok],
            ['consistent', true],
            'consistent even when both are wrong',
        );
        assert.deepEqual([one('yes', 'yes').outcome, one('yes', 'yes').ok], ['inconsistent', false]);
        assert.deepEqual([one('yes', 'unsure').outcome, one('yes', 'unsure').ok], ['undecided', null]);
        assert.equal(
            judgeQuestionGroups([basic, negated], [verdict(basic, 'yes')]).length,
            0,
            'a group of one answer is not judged',
        );
        const all = [
            ...judgeQuestionGroups([basic, negated], [verdict(basic, 'yes'), verdict(negated, 'no')]),
            ...judgeQuestionGroups([basic, negated], [verdict(basic, 'yes', 'x'), verdict(negated, 'yes', 'x')]),
            ...judgeQuestionGroups([basic, negated], [verdict(basic, 'yes', 'y'), verdict(negated, 'unsure', 'y')]),
        ];
        const sum = summarizeQuestionGroups(all);
        assert.deepEqual(
            sum.map(s => [s.model, s.n, s.ok.k, s.ok.n]),
            [
                ['m', 1, 1, 1],
                ['x', 1, 0, 1],
                ['y', 1, 0, 0],
            ],
        );
    });

    it('takes new relations from the registry', () => {
        const q = (id: string, role: string): Question => ({
            id,
            probe: 'p',
            kind: 'binary',
            phrasing: role,
            variant: 'zero_shot',
            question: id,
            messages: [],
            gold: 'yes',
            keywords: [],
            entity: { relation: 'R', key: [id] },
            source: {
                spec: '',
                probe: { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
                constraints: [],
                rows: [],
            },
            path: { nodes: [], edges: [] },
            group: { id: 'g1', relation: 'all_yes', role },
        });
        const remove = registerGroupRelation({
            name: 'all_yes',
            title: 'every member says yes',
            outcomes: ['ok', 'not'],
            judge: ms => (ms.every(m => m.v.answer === 'yes') ? { outcome: 'ok', ok: true } : { outcome: 'not', ok: false }),
        });
        try {
            const [a, b] = [q('a', 'first'), q('b', 'second')];
            const gv = judgeQuestionGroups([a, b], [verdict(a, 'yes'), verdict(b, 'no')]);
            assert.deepEqual(
                gv.map(g => [g.relation, g.outcome, g.members.map(m => m.role)]),
                [['all_yes', 'not', ['first', 'second']]],
            );
        } finally {
            remove();
        }
        assert.throws(
            () => registerGroupRelation({ name: 'twins', title: '', outcomes: [], judge: () => ({ outcome: '', ok: null }) }),
            /already registered/,
        );
    });
});
