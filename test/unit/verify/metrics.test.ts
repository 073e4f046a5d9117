import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeMetrics, wilson } from '../../../src/core/verify/metrics.js';
import { cohensKappa, runJudge, sampleVerdicts } from '../../../src/core/verify/judge.js';
import { applyOverrides } from '../../../src/core/verify/overrides.js';
import type { Question } from '../../../src/core/probes/question.js';
import type { AnswerClass, Verdict } from '../../../src/core/verify/types.js';
import { kw, question } from '../../fixtures/verify/world.js';

const close = (a: number | null, b: number, eps = 1e-9) => assert.ok(a !== null && Math.abs(a - b) < eps, `${a} ≠ ${b}`);

/** A verdict with hop presence given per hop: 'f' found, 'm' missing, 'c' contradicted (keyword also written). */
function verdict(q: Question, answer: AnswerClass, correct: boolean, hops: string, model = 'm'): Verdict {
    return {
        questionId: q.id,
        model,
        sample: 0,
        answer,
        correct,
        rationale: [...hops].every(h => h === 'f'),
        rationaleText: '',
        hops: [...hops].map((h, i) => ({
            hop: i + 1,
            status: h === 'f' ? 'found' : h === 'm' ? 'missing' : 'contradicted',
            keywords: [
                {
                    relation: 'R',
                    attribute: 'a',
                    value: 'v',
                    status: h === 'f' ? 'found' : h === 'm' ? 'missing' : 'contradicted',
                    spans: h === 'm' ? [] : [{ start: 0, end: 1 }],
                },
            ],
        })),
    };
}

describe('Wilson interval', () => {
    it('matches published values', () => {
        // Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/10 → 0–0.2775.
        const a = wilson(81, 263)!;
        close(a[0], 0.2553, 5e-5);
        close(a[1], 0.3662, 5e-5);
        const b = wilson(15, 148)!;
        close(b[0], 0.0624, 5e-5);
        close(b[1], 0.1605, 5e-5);
        const c = wilson(0, 10)!;
        close(c[0], 0, 1e-12);
        close(c[1], 0.2775, 5e-5);
        const d = wilson(10, 10)!;
        close(d[0], 0.7225, 5e-5);
        close(d[1], 1, 1e-12);
        assert.equal(wilson(0, 0), null);
    });
});

describe('binary metrics (METHODS.md §1)', () => {
    // 10 questions: 6 correct (5 with keywords), 1 unsure (keyword written anyway), 1 unparseable, 2 wrong (1 with keyword).
    const qs = Array.from({ length: 10 }, () => question('Q?', [[kw('R', 'a', 'v')]]));
    const vs = [
        verdict(qs[0]!, 'yes', true, 'f'),
        verdict(qs[1]!, 'yes', true, 'f'),
        verdict(qs[2]!, 'yes', true, 'f'),
        verdict(qs[3]!, 'yes', true, 'f'),
        verdict(qs[4]!, 'yes', true, 'c'),
        verdict(qs[5]!, 'yes', true, 'm'),
        verdict(qs[6]!, 'unsure', false, 'f'),
        verdict(qs[7]!, 'unparseable', false, 'm'),
        verdict(qs[8]!, 'no', false, 'f'),
        verdict(qs[9]!, 'no', false, 'm'),
    ];
    const [g] = computeMetrics(qs, vs);

    it('A, R (over all responses, unsure included), AR, M, H = 1 − A − M, C', () => {
        assert.equal(g!.n, 10);
        close(g!.A, 0.6);
        close(g!.R, 0.7); // written: 4 found + 1 contradicted-but-written + the unsure one + the wrong one
        close(g!.AR, 0.5);
        close(g!.M, 0.2);
        close(g!.H, 0.2);
        close(g!.C, 0.1);
        assert.deepEqual(g!.counts, {
            correct: 6,
            present: 7,
            correctPresent: 5,
            unsure: 1,
            unparseable: 1,
            contradicted: 1,
            hallucinated: 2,
        });
        assert.deepEqual(g!.ci.H, wilson(2, 10));
    });

    it('overrides replace the verifier before counting', () => {
        const over = applyOverrides(vs, [
            {
                run: 'r',
                questionId: qs[8]!.id,
                model: 'm',
                sample: 0,
                correct: true,
                by: 'ann',
                at: '2026-01-01',
                why: 'gold is outdated',
            },
        ]);
        const [h] = computeMetrics(qs, over);
        close(h!.A, 0.7);
        close(h!.H, 0.1);
        assert.equal(h!.overrides, 1);
        assert.equal(vs[8]!.override, undefined, 'the original verdicts are untouched');
    });

    it('an unsure answer overridden to correct leaves M, and H stays 1 − A − M with its interval', () => {
        const over = applyOverrides(vs, [
            {
                run: 'r',
                questionId: qs[6]!.id,
                model: 'm',
                sample: 0,
                correct: true,
                by: 'ann',
                at: '2026-01-01',
                why: 'the hedge names the right film',
            },
        ]);
        const [h] = computeMetrics(qs, over);
        close(h!.A, 0.7);
        close(h!.M, 0.1);
        close(h!.H, 0.2);
        assert.deepEqual(h!.ci.H, wilson(2, 10));
    });
});

