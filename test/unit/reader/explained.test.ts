/**
 * Explained verdicts (issue 28 item 5, issue 25 item 4): an open question's failing list says which claim the
 * data contradicts and by which edge (no more "answer yes, expected yes"); the graph panel's data and the Test
 * Explorer peek carry the same lines and the span read as the answer; an override names the span it overrides.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '../../../src/core/probes/registry.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { anchorResults, buildReport, failureReason, renderReport, worstExamples } from '../../../src/core/report/index.js';
import { questionGraph } from '../../../src/core/kg/question-graph.js';
import { failureText } from '../../../src/extension/results/summary.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openStore } from '../../../src/core/store/index.js';
import { runCli } from '../../support/cli.js';
import { overriddenRead } from '../../../src/core/verify/overrides.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { ContextNode, OpenQuestion } from '../../../src/core/families/open/types.js';
import { data as world, kw, question, spec } from '../../fixtures/verify/world.js';

const nodes = [
    { id: 'Club(FC Barcelona)', label: 'FC Barcelona', type: 'Club', entity: true, ppr: 1, prize: 1, seed: true },
    { id: 'Club.city=Barcelona', label: 'Barcelona', type: 'Club.city', entity: false, ppr: 1, prize: 1, seed: false },
] as ContextNode[];
const open: OpenQuestion = {
    condition: 'none',
    level: 0,
    form: 'triplets',
    retrieval: {
        seeds: ['Club(FC Barcelona)'],
        neighbourhood: { nodes: 2, edges: 1 },
        pprIterations: 1,
        graph: { form: 'scored', nodes, edges: [] },
    },
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
        const d = buildReport({
            run,
            questions: [q],
            answers: [{ questionId: q.id, model: 'm', sample: 0, text }],
            verdicts: [v],
        });
        const why = failureReason(d.rows[0]!);
        assert.doesNotMatch(why, /answer yes, expected yes/);
        assert.match(
            why,
            /claim "FC Barcelona is based in the city of Madrid" at 0–43 contradicted by the data's Club\(FC Barcelona\) —Club\.city→ Club\.city=Barcelona/,
        );
        assert.match(why, /no claim supported by the data \(1 read, 0 unverifiable\)/);
    });

    it("the graph panel's data carries the same explanation and each claim with its span and status", () => {
        const g = questionGraph(q, v, text);
        assert.deepEqual(
            g.explanation,
            failureReason(
                buildReport({ run, questions: [q], answers: [{ questionId: q.id, model: 'm', sample: 0, text }], verdicts: [v] })
                    .rows[0]!,
            ).split('; '),
        );
        assert.deepEqual(
            g.claims?.map(c => [c.text, c.span, c.data]),
            [['FC Barcelona is based in the city of Madrid', [0, 43], 'contradicted']],
        );
    });

    it('the Test Explorer peek says why', () => {
        assert.match(
            failureText(q, v, text),
            /Why:\n {2}claim "FC Barcelona is based in the city of Madrid" at 0–43 contradicted/,
        );
    });

    it("the editor hover's worst failures say why, in the failing list's words (from the run's answers)", () => {
        const answers = [{ questionId: q.id, model: 'm', sample: 0, text }];
        const group = anchorResults({ questions: [q], verdicts: [v] }, new Map()).get('probe:club_open')![0]!;
        const [worst] = worstExamples(new Map([[q.id, q]]), group.verdicts, 5, answers);
        const why = failureReason(buildReport({ run, questions: [q], answers, verdicts: [v] }).rows[0]!);
        assert.equal(worst!.line, why);
        assert.match(worst!.line, /claim "FC Barcelona is based in the city of Madrid" at 0–43 contradicted by the data's/);
    });
});

describe('explained verdicts: the span read as the answer, and overrides naming it', () => {
    const q = question('Is there a movie released in 2009 directed by James Cameron?', [
        [kw('Director', 'name', 'James Cameron')],
    ]);
    const text = "I'm not sure. I believe it was James Cameron.";
    const v = verify(q, text, createVerifyContext(spec, world), 'm');

    it('the graph panel shows the span read and why', () => {
        const g = questionGraph(q, v, text);
        assert.deepEqual(g.read, { span: [0, 12], text: "I'm not sure", why: v.read!.why, by: 'patterns' });
        assert.match(g.explanation!.join('; '), /answer unsure, expected yes \(read "I'm not sure" at 0–12/);
    });

    it("the hover's worst failures show the span read, and an override with the span it overrides", () => {
        const answers = [{ questionId: q.id, model: 'm', sample: 0, text }];
        const questions = new Map([[q.id, q]]);
        assert.match(
            worstExamples(questions, [v], 5, answers)[0]!.line,
            /^answer unsure, expected yes \(read "I'm not sure" at 0–12: /,
        );
        const overrides = [
            {
                run: 'r',
                questionId: q.id,
                model: 'm',
                sample: 0,
                correct: false,
                by: 'ana',
                at: '2026-11-27',
                why: 'the model hedged',
            },
        ];
        const group = anchorResults({ questions: [q], verdicts: [v], overrides }, new Map()).get(`probe:${q.probe}`)![0]!;
        assert.match(
            worstExamples(questions, group.verdicts, 5, answers)[0]!.line,
            /overridden by ana: the model hedged \(the reader had read "I'm not sure" at 0–12\)/,
        );
    });

    it('an override still failing names the span it overrides', () => {
        const o = { ...v, override: { by: 'ana', at: '2026-11-27', why: 'the model hedged', correct: false } };
        const d = buildReport({
            run,
            questions: [q],
            answers: [{ questionId: q.id, model: 'm', sample: 0, text }],
            verdicts: [o],
        });
        assert.match(
            failureReason(d.rows[0]!),
            /overridden by ana: the model hedged \(the reader had read "I'm not sure" at 0–12\)/,
        );
    });

    it('report --override stores the span the verdict had read; the explanation names it even after the answer is read again', async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'hp-override-span-'));
        const db = path.join(dir, 'r.db');
        try {
            const store = await openStore(db);
            const r = await store.createRun('world.probe', 's', {});
            await store.saveQuestions(r.id, [q]);
            await store.recordAnswer({
                run: r.id,
                question: q.id,
                model: 'm',
                sample: 0,
                hash: 'h',
                params: {},
                text,
                tokensIn: 1,
                tokensOut: 1,
                latencyMs: 1,
                cost: 0,
                attempts: 1,
                finishReason: 'stop',
                cached: false,
                cacheable: false,
            });
            await store.saveVerdicts(r.id, [v]);
            await store.close();
            const out = await runCli(
                'report',
                '--db',
                db,
                '--override',
                q.id,
                '--correct',
                'no',
                '--why',
                'the model hedged',
                '--by',
                'ana',
                '--format',
                'json',
            );
            assert.equal(out.code, 0, out.text);
            const s2 = await openStore(db);
            try {
                assert.deepEqual((await s2.overrides(r.id))[0]!.read, { text: "I'm not sure", span: [0, 12], by: 'patterns' });
                // A later reader reads the answer elsewhere: the override still names what it overrode.
                await s2.saveVerdicts(r.id, [{ ...v, read: { ...v.read!, text: 'I believe', span: [14, 23] } }]);
                const d = buildReport({ ...(await s2.loadRunResults(r.id))!, run }, await s2.overrides(r.id));
                assert.match(
                    failureReason(d.rows[0]!),
                    /overridden by ana: the model hedged \(the reader had read "I'm not sure" at 0–12\)/,
                );
                assert.match(renderReport(d, 'md'), /\| the model hedged \| "I'm not sure" at 0–12 \(patterns\) \|/);
                assert.match(
                    renderReport(d, 'html'),
                    /<td>the model hedged<\/td><td>&#34;I&#39;m not sure&#34; at 0–12 \(patterns\)<\/td>/,
                );
            } finally {
                await s2.close();
            }
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it("what an override keeps: the model reader's words when it decided, else the pattern reader's span", () => {
        assert.deepEqual(overriddenRead(v), { text: "I'm not sure", span: [0, 12], by: 'patterns' });
        const decided = {
            ...v,
            answer: 'yes' as const,
            modelRead: {
                model: 'gpt-4o-mini',
                answer: 'yes',
                quote: 'I believe it was James Cameron',
                span: [14, 44] as [number, number],
                patterns: 'unsure',
            },
        };
        assert.deepEqual(overriddenRead(decided), { text: 'I believe it was James Cameron', span: [14, 44], by: 'gpt-4o-mini' });
        const o = {
            ...decided,
            correct: false,
            override: { by: 'ana', at: '2026-11-27', why: 'wrong film', correct: false, read: overriddenRead(decided)! },
        };
        const d = buildReport({
            run,
            questions: [q],
            answers: [{ questionId: q.id, model: 'm', sample: 0, text }],
            verdicts: [o],
        });
        assert.match(
            failureReason(d.rows[0]!),
            /overridden by ana: wrong film \(the model reader gpt-4o-mini had read "I believe it was James Cameron" at 14–44\)/,
        );
    });
});
