import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { createVerifyContext, verify } from '../../../../src/core/verify/verify.js';
import { statementFigures, majority } from '../../../../src/core/families/statement/metrics.js';
import { SYSTEM_STATEMENT } from '../../../../src/core/families/statement/family.js';
import { loadSpec } from '../../../../src/core/spec/load.js';
import { loadData } from '../../../../src/core/data/index.js';
import { format, type TemplateValue } from '../../../../src/core/spec/template.js';
import type { Question } from '../../../../src/core/probes/question.js';
import type { LoadedData } from '../../../../src/core/data/types.js';
import type { SpecModel } from '../../../../src/core/spec/model.js';
import { prng } from '../../../../src/core/probes/sampling.js';
import { world } from '../../../fixtures/probes/world.js';

const example = path.resolve('examples/statements/statements.probe');

async function exampleQuestions() {
    const { model } = await loadSpec(example);
    const data = await loadData(model);
    return { model, data, questions: [...generateQuestions(model, data).questions] };
}

/** Scores a model that answers every statement with `answer(q)`, through the real parser and verifier. */
function figuresOf(model: SpecModel, data: LoadedData, questions: Question[], answer: (q: Question, i: number) => string) {
    const ctx = createVerifyContext(model, data);
    return statementFigures(questions.map((q, i) => ({ q, v: verify(q, answer(q, i), ctx, 'm') })));
}

const YES = 'Yes, the statement is true.';
const NO = 'No, the statement is false.';
const IDK = "I don't know.";

/** Is the statement's claim false in the data? (what every negative must be) */
function falseInData(model: SpecModel, data: LoadedData, q: Question): boolean {
    const s = q.statement!;
    const rel = model.relations.find(r => r.name === q.entity.relation)!;
    const table = data.tables.get(rel.name)!;
    const key = rel.keys[0] ?? rel.attributes.map(a => a.name);
    const rowOf = (values: string[]) => {
        for (let r = 0; r < table.rowCount; r++)
            if (key.every((a, i) => format(table.value(r, a) as TemplateValue) === values[i])) return r;
        return -1;
    };
    const show = (r: number, a: string) => format(table.value(r, a) as TemplateValue);
    const row = rowOf(q.entity.key);
    if (s.corruption === 'tail') return show(row, s.attribute) !== s.to;
    if (s.corruption === 'head') return show(rowOf(s.to.split(', ')), s.attribute) !== show(row, s.attribute);
    if (s.corruption === 'relation') return show(row, s.to) !== show(row, s.from);
    return false;
}