describe('evaluation modes from knowledge probes', () => {
    const entities = Array.from({ length: 25 }, (_, i) => ({ relation: 'Movie', key: [`m${i}`] }));
    const knows = entities.map(e => question('Do you know?', [], { kind: 'knows', probe: 'k', entity: e }));
    const qs = entities.map(e => question('Q?', [[kw('R', 'a', 'v')]], { entity: e }));
    const knowsVerdict = (q: Question, model: string, known: boolean): Verdict => ({
        ...verdict(q, known ? 'yes' : 'no', known, ''),
        model,
        known,
    });
    const verdicts = [
        // model a knows 22 entities, model b knows 21 (the first 21): all know 21.
        ...knows.map((q, i) => knowsVerdict(q, 'a', i < 22)),
        ...knows.map((q, i) => knowsVerdict(q, 'b', i < 21)),
        ...qs.map((q, i) => verdict(q, 'yes', i % 2 === 0, 'f', 'a')),
        ...qs.map(q => verdict(q, 'yes', true, 'f', 'b')),
    ];
    const groups = computeMetrics([...knows, ...qs], verdicts);
    const pick = (model: string, mode: string) => groups.find(g => g.model === model && g.mode === mode)!;

    it('each model on what it knows, all models on what all know, all questions', () => {
        assert.equal(pick('a', 'all').n, 25);
        assert.equal(pick('a', 'known').n, 22);
        assert.equal(pick('a', 'all_known').n, 21);
        close(pick('a', 'known').A, 11 / 22);
        close(pick('a', 'all_known').A, 11 / 21);
        assert.equal(pick('b', 'known').n, 21);
    });

    it('fewer than 20 known entities → n/a', () => {
        const few = computeMetrics([...knows, ...qs], verdicts, { minKnown: 22 });
        assert.equal(few.find(g => g.model === 'b' && g.mode === 'known')!.na?.startsWith('n/a'), true);
        assert.equal(few.find(g => g.model === 'a' && g.mode === 'known')!.na, undefined);
        assert.match(few.find(g => g.mode === 'all_known')!.na!, /all models know 21/);
    });
});

