import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { evaluate } from '../../../src/core/rules/evaluate.js';
import { stratify, NegationCycleError } from '../../../src/core/rules/strata.js';
import { Interner } from '../../../src/core/rules/interned.js';
import type { Atom, Derivation, Fact, Literal, Program, Proof, Rule, Term, Value } from '../../../src/core/rules/ir.js';

const v = (name: string): Term => ({ var: name });
const c = (value: Value): Term => ({ const: value });
const atom = (pred: string, ...args: Term[]): Atom => ({ pred, args });
const pos = (pred: string, ...args: Term[]): Literal => ({ kind: 'atom', atom: atom(pred, ...args) });
const not = (sound: 'fd' | 'complete', pred: string, ...args: Term[]): Literal => ({
    kind: 'not',
    atom: atom(pred, ...args),
    sound,
});
const cmp = (op: '=' | '!=' | '<', left: Term, right: Term): Literal => ({ kind: 'compare', op, left, right });
const rule = (name: string, head: Term[], ...body: Literal[]): Rule => ({ name, head: atom(name, ...head), body });
const facts = (d: Derivation, pred: string) =>
    d
        .facts(pred)
        .map(f => f.args.join('>'))
        .sort();

/** Checks a proof the way a reader would: every premise holds, and the clause with these bindings gives the fact. */
function checkProof(program: Program, d: Derivation, proof: Proof): void {
    if (proof.kind === 'base') return;
    const rule = program.rules[proof.clause]!;
    assert.equal(rule.name, proof.rule);
    const val = (t: Term) => ('const' in t ? t.const : proof.bindings[t.var]);
    assert.deepEqual(rule.head.args.map(val), proof.fact.args, `head of ${proof.rule}`);
    let p = 0;
    for (const l of rule.body) {
        if (l.kind === 'atom') {
            const premise: Proof = proof.premises[p++]!;
            assert.deepEqual(premise.fact, { pred: l.atom.pred, args: l.atom.args.map(val) });
            assert.ok(d.has(premise.fact));
            checkProof(program, d, premise);
        } else if (l.kind === 'compare') {
            const a = val(l.left)!,
                b = val(l.right)!;
            assert.ok(l.op === '=' ? a === b : l.op === '!=' ? a !== b : a < b, `${l.op} in ${proof.rule}`);
        } else if (l.sound === 'fd') {
            const witness: Fact = proof.premises[p++]!.fact;
            const args = l.atom.args.map(val);
            assert.equal(witness.pred, l.atom.pred);
            assert.equal(witness.args[0], args[0]);
            assert.notDeepEqual(witness.args, args);
        } else {
            assert.equal(d.has({ pred: l.atom.pred, args: l.atom.args.map(val) as Value[] }), false);
        }
    }
}

function checkAllProofs(program: Program, d: Derivation): number {
    let n = 0;
    for (const pred of new Set(program.rules.map(r => r.head.pred))) {
        for (const f of d.facts(pred)) {
            checkProof(program, d, d.proof(f)!);
            n++;
        }
    }
    return n;
}

const closure = (cap?: number): Program => ({
    base: [{ name: 'edge', arity: 2 }],
    rules: [
        rule('reach', [v('a'), v('b')], pos('edge', v('a'), v('b'))),
        rule('reach', [v('a'), v('c')], pos('reach', v('a'), v('b')), pos('edge', v('b'), v('c'))),
    ],
    ...(cap ? { caps: { reach: cap } } : {}),
});

