// Issue 29, item 3: a capped or sampled rule (`cap N`, `sample N`) must not enumerate every candidate. The
// colleague join over 20,000 players in 10 clubs has 40M candidates; keeping a reservoir of 5,000 of them bounded
// the memory but still looked at all 40M. The evaluator now draws the facts by random walks over its indexes once
// enumerating passes a small budget: the work (`stats.examined`, candidate rows looked at) is bounded by the cap,
// and the sample stays uniform over the join's rows (Olken's acceptance), also when the groups are skewed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../../src/core/rules/evaluate.js';
import type { FactBase, Program, Rule, Value } from '../../src/core/rules/ir.js';

const v = (name: string) => ({ var: name });
const atom = (pred: string, ...args: string[]) => ({ kind: 'atom' as const, atom: { pred, args: args.map(v) } });
const colleague: Rule = {
    name: 'colleague',
    head: { pred: 'colleague', args: [v('p'), v('q')] },
    body: [
        atom('Player.club', 'p', 'c'),
        atom('Player.club', 'q', 'c'),
        { kind: 'compare', op: '!=', left: v('p'), right: v('q') },
    ],
};
const symmetric: Rule = {
    name: 'colleague',
    head: { pred: 'colleague', args: [v('b'), v('a')] },
    body: [atom('colleague', 'a', 'b')],
};
const program = (cap: number, sampled = false): Program => ({
    base: [{ name: 'Player.club', arity: 2 }],
    rules: [colleague, symmetric],
    caps: { colleague: cap },
    ...(sampled ? { sampled: ['colleague'] } : {}),
});

/** Players and their clubs: `sizes[k]` players in club k. */
function players(sizes: number[]): { base: FactBase; club: Map<Value, Value> } {
    const rows: Value[][] = [];
    sizes.forEach((n, k) => {
        for (let i = 0; i < n; i++) rows.push([`Player ${k}-${i}`, `Club ${k}`]);
    });
    return { base: new Map([['Player.club', rows]]), club: new Map(rows.map(([p, c]) => [p!, c!])) };
}

describe('a capped or sampled rule draws its facts in bounded work', { timeout: 60_000 }, () => {
    const even = players(Array(10).fill(2_000));

    it('5,000 of the 40M colleague facts, looking at a bounded number of candidates, every one sound, spread over the clubs', () => {
        for (const sampled of [false, true]) {
            const d = evaluate(program(5_000, sampled), even.base, { seed: 7 });
            assert.equal(d.size('colleague'), 5_000);
            assert.ok(d.stats.examined <= 1_000_000, `candidates looked at: ${d.stats.examined} (enumerating them all is 40M)`);
            const perClub = new Map<Value, number>();
            for (const f of d.facts('colleague')) {
                const [p, q] = f.args;
                assert.notEqual(p, q);
                assert.equal(even.club.get(p!), even.club.get(q!), `${p} and ${q} share no club`);
                perClub.set(even.club.get(p!)!, (perClub.get(even.club.get(p!)!) ?? 0) + 1);
                assert.equal(d.proof(f)?.kind, 'rule');
            }
            // Uniform over the join: each club holds a tenth of it (500 ± 21 expected; a prefix of the enumeration would be one club).
            assert.equal(perClub.size, 10);
            for (const [club, n] of perClub) assert.ok(n > 400 && n < 600, `${club}: ${n} of 5,000`);
            assert.deepEqual(d.stats.truncated, ['colleague']);
        }
    });

    it('the same seed gives the same sample, another seed another', () => {
        const facts = (seed: number) =>
            evaluate(program(1_000), even.base, { seed })
                .facts('colleague')
                .map(f => f.args.join('|'))
                .sort();
        assert.deepEqual(facts(3), facts(3));
        assert.notDeepEqual(facts(3), facts(4));
    });

    it('stays uniform over the join when one club is much larger (skewed groups)', () => {
        // One club of 6,000 and ten of 600: the large club holds 36M of the 39.6M pairs (90.9 %).
        const skewed = players([6_000, ...Array(10).fill(600)]);
        const d = evaluate(program(4_000), skewed.base, { seed: 11 });
        assert.equal(d.size('colleague'), 4_000);
        assert.ok(d.stats.examined <= 2_000_000, `candidates looked at: ${d.stats.examined}`);
        const large = d.facts('colleague').filter(f => skewed.club.get(f.args[0]!) === 'Club 0').length / 4_000;
        assert.ok(large > 0.88 && large < 0.94, `share of the large club: ${large}`);
    });

    it('a small join is still enumerated whole: a cap it does not reach keeps every fact', () => {
        const small = players([30, 30]);
        const d = evaluate(program(5_000), small.base, { seed: 1 });
        assert.equal(d.size('colleague'), 2 * 30 * 29);
        assert.deepEqual(d.stats.truncated, []);
    });

    it('a capped transitive closure over a long chain stops at its cap with sound facts, in bounded work', () => {
        const N = 3_000;
        const edges: Value[][] = Array.from({ length: N - 1 }, (_, i) => [i, i + 1]);
        const reach: Program = {
            base: [{ name: 'edge', arity: 2 }],
            rules: [
                { name: 'reach', head: { pred: 'reach', args: [v('a'), v('b')] }, body: [atom('edge', 'a', 'b')] },
                {
                    name: 'reach',
                    head: { pred: 'reach', args: [v('a'), v('c')] },
                    body: [atom('reach', 'a', 'b'), atom('edge', 'b', 'c')],
                },
            ],
            caps: { reach: 5_000 },
        };
        const d = evaluate(reach, new Map([['edge', edges]]), { seed: 2 });
        assert.equal(d.size('reach'), 5_000);
        assert.ok(d.stats.examined <= 100_000, `candidates looked at: ${d.stats.examined} (the closure has 4.5M facts)`);
        for (const f of d.facts('reach'))
            assert.ok(Number(f.args[0]) < Number(f.args[1]), `${f.args.join(' → ')} is not reachable`);
    });
});
