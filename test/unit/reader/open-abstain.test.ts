/**
 * Issue 41, cause 6 (open answers): an abstaining or only-hedging open answer is unsure (M), neither passed nor
 * failed; the JSONL report carries each claim's status and the span it was read from. (Each failed before.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/registry.js';
import { openFamily } from '../../../src/core/families/open/family.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { renderJsonl } from '../../../src/core/report/formats.js';
import { buildReport } from '../../../src/core/report/index.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { ContextNode } from '../../../src/core/families/open/types.js';
import { spec } from '../../fixtures/verify/world.js';

const nodes = [
    { id: 'Movie(Avatar)', label: 'Avatar', type: 'Movie', entity: true, ppr: 1, prize: 1, seed: true },
    { id: 'Director(James Cameron)', label: 'James Cameron', type: 'Director', entity: true, ppr: 1, prize: 1, seed: true },
    { id: 'Movie.year=2009', label: '2009', type: 'Movie.year', entity: false, ppr: 1, prize: 1, seed: false },
] as ContextNode[];
const q = {
    id: 'o1',
    probe: 'p',
    kind: 'open',
    phrasing: 'clean',
    variant: 'zero_shot',
    question: 'Explain the relationship between Avatar and James Cameron.',
    messages: [],
    gold: 'yes',
    keywords: [],
    entity: { relation: 'Movie', key: ['Avatar'] },
    source: {
        spec: 's',
        probe: { file: 's', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
        constraints: [],
        rows: [],
    },
    path: { nodes: [], edges: [] },
    open: {
        condition: 'clean',
        level: 0,
        form: 'triplets',
        retrieval: {
            seeds: [],
            neighbourhood: { nodes: 3, edges: 2 },
            pprIterations: 1,
            graph: { form: 'scored', nodes, edges: [] },
        },
        facts: [
            { head: 'Movie(Avatar)', relation: 'directed_by', tail: 'Director(James Cameron)' },
            { head: 'Movie(Avatar)', relation: 'Movie.year', tail: 'Movie.year=2009' },
        ],
        relations: [
            {
                name: 'directed_by',
                label: 'directed by',
                headType: 'Movie',
                tailType: 'Director',
                words: ['directed', 'director'],
            },
            { name: 'Movie.year', label: 'release year', headType: 'Movie', tailType: 'Movie.year', words: ['year', 'released'] },
        ],
        aliases: {},
    },
} as unknown as Question;

const parse = (text: string) => openFamily.core.parse(text, q).answer;

describe('issue 41: abstention in open answers', () => {
    it('a declining answer is unsure', () => {
        assert.equal(parse("I'm sorry, but I can't help with that."), 'unsure');
        assert.equal(
            parse("I don't have reliable information about the relationship between Avatar and James Cameron."),
            'unsure',
        );
    });
    it('an answer that only hedges is unsure', () => {
        assert.equal(
            parse("I'm not sure about this. It might have been directed by James Cameron, possibly around 2010."),
            'unsure',
        );
    });
    it('a hedge that commits is an answer', () => {
        assert.equal(parse("I'm not certain, but I believe Avatar was directed by James Cameron and released in 2009."), 'yes');
        assert.equal(parse('Avatar was directed by James Cameron and released in 2009.'), 'yes');
    });
    it('an unsure open answer is neither passed nor failed: it counts as M', () => {
        const v = verify(
            q,
            "I don't know enough about this film to say. It may have been made by James Cameron in 2012.",
            createVerifyContext(spec),
            'm',
        );
        assert.equal(v.answer, 'unsure');
    });
});

describe('issue 41: JSONL carries per-claim statuses and the spans read', () => {
    it('each claim with its status, polarity and span', () => {
        const text = 'Avatar was directed by James Cameron. Avatar came out in 2009, not 2012.';
        const v = verify(q, text, createVerifyContext(spec), 'm');
        const run = { id: 'r', spec: 's', suite: 's', started: '2026-11-28T00:00:00Z', finished: null, status: 'completed' };
        const line = JSON.parse(
            renderJsonl(
                buildReport({ run, questions: [q], answers: [{ questionId: q.id, model: 'm', sample: 0, text }], verdicts: [v] }),
            ).split('\n')[0]!,
        );
        const claims = line.verdict.claims as { status: string; span: [number, number]; text: string }[];
        assert.ok(claims.length >= 2, JSON.stringify(line.verdict));
        assert.equal(claims[0]!.status, 'supported');
        assert.equal(text.slice(...claims[0]!.span), claims[0]!.text);
    });
});
