/**
 * Plans whose head facts are all distinct (issue 39): their facts skip the tuple set while derived, and the set
 * records them when next asked. Which plans qualify is decided on the data (one tuple per first value), never on
 * a declaration alone, and the facts, membership and proofs are those of the checked path.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { evaluate } from '../../../src/core/rules/evaluate.js';
import { distinctHeads, planClause } from '../../../src/core/rules/eval-plan.js';
import { Relation } from '../../../src/core/rules/eval-relation.js';
import { Interner } from '../../../src/core/rules/interned.js';
import type { Program, Term, Value } from '../../../src/core/rules/ir.js';

const v = (name: string): Term => ({ var: name });
const atom = (pred: string, ...args: string[]) => ({ kind: 'atom' as const, atom: { pred, args: args.map(v) } });
const sameDirector: Program = {
    base: [{ name: 'director', arity: 2, functional: true }],
    rules: [
        {
            name: 'same_director',
            head: { pred: 'same_director', args: [v('a'), v('b')] },
            body: [
                atom('director', 'a', 'd'),
                atom('director', 'b', 'd'),
                { kind: 'compare', op: '!=', left: v('a'), right: v('b') },
            ],
        },
    ],
};
const sameDirectorName: Program = {
    ...sameDirector,
    rules: [
        {
            name: 'same_director',
            head: { pred: 'same_director', args: [v('d')] },
            body: [
                atom('director', 'a', 'd'),
                atom('director', 'b', 'd'),
                { kind: 'compare', op: '!=', left: v('a'), right: v('b') },
            ],
        },
    ],
};

/** The join's plan over these director facts, and whether its heads are distinct. */
function distinct(program: Program, rows: Value[][]): boolean {
    const values = new Interner();
    const director = new Relation(0, 'director', 2),
        head = new Relation(1, 'same_director', program.rules[0]!.head.args.length);
    for (const r of rows) {
        const ids = r.map(x => values.id(x));
        director.set.insert(ids, director.count);
        director.count++;
        for (const id of ids) director.rows.push(id);
        director.clause.push(-1);
    }
    const relations = new Map([
        ['director', director],
        ['same_director', head],
    ]);
    return distinctHeads(planClause({ values, relations }, program.rules[0]!, 0, -1, new Set([head])), program);
}

const pairs = (program: Program, rows: Value[][]) =>
    evaluate(program, new Map([['director', rows]]))
        .facts('same_director')
        .map(f => f.args.join('>'))
        .sort();

describe('plans with distinct heads', () => {
    it('are recognised from the data: one director per movie, not the declaration alone', () => {
        assert.equal(
            distinct(sameDirector, [
                [1, 'x'],
                [2, 'x'],
                [3, 'y'],
            ]),
            true,
        );
        // Movie 1 has two directors (the data breaks the declared FD): (1, 2) comes from x and from y.
        assert.equal(
            distinct(sameDirector, [
                [1, 'x'],
                [2, 'x'],
                [1, 'y'],
                [2, 'y'],
            ]),
            false,
        );
        // The head does not determine the movies: many pairs give one director.
        assert.equal(
            distinct(sameDirectorName, [
                [1, 'x'],
                [2, 'x'],
                [3, 'x'],
            ]),
            false,
        );
    });

    it('derive the facts, membership and proofs of the checked path, and still deduplicate where the data repeats', () => {
        const rows: Value[][] = Array.from({ length: 3000 }, (_, i) => [i, `d${i % 1000}`]);
        const d = evaluate(sameDirector, new Map([['director', rows]]));
        assert.equal(d.size('same_director'), 6000);
        const last = d.factAt('same_director', 5999)!;
        assert.ok(d.has(last));
        assert.ok(!d.has({ pred: 'same_director', args: [0, 0] }));
        const proof = d.proof(last)!;
        assert.equal(proof.kind, 'rule');
        assert.deepEqual(proof.kind === 'rule' && proof.premises.map(p => p.fact.args[1]), [
            `d${Number(last.args[0]) % 1000}`,
            `d${Number(last.args[0]) % 1000}`,
        ]);
        // Two directors for movies 1 and 2: the pair is derived twice, kept once.
        assert.deepEqual(
            pairs(sameDirector, [
                [1, 'x'],
                [2, 'x'],
                [1, 'y'],
                [2, 'y'],
            ]),
            ['1>2', '2>1'],
        );
        assert.deepEqual(
            pairs(sameDirectorName, [
                [1, 'x'],
                [2, 'x'],
                [3, 'x'],
                [4, 'y'],
            ]),
            ['x'],
        );
    });
});