describe('rules evaluator', () => {
    it('reaches the fixpoint of a transitive closure on cyclic data, and every fact has a proof', () => {
        const edges = [
            ['a', 'b'],
            ['b', 'c'],
            ['c', 'a'],
            ['c', 'd'],
            ['x', 'y'],
        ];
        const d = evaluate(closure(), new Map([['edge', edges]]));
        assert.deepEqual(facts(d, 'reach'), [
            'a>a',
            'a>b',
            'a>c',
            'a>d',
            'b>a',
            'b>b',
            'b>c',
            'b>d',
            'c>a',
            'c>b',
            'c>c',
            'c>d',
            'x>y',
        ]);
        assert.equal(checkAllProofs(closure(), d), 13);
        assert.equal(d.has({ pred: 'reach', args: ['d', 'a'] }), false);
        assert.equal(d.proof({ pred: 'reach', args: ['d', 'a'] }), undefined);
    });

    it('a cap keeps a seeded sample of sound facts and says it cut the closure short', () => {
        const chain = Array.from({ length: 30 }, (_, i) => [`n${i}`, `n${i + 1}`]);
        const full = evaluate(closure(), new Map([['edge', chain]]));
        assert.equal(full.facts('reach').length, (30 * 31) / 2);
        const capped = evaluate(closure(100), new Map([['edge', chain]]), { seed: 7 });
        assert.equal(capped.facts('reach').length, 100);
        assert.deepEqual(capped.stats.truncated, ['reach']);
        for (const f of capped.facts('reach')) assert.ok(full.has(f), 'a capped fact is a true fact');
        checkAllProofs(closure(100), capped);
        const again = evaluate(closure(100), new Map([['edge', chain]]), { seed: 7 });
        assert.deepEqual(facts(again, 'reach'), facts(capped, 'reach'), 'same seed, same sample');
        const other = evaluate(closure(100), new Map([['edge', chain]]), { seed: 8 });
        assert.notDeepEqual(facts(other, 'reach'), facts(capped, 'reach'), 'another seed, another sample');
    });

    it('inverse and symmetric readings', () => {
        const program: Program = {
            base: [
                { name: 'directed', arity: 2 },
                { name: 'married', arity: 2 },
            ],
            rules: [
                rule('directed_by', [v('m'), v('p')], pos('directed', v('p'), v('m'))),
                rule('spouse', [v('a'), v('b')], pos('married', v('a'), v('b'))),
                rule('spouse', [v('b'), v('a')], pos('spouse', v('a'), v('b'))),
            ],
        };
        const d = evaluate(
            program,
            new Map([
                ['directed', [['nolan', 'inception']]],
                ['married', [['ann', 'bob']]],
            ]),
        );
        assert.deepEqual(facts(d, 'directed_by'), ['inception>nolan']);
        assert.deepEqual(facts(d, 'spouse'), ['ann>bob', 'bob>ann']);
        checkAllProofs(program, d);
    });

    it('composite joins: two rows sharing a value, not the same row, with a constant and an order', () => {
        const program: Program = {
            base: [
                { name: 'Movie.director', arity: 2, functional: true },
                { name: 'Movie.year', arity: 2, functional: true },
            ],
            rules: [
                rule(
                    'same_director',
                    [v('a'), v('b')],
                    pos('Movie.director', v('a'), v('d')),
                    pos('Movie.director', v('b'), v('d')),
                    cmp('!=', v('a'), v('b')),
                ),
                rule(
                    'earlier_same',
                    [v('a'), v('b')],
                    pos('same_director', v('a'), v('b')),
                    pos('Movie.year', v('a'), v('x')),
                    pos('Movie.year', v('b'), v('y')),
                    cmp('<', v('x'), v('y')),
                ),
                rule('by_nolan', [v('a')], pos('Movie.director', v('a'), c('Nolan'))),
            ],
        };
        const base = new Map<string, Value[][]>([
            [
                'Movie.director',
                [
                    ['m1', 'Nolan'],
                    ['m2', 'Nolan'],
                    ['m3', 'Lee'],
                    ['m4', 'Nolan'],
                ],
            ],
            [
                'Movie.year',
                [
                    ['m1', 2010],
                    ['m2', 2014],
                    ['m3', 2000],
                    ['m4', 2008],
                ],
            ],
        ]);
        const d = evaluate(program, base);
        assert.deepEqual(facts(d, 'same_director'), ['m1>m2', 'm1>m4', 'm2>m1', 'm2>m4', 'm4>m1', 'm4>m2']);
        assert.deepEqual(facts(d, 'earlier_same'), ['m1>m2', 'm4>m1', 'm4>m2']);
        assert.deepEqual(facts(d, 'by_nolan'), ['m1', 'm2', 'm4']);
        const proof = d.proof({ pred: 'earlier_same', args: ['m4', 'm1'] })!;
        assert.equal(proof.kind, 'rule');
        assert.deepEqual(proof.kind === 'rule' && proof.bindings, { a: 'm4', b: 'm1', x: 2008, y: 2010 });
        checkAllProofs(program, d);
    });

    it('FD negation: another value for the key makes the fact false; no value at all decides nothing', () => {
        // not_directed(m, p): m's director is known and is not p.
        const program: Program = {
            base: [
                { name: 'Movie.director', arity: 2, functional: true },
                { name: 'Person', arity: 1 },
            ],
            rules: [
                rule(
                    'not_directed',
                    [v('m'), v('p')],
                    pos('Movie.title', v('m'), v('t')),
                    pos('Person', v('p')),
                    not('fd', 'Movie.director', v('m'), v('p')),
                ),
            ],
        };
        program.base.push({ name: 'Movie.title', arity: 2, functional: true });
        const base = new Map<string, Value[][]>([
            [
                'Movie.title',
                [
                    ['m1', 'Inception'],
                    ['m2', 'Unknown film'],
                ],
            ],
            ['Movie.director', [['m1', 'nolan']]],
            ['Person', [['nolan'], ['lee']]],
        ]);
        const d = evaluate(program, base);
        assert.deepEqual(facts(d, 'not_directed'), ['m1>lee'], 'm2 has no director in the data: nothing is concluded about it');
        const proof = d.proof({ pred: 'not_directed', args: ['m1', 'lee'] })!;
        assert.ok(proof.kind === 'rule');
        assert.deepEqual(
            proof.kind === 'rule' && proof.premises.at(-1)!.fact,
            { pred: 'Movie.director', args: ['m1', 'nolan'] },
            'the witness',
        );
        checkAllProofs(program, d);
    });

    it('closed-world negation only reads absence on a complete predicate', () => {
        const program: Program = {
            base: [
                { name: 'Team', arity: 1 },
                { name: 'won', arity: 1, complete: true },
            ],
            rules: [rule('never_won', [v('t')], pos('Team', v('t')), not('complete', 'won', v('t')))],
        };
        const d = evaluate(
            program,
            new Map([
                ['Team', [['a'], ['b'], ['c']]],
                ['won', [['b']]],
            ]),
        );
        assert.deepEqual(facts(d, 'never_won'), ['a', 'c']);
        checkAllProofs(program, d);
    });

    it('negation of a derived predicate waits for its stratum', () => {
        const program: Program = {
            base: [
                { name: 'edge', arity: 2 },
                { name: 'node', arity: 1 },
            ],
            rules: [
                ...closure().rules,
                rule(
                    'unreachable',
                    [v('a'), v('b')],
                    pos('node', v('a')),
                    pos('node', v('b')),
                    not('complete', 'reach', v('a'), v('b')),
                ),
            ],
        };
        const d = evaluate(
            program,
            new Map([
                [
                    'edge',
                    [
                        ['1', '2'],
                        ['2', '3'],
                    ],
                ],
                ['node', [['1'], ['2'], ['3']]],
            ]),
        );
        assert.deepEqual(facts(d, 'unreachable'), ['1>1', '2>1', '2>2', '3>1', '3>2', '3>3']);
        assert.deepEqual(stratify(program), [['reach'], ['unreachable']]);
    });

    it('refuses recursion through negation and names the cycle', () => {
        const program: Program = {
            base: [{ name: 'node', arity: 1 }],
            rules: [
                rule('p', [v('x')], pos('node', v('x')), not('complete', 'q', v('x'))),
                rule('q', [v('x')], pos('node', v('x')), not('complete', 'p', v('x'))),
            ],
        };
        assert.throws(
            () => evaluate(program, new Map([['node', [['a']]]])),
            (e: unknown) => e instanceof NegationCycleError && e.cycle.length === 3 && e.cycle[0] === e.cycle[2],
        );
    });

    it('a mutually recursive pair, and a guard on the total', () => {
        const program: Program = {
            base: [{ name: 'edge', arity: 2 }],
            rules: [
                rule('even', [v('a'), v('a')], pos('edge', v('a'), v('_'))),
                rule('odd', [v('a'), v('c')], pos('even', v('a'), v('b')), pos('edge', v('b'), v('c'))),
                rule('even', [v('a'), v('c')], pos('odd', v('a'), v('b')), pos('edge', v('b'), v('c'))),
            ],
        };
        const chain = Array.from({ length: 6 }, (_, i) => [i, i + 1]);
        const d = evaluate(program, new Map([['edge', chain]]));
        assert.deepEqual(
            facts(d, 'odd').filter(f => f.startsWith('0>')),
            ['0>1', '0>3', '0>5'],
        );
        checkAllProofs(program, d);
        const guarded = evaluate(program, new Map([['edge', chain]]), { maxFacts: 5 });
        assert.ok(guarded.stats.truncated.length > 0);
        assert.ok(Object.values(guarded.stats.derived).reduce((a, b) => a + b, 0) <= 5);
    });

    it('stops when cancelled', () => {
        const chain = Array.from({ length: 2000 }, (_, i) => [i, i + 1]);
        const abort = new AbortController();
        abort.abort();
        assert.throws(() => evaluate(closure(), new Map([['edge', chain]]), { signal: abort.signal }), /abort/i);
    });

    it('distinguishes values by type, and answers has() for values it never saw', () => {
        const d = evaluate(
            closure(),
            new Map([
                [
                    'edge',
                    [
                        [1, '1'],
                        ['1', 2],
                    ],
                ],
            ]),
        );
        assert.deepEqual(
            d.facts('reach').map(f => f.args),
            [
                [1, '1'],
                ['1', 2],
                [1, 2],
            ],
        );
        assert.equal(d.has({ pred: 'reach', args: ['1', '1'] }), false);
        assert.equal(d.has({ pred: 'reach', args: ['zzz', 1] }), false);
        assert.equal(d.has({ pred: 'nothing', args: [] } as Fact), false);
    });

    it('interns values as a Map keys them: numbers of every kind, texts and booleans apart, first-seen value kept', () => {
        // Small ids first (a direct array), then numbers that leave it: negative, fractional, huge, -0, NaN.
        const values: Value[] = [3, 0, 7, '3', true, 3, 1e6, -0, 0, -2, 2.5, NaN, 2 ** 40, 'x', NaN, false, -2, 2.5, '0', 1e6];
        for (let i = 0; i < 3000; i++) values.push((i * 7919) % 5000, `t${i % 50}`);
        values.push(-1, 2 ** 31, 0.1 + 0.2, -0, 3);
        const interner = new Interner();
        const reference = new Map<Value, number>();
        for (const v of values) {
            if (!reference.has(v)) reference.set(v, reference.size);
            assert.equal(interner.id(v), reference.get(v), `id of ${String(v)} (${typeof v})`);
        }
        for (const [v, id] of reference) {
            assert.equal(interner.lookup(v), id);
            assert.ok(Object.is(interner.value(id), v), `value of ${id} is the first seen ${String(v)}`);
        }
        for (const v of [4.5, -3, '7', 'y', 2 ** 41]) assert.equal(interner.lookup(v), undefined, String(v));
    });
});
