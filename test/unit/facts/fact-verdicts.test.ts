/**
 * The per-fact verdict (docs/facts.md) on 12 facts built by hand across every family, with replayed answers whose
 * classes are known: every class, the value reported for "believes another value", which families a fragile fact
 * split, the shares per model (Wilson intervals) and the family pairs' agreement.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { factVerdicts, wilson, type FactClass } from '../../../src/core/verify/index.js';
import { factRef } from '../../../src/core/probes/facts.js';
import type { FactRef, Gold, Question } from '../../../src/core/probes/question.js';
import type { Verdict } from '../../../src/core/verify/types.js';

const F = (n: number, extra: Partial<FactRef> = {}, role: FactRef['role'] = 'asked') =>
    factRef('Movie', [`Film ${n}`, '2009'], 'director', `Director ${n}`, role, extra);
type Q = Pick<Question, 'id' | 'kind' | 'gold' | 'facts'>;
const questions: Q[] = [];
const verdicts: Verdict[] = [];
let seq = 0;
/** One question of `kind` testing `facts`, answered once by model m. */
function ask(kind: string, gold: Gold, facts: FactRef[], answer: Partial<Verdict>): void {
    const id = `q${++seq}`;
    questions.push({ id, kind, gold, facts });
    verdicts.push({
        questionId: id,
        model: 'm',
        sample: 0,
        answer: 'yes',
        correct: true,
        rationale: true,
        rationaleText: '',
        hops: [],
        ...answer,
    } as Verdict);
}
const right = { answer: 'yes', correct: true } as const;
const wrong = { answer: 'no', correct: false } as const;
const contradicted = (ref: FactRef, value: string, hop = 1) => ({
    hops: [
        {
            hop,
            status: 'contradicted' as const,
            keywords: [
                {
                    relation: ref.relation,
                    attribute: ref.attribute,
                    value: ref.value,
                    status: 'contradicted' as const,
                    spans: [],
                    conflict: { value, spans: [] },
                },
            ],
        },
    ],
});
const edge = (n: number) => `Movie(Film ${n}, 2009) —directed_by→ Director(Director ${n})`;

// F1 knows: right as yes / no, as a true statement, with the data's passage.
ask('binary', 'yes', [F(1)], right);
ask('statement', 'yes', [F(1)], { answer: 'true', correct: true });
ask('evidence', { answer: 'Director 1' }, [F(1, { passage: 'given' })], { answer: 'answer', correct: true });
// F2 fragile: right as yes / no, a true statement called false, an open claim contradicting it.
ask('binary', 'yes', [F(2)], right);
ask('statement', 'yes', [F(2)], { answer: 'false', correct: false });
ask('open', 'yes', [F(2, { edge: edge(2) }, 'claim')], {
    claims: [{ status: 'contradicted', edge: edge(2), text: 'Film 2 was directed by Someone.' }],
});
// F3 believes Steven Spielberg: the falsified option (showing him) not picked, a statement showing him called true.
ask('choice', 2, [F(3, { option: 1 }), F(3, { option: 2, shown: 'Steven Spielberg' }, 'shown')], {
    answer: 'option',
    option: 1,
    correct: false,
});
ask('statement', 'no', [F(3, { shown: 'steven  spielberg.' }, 'shown')], { answer: 'true', correct: false });
ask('binary', 'yes', [F(3)], right);
// F4 yields: right closed book and as yes / no, follows a passage with the answer swapped.
ask('evidence', { answer: 'Director 4' }, [F(4, { passage: 'none' })], { answer: 'answer', correct: true });
ask('evidence', { answer: 'Someone Else' }, [F(4, { passage: 'swapped', shown: 'Someone Else' })], {
    answer: 'answer',
    correct: true,
});
ask('binary', 'yes', [F(4)], right);
// F5 abstains: unsure as yes / no, "I don't know" to the statement.
ask('binary', 'yes', [F(5)], { answer: 'unsure', correct: false });
ask('statement', 'yes', [F(5)], { answer: 'dont_know', correct: false });
// F6 not enough forms: only yes / no asked it.
ask('binary', 'yes', [F(6)], right);
// F7 does not know: wrong as yes / no (naming A) and on the path's first hop (naming B); F8 is that path's second hop,
// which a path failed at hop 1 says nothing about.
ask('binary', 'yes', [F(7)], { ...wrong, ...contradicted(F(7), 'Name A') });
ask('path', 'yes', [F(7, { hop: 1 }, 'hop'), F(8, { hop: 2 }, 'hop')], {
    ...wrong,
    ...contradicted(F(7), 'Name B'),
    failedHop: 1,
});
// F8 knows: a rule's premise stated (its hop found), an open claim supporting it. F10 is the rule's conclusion.
ask(
    'rule',
    'yes',
    [
        F(8, { hop: 1 }, 'premise'),
        factRef('same_director', ['Film 8 (2009)', 'Film 10 (2009)'], 'holds', 'true', 'conclusion', { proof: [F(8).label] }),
    ],
    { ...right, hops: [{ hop: 1, status: 'found', keywords: [] }] },
);
ask('open', 'yes', [F(8, { edge: edge(8) }, 'claim'), F(12, { edge: edge(12) }, 'claim')], {
    claims: [
        { status: 'supported', edge: edge(8) },
        { status: 'supported', edge: edge(12) },
    ],
});
// F9 fragile: a true option called the false one, right as yes / no.
ask('choice', 2, [F(9, { option: 1 }), F(11, { option: 2, shown: 'X' }, 'shown')], {
    answer: 'option',
    option: 1,
    correct: false,
});
ask('binary', 'yes', [F(9)], right);
// F11 believes Ridley Scott: the short answer says him, the yes / no rationale names him. (Its choice answer above,
// the falsified option not picked, accepted X.)
ask('evidence', { answer: 'Director 11' }, [F(11, { passage: 'given' })], {
    answer: 'answer',
    correct: false,
    read: { text: 'Ridley Scott', span: [0, 12], why: '', stance: '' },
});
ask('binary', 'yes', [F(11)], { ...wrong, ...contradicted(F(11), 'ridley scott') });
// F12 knows: the falsified option picked, the open claim above, the path's hops right.
ask('choice', 1, [F(12, { option: 1, shown: 'Y' }, 'shown')], { answer: 'option', option: 1, correct: true });
ask('path', 'yes', [F(12, { hop: 1 }, 'hop')], right);