describe('statement probes', () => {
    it("use the paper's instruction and make one true statement plus its negatives per fact", async () => {
        const { questions } = await exampleQuestions();
        assert.ok(questions.length > 300);
        assert.equal(questions[0]!.messages[0]!.content, SYSTEM_STATEMENT);
        const byGroup = new Map<string, Question[]>();
        for (const q of questions) byGroup.set(q.group!.id, [...(byGroup.get(q.group!.id) ?? []), q]);
        for (const members of byGroup.values()) {
            assert.equal(members.filter(m => m.gold === 'yes').length, 1, 'one true statement per triple');
            assert.ok(members.filter(m => m.gold === 'no').length >= 1);
            assert.equal(new Set(members.map(m => m.question)).size, members.length, 'no statement twice');
        }
    });

    it('never emits a negative that the data says is true (the example)', async () => {
        const { model, data, questions } = await exampleQuestions();
        const negatives = questions.filter(q => q.gold === 'no');
        assert.ok(
            negatives.some(q => q.statement?.corruption === 'relation') &&
                negatives.some(q => q.statement?.corruption === 'head') &&
                negatives.some(q => q.statement?.corruption === 'tail'),
        );
        for (const q of negatives) assert.ok(falseInData(model, data, q), `${q.question} (${JSON.stringify(q.statement)})`);
    });

    it('never emits a negative that the data says is true (random data)', async () => {
        await fc.assert(
            fc.asyncProperty(
                fc.array(
                    fc.record({
                        a: fc.constantFrom('x', 'y', 'z', 'w'),
                        b: fc.constantFrom('x', 'y', 'q'),
                        n: fc.integer({ min: 1, max: 4 }),
                    }),
                    { minLength: 2, maxLength: 12 },
                ),
                fc.integer({ min: 0, max: 1000 }),
                async (rows, seed) => {
                    const csv = 'k,a,b,n\n' + rows.map((r, i) => `e${i},${r.a},${r.b},${r.n}`).join('\n') + '\n';
                    const w = await world(
                        `source s csv "t.csv"
relation T from s { k: text  a: text  b: text  n: int  key(k) }
fd T: k -> a, b, n as facts
probe p statement using facts { negatives 4  corrupt [tail, head, relation] }
suite s { probes p  sample all seed ${seed} }
`,
                        { 't.csv': csv },
                    );
                    try {
                        assert.deepEqual(
                            w.diagnostics.filter(d => d.severity === 'error'),
                            [],
                        );
                        for (const q of generateQuestions(w.model, w.data, { suite: 's' }).questions) {
                            if (q.gold === 'no')
                                assert.ok(
                                    falseInData(w.model, w.data, q),
                                    `${q.question} ${JSON.stringify(q.statement)} in\n${csv}`,
                                );
                        }
                    } finally {
                        w.dispose();
                    }
                },
            ),
            { numRuns: 40 },
        );
    });

    it('score the four reference models with the intended polarity', async () => {
        const { model, data, questions } = await exampleQuestions();
        const yes = figuresOf(model, data, questions, () => YES);
        assert.equal(yes.C.value, 0, 'always "Yes" is not correct (the published code gave 1.0)');
        assert.equal(yes.T.value, 0);
        // GraphEval §3: F' = 0 only if the negative is rejected; I don't know to a negative counts against.
        const sure = figuresOf(model, data, questions, q => (q.gold === 'yes' ? YES : IDK));
        assert.equal(sure.C.value, 0, "yes to every true statement and I don't know to every negative is not correct");
        assert.equal(sure.T.value, 1, 'but it is truthful');
        const idk = figuresOf(model, data, questions, () => IDK);
        assert.deepEqual([idk.T.value, idk.I.value, idk.C.value], [1, 0, 0]);
        const perfect = figuresOf(model, data, questions, q => (q.gold === 'yes' ? YES : NO));
        assert.deepEqual([perfect.T.value, perfect.I.value, perfect.C.value], [1, 1, 1]);
        // A coin flip: as often right as fooled, so T and C are near 0 (it never abstains, so I is 1).
        const coin = prng(7);
        const r = figuresOf(model, data, questions, () => (coin() < 0.5 ? YES : NO));
        for (const k of ['T', 'C'] as const) assert.ok(Math.abs(r[k].mean!) < 0.1, `random ${k} ${r[k].mean}`);
        assert.equal(r.I.value, 1);
        // A three-way die: F = 1/3 and F' = 2/3 (an I don't know to a negative counts against), so mean d ≈ -1/3 and C = 0.
        const die = prng(11);
        const d = figuresOf(model, data, questions, () => [YES, NO, IDK][Math.floor(die() * 3)]!);
        assert.ok(Math.abs(d.C.mean! + 1 / 3) < 0.1, `die C ${d.C.mean}`);
        assert.equal(d.C.value, 0);
        assert.equal(perfect.confusion.true.yes, perfect.triples);
        assert.equal(perfect.confusion.corrupted.no, questions.filter(q => q.gold === 'no').length);
    });

    it("take the majority of a question's samples, a tie being I don't know, and read \"don't know\" first", () => {
        assert.equal(majority(['yes', 'yes', 'no']), 'yes');
        assert.equal(majority(['yes', 'no']), 'idk');
        assert.equal(majority(['yes', 'no', 'idk']), 'idk');
        assert.equal(majority([]), 'idk');
    });
});
