/**
 * Explained verdicts (issue 28 item 5, issue 25 item 4): an open question's failing list says which claim the
 * data contradicts and by which edge (no more "answer yes, expected yes"); the graph panel's data and the Test
 * Explorer peek carry the same lines and the span read as the answer; an override names the span it overrides.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/families.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { buildReport, failureReason } from '../../../src/core/report/index.js';
import { questionGraph } from '../../../src/core/kg/question-graph.js';
import { failureText } from '../../../src/extension/results/summary.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { ContextNode, OpenQuestion } from '../../../src/core/families/open/types.js';
import { data as world, kw, question, spec } from '../../fixtures/verify/world.js';

const nodes = [
    { id: 'Club(FC Barcelona)', label: 'FC Barcelona', type: 'Club', entity: true, ppr: 1, prize: 1, seed: true },
    { id: 'Club.city=Barcelona', label: 'Barcelona', type: 'Club.city', entity: false, ppr: 1, prize: 1, seed: false },
] as ContextNode[];
const open: OpenQuestion = {
    condition: 'none', level: 0, form: 'triplets',
    retrieval: { seeds: ['Club(FC Barcelona)'], neighbourhood: { nodes: 2, edges: 1 }, pprIterations: 1, graph: { form: 'scored', nodes, edges: [] } },
    facts: [{ head: 'Club(FC Barcelona)', relation: 'Club.city', tail: 'Club.city=Barcelona' }],
    relations: [{ name: 'Club.city', label: 'city', headType: 'Club', tailType: 'Club.city', words: ['city', 'based'] }],
    aliases: {},
};
const run = { id: 'r', spec: 'world.probe', suite: 's', started: '2026-11-27T00:00:00Z', finished: null, status: 'completed' };

describe('explained verdicts: an open question', () => {
    const q = question('Where is FC Barcelona based?', [], { kind: 'open', probe: 'club_open', open } as Partial<Question>);
    const text = 'FC Barcelona is based in the city of Madrid.';
    const v = verify(q, text, createVerifyContext(spec, world), 'm');

    it('the failing list names the contradicted claim, its span and the data\'s edge, not "answer yes, expected yes"', () => {
        assert.equal(v.correct, false);
        const d = buildReport({ run, questions: [q], answers: [{ questionId: q.id, model: 'm', sample: 0, text }], verdicts: [v] });
        const why = failureReason(d.rows[0]!);
        assert.doesNotMatch(why, /answer yes, expected yes/);
        assert.match(why, /claim "FC Barcelona is based in the city of Madrid" at 0–43 contradicted by the data's Club\(FC Barcelona\) —Club\.city→ Club\.city=Barcelona/);
        assert.match(why, /no claim supported by the data \(1 read, 0 unverifiable\)/);
    });

    it('the graph panel\'s data carries the same explanation and each claim with its span and status', () => {
        const g = questionGraph(q, v, text);
        assert.deepEqual(g.explanation, failureReason(buildReport({ run, questions: [q], answers: [{ questionId: q.id, model: 'm', sample: 0, text }], verdicts: [v] }).rows[0]!).split('; '));
        assert.deepEqual(g.claims?.map(c => [c.text, c.span, c.data]), [['FC Barcelona is based in the city of Madrid', [0, 43], 'contradicted']]);
    });

    it('the Test Explorer peek says why', () => {
        assert.match(failureText(q, v, text), /Why:\n {2}claim "FC Barcelona is based in the city of Madrid" at 0–43 contradicted/);
    });
});

describe('explained verdicts: the span read as the answer, and overrides naming it', () => {
    const q = question('Is there a movie released in 2009 directed by James Cameron?', [[kw('Director', 'name', 'James Cameron')]]);
    const text = "I'm not sure. I believe it was James Cameron.";
    const v = verify(q, text, createVerifyContext(spec, world), 'm');

    it('the graph panel shows the span read and why', () => {
        const g = questionGraph(q, v, text);
        assert.deepEqual(g.read, { span: [0, 12], text: "I'm not sure", why: v.read!.why, by: 'patterns' });
        assert.match(g.explanation!.join('; '), /answer unsure, expected yes \(read "I'm not sure" at 0–12/);
    });

    it('an override still failing names the span it overrides', () => {
        const o = { ...v, override: { by: 'ana', at: '2026-11-27', why: 'the model hedged', correct: false } };
        const d = buildReport({ run, questions: [q], answers: [{ questionId: q.id, model: 'm', sample: 0, text }], verdicts: [o] });
        assert.match(failureReason(d.rows[0]!), /overridden by ana: the model hedged \(the reader had read "I'm not sure" at 0–12\)/);
    });
});