const report = factVerdicts(questions, verdicts);
const cls = (n: number) => report.facts.find(f => f.label === F(n).label)!;

test('each of the 12 facts gets its class', () => {
    const want: Record<number, FactClass> = {
        1: 'knows',
        2: 'fragile',
        3: 'believes',
        4: 'yields',
        5: 'abstains',
        6: 'not-enough-forms',
        7: 'does-not-know',
        8: 'knows',
        9: 'fragile',
        11: 'believes',
        12: 'knows',
    };
    for (const [n, c] of Object.entries(want)) assert.equal(cls(Number(n)).class, c, `F${n}`);
    const conclusion = report.facts.find(f => f.relation === 'same_director')!;
    assert.equal(conclusion.class, 'not-enough-forms', 'F10, the derived fact, only the rule asks');
    assert.equal(report.facts.length, 12);
});

test('believes reports the wrong value and the families that gave it; fragile which families split', () => {
    // One value, whatever its case, spacing and punctuation; written as the first family (in the order kinds were
    // first seen: the statement) wrote it.
    assert.deepEqual(cls(3).believed, { value: 'steven spielberg', families: ['statement', 'choice'] });
    assert.deepEqual(cls(3).families.choice, { verdict: 'wrong', answers: 2, value: 'Steven Spielberg' });
    // The short answer's words and the rationale's name are one value (case aside); the choice's X is said once only.
    assert.deepEqual(cls(11).believed, { value: 'ridley scott', families: ['binary', 'evidence'] });
    assert.deepEqual(cls(11).families.choice, { verdict: 'wrong', answers: 1, value: 'X' });
    assert.deepEqual(cls(2).fragile, { right: ['binary'], other: ['statement', 'open'] });
    assert.deepEqual(cls(9).fragile, { right: ['binary'], other: ['choice'] });
    assert.deepEqual(cls(4).families.evidence, {
        verdict: 'right',
        value: 'Director 4',
        answers: 1,
        swapped: { answers: 1, followed: 1 },
    });
    assert.equal(cls(7).families.path!.value, 'Name B');
    assert.equal(cls(1).families.binary!.value, 'Director 1');
    assert.equal(cls(5).families.statement!.verdict, 'abstained');
});

test('per model: the share of each class with its Wilson interval', () => {
    const s = report.summary.find(x => x.model === 'm')!;
    assert.equal(s.facts, 12);
    assert.deepEqual(s.shares.knows, { k: 3, n: 12, value: 3 / 12, ci: wilson(3, 12) });
    assert.deepEqual(s.shares['not-enough-forms'], { k: 2, n: 12, value: 2 / 12, ci: wilson(2, 12) });
    for (const c of ['fragile', 'believes'] as const) assert.equal(s.shares[c].k, 2);
    for (const c of ['yields', 'abstains', 'does-not-know'] as const) assert.equal(s.shares[c].k, 1);
});

test('family pairs: how often they agree, and the family that disagrees with the others most', () => {
    const pair = (a: string, b: string) => report.pairs.find(p => p.a === a && p.b === b)?.agreement;
    // binary and statement: F1 both right, F2 and F3 split.
    assert.deepEqual(pair('binary', 'statement'), { k: 1, n: 3, value: 1 / 3, ci: wilson(1, 3) });
    // binary and evidence: F1 and F4 both right, F11 both wrong.
    assert.equal(pair('binary', 'evidence')!.k, 3);
    // binary and choice: F3 and F9 split, F11 both wrong (with other values: they still agree it is not known).
    assert.deepEqual(pair('binary', 'choice'), { k: 1, n: 3, value: 1 / 3, ci: wilson(1, 3) });
    assert.deepEqual(pair('open', 'statement'), { k: 1, n: 1, value: 1, ci: wilson(1, 1) }, 'both wrong agree');
    // Pooled: binary agrees with the others 6 times in 11 (statement 4 in 6, choice 5 in 7, the rest more often).
    assert.deepEqual(report.disagreesMost, [
        { model: 'm', kind: 'binary', agreement: { k: 6, n: 11, value: 6 / 11, ci: wilson(6, 11) } },
    ]);
});