describe('knowledge verdicts: all must pass, n/a for a model without any, coverage named', () => {
    const entities = Array.from({ length: 25 }, (_, i) => ({ relation: 'Movie', key: [`m${i}`] }));
    // Two knowledge questions per entity (one per attribute, as in the MC knowledge probe).
    const director = entities.map(e =>
        question('Is it directed by …?', [], { kind: 'knows', probe: 'k', phrasing: 'ask1', entity: e }),
    );
    const country = entities.map(e =>
        question('Is it produced in …?', [], { kind: 'knows', probe: 'k', phrasing: 'ask2', entity: e }),
    );
    const qs = entities.map(e => question('Q?', [[kw('R', 'a', 'v')]], { entity: e }));
    const knowsVerdict = (q: Question, model: string, known: boolean): Verdict => ({
        ...verdict(q, known ? 'yes' : 'no', known, ''),
        model,
        known,
    });
    const verdicts = [
        // model a: every director question passes, the country question fails for entities 0–2 → 22 known.
        ...director.map(q => knowsVerdict(q, 'a', true)),
        ...country.map((q, i) => knowsVerdict(q, 'a', i >= 3)),
        // model c was never asked the knowledge probe.
        ...qs.map(q => verdict(q, 'yes', true, 'f', 'a')),
        ...qs.map(q => verdict(q, 'yes', true, 'f', 'c')),
    ];
    const groups = computeMetrics([...director, ...country, ...qs], verdicts);
    const pick = (model: string, mode: string) => groups.find(g => g.model === model && g.mode === mode);

    it('an entity is known only when every one of its knowledge questions passes', () => {
        assert.equal(pick('a', 'known')!.n, 22);
    });

    it('a model without knowledge verdicts is n/a in both knowledge modes, never dropped', () => {
        assert.equal(pick('c', 'all')!.n, 25);
        assert.match(pick('c', 'known')!.na!, /c has no knowledge verdicts/);
        assert.match(pick('c', 'all_known')!.na!, /covers a/);
    });

    it('"entities all models know" names the models it covers', () => {
        assert.deepEqual(pick('a', 'all_known')!.covers, ['a']);
        assert.equal(pick('a', 'all_known')!.n, 22);
    });
});

describe('paths: R-ext, AR-ext per hop, snowball conditionals', () => {
    const qs = Array.from({ length: 4 }, () => question('Q?', [[kw('R', 'a', 'v')], [kw('S', 'b', 'w')]], { kind: 'path' }));
    const vs = [
        verdict(qs[0]!, 'yes', true, 'ff'),
        verdict(qs[1]!, 'yes', true, 'fm'),
        verdict(qs[2]!, 'no', false, 'mf'),
        verdict(qs[3]!, 'no', false, 'mm'),
    ];
    const [g] = computeMetrics(qs, vs);
    it('hand-computed', () => {
        close(g!.R, 0.25);
        close(g!.rExt!.value, (1 + 0.5 + 0.5 + 0) / 4);
        close(g!.hops![0]!.r.value, 0.5);
        close(g!.hops![0]!.ar.value, 0.5);
        close(g!.hops![1]!.ar.value, 0.25);
        // Two cases each: too few for a snowball conditional (n/a below 4).
        assert.equal(g!.hops![1]!.givenPrevious!.value, null);
        assert.equal(g!.hops![1]!.givenPrevious!.n, 2);
        assert.equal(g!.hops![1]!.givenNotPrevious!.value, null);
    });

    it('snowball P(r2 | r1), P(r2 | ¬r1) from 4 cases on', () => {
        const more = Array.from({ length: 8 }, () =>
            question('Q?', [[kw('R', 'a', 'v')], [kw('S', 'b', 'w')]], { kind: 'path' }),
        );
        const hops = ['ff', 'ff', 'ff', 'fm', 'mf', 'mm', 'mm', 'mm'];
        const [m] = computeMetrics(
            more,
            more.map((q, i) => verdict(q, 'yes', true, hops[i]!)),
        );
        close(m!.hops![1]!.givenPrevious!.value, 3 / 4);
        close(m!.hops![1]!.givenNotPrevious!.value, 1 / 4);
    });
});

describe('paths with a hop that does not exist (a city that never hosted)', () => {
    // Two 3-hop questions and two whose third hop is empty (2 keyword lists): the missing hop is no keyword.
    const full = Array.from({ length: 2 }, () =>
        question('Q?', [[kw('C', 'club', 'c')], [kw('T', 'city', 't')], [kw('T', 'years', '1992')]], { kind: 'path' }),
    );
    const short = Array.from({ length: 2 }, () =>
        question('Q?', [[kw('C', 'club', 'c')], [kw('T', 'city', 't')]], { kind: 'path' }),
    );
    const vs = [
        verdict(full[0]!, 'yes', true, 'fff'),
        verdict(full[1]!, 'yes', false, 'mmf'),
        verdict(short[0]!, 'no', true, 'mf'),
        verdict(short[1]!, 'no', true, 'ff'),
    ];

    it('R-ext divides by the hops a question has; per-hop R and AR-ext count the questions that have the hop', () => {
        const [g] = computeMetrics([...full, ...short], vs);
        close(g!.rExt!.value, (1 + 1 / 3 + 1 / 2 + 1) / 4);
        close(g!.hops![2]!.r.value, 1);
        assert.equal(g!.hops![2]!.r.n, 2);
        close(g!.hops![2]!.ar.value, 1 / 2);
        // hops 1 and 2 exist everywhere: AR-ext over all four.
        close(g!.hops![0]!.ar.value, 2 / 4);
        close(g!.hops![1]!.ar.value, 3 / 4);
    });

    it("ar_ext complete (the authors' Soccer & Olympic rule): every hop over the questions whose path is complete", () => {
        const withSetting = [...full, ...short].map(q => ({ ...q, pathScoring: { arExt: 'complete' as const } }));
        const [g] = computeMetrics(withSetting, vs);
        assert.deepEqual(
            g!.hops!.map(h => h.ar.n),
            [2, 2, 2],
        );
        close(g!.hops![0]!.ar.value, 1 / 2);
        close(g!.hops![1]!.ar.value, 1 / 2);
        close(g!.hops![2]!.ar.value, 1 / 2);
    });
});

describe('choice: per stem, mean over stems, error rates', () => {
    const stems = ['stem-1', 'stem-2', 'stem-3'];
    const qs = stems.flatMap(s =>
        Array.from({ length: 4 }, () =>
            question('Q?', [[kw('R', 'a', 'v')]], { kind: 'choice', phrasing: s, gold: 1, options: ['a', 'b'] }),
        ),
    );
    const answers: [AnswerClass, boolean][] = [
        ['option', true],
        ['option', false],
        ['multiple', false],
        ['binding', false],
    ];
    const vs = qs.map((q, i) => verdict(q, answers[i % 4]![0], i < 4 ? true : answers[i % 4]![1], 'f'));
    const groups = computeMetrics(qs, vs);
    it('mean over the three stems and multiple / binding rates', () => {
        const mean = groups.find(g => g.phrasing === 'mean')!;
        close(mean.A, (1 + 0.25 + 0.25) / 3);
        close(mean.multiple!.value, 0.25);
        close(mean.binding!.value, 0.25);
        assert.equal(mean.n, 12);
    });
});

describe('LLM judge agreement', () => {
    it("Cohen's kappa on known tables", () => {
        // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → po .7, pe .5 → kappa .4 (Wikipedia example).
        const pairs: [boolean, boolean][] = [
            ...Array(20).fill([true, true]),
            ...Array(5).fill([true, false]),
            ...Array(10).fill([false, true]),
            ...Array(15).fill([false, false]),
        ];
        close(cohensKappa(pairs), 0.4);
        close(
            cohensKappa([
                [true, true],
                [false, false],
            ]),
            1,
        );
        assert.equal(cohensKappa([]), null);
    });

    it('runs on a deterministic sample through a client function and labels itself', async () => {
        const qs = Array.from({ length: 6 }, () => question('Q?', [[kw('R', 'a', 'Avatar')]]));
        const vs = qs.map((q, i) => verdict(q, 'yes', true, i < 3 ? 'f' : 'm'));
        const sample = sampleVerdicts(vs, 4, 7);
        assert.deepEqual(
            sample.map(v => v.questionId),
            sampleVerdicts(vs, 4, 7).map(v => v.questionId),
        );
        const seen: string[] = [];
        const result = await runJudge(
            async messages => {
                seen.push(messages[1]!.content);
                return seen.length % 2 ? 'Yes, it names Avatar.' : 'No.';
            },
            new Map(qs.map(q => [q.id, q])),
            sample.map(verdict => ({ verdict, response: 'It is "Avatar".' })),
        );
        assert.equal(result.label, 'LLM judge');
        assert.equal(result.n, 4);
        assert.match(seen[0]!, /"Avatar"/);
        assert.ok(result.agreement !== null && result.agreement >= 0 && result.agreement <= 1);
    });
});
