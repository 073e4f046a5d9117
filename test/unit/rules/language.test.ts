import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { covered, diagnose, parseSpec } from '../language/support.js';

const SOCCER = `source players csv "p.csv"
source clubs csv "c.csv"
relation Player from players { name: text  club: text  key (name) }
relation Club from clubs { name: text  city: text  key (name) }
fd Player: name -> club as player_club
fk Player.club -> Club.name as plays_for phrase "{subject} plays for {object}" inverse has_player "{subject} has {object} in its squad"
rule colleague(p: Player, q: Player) :- p.club = q.club, p != q
    symmetric phrase "{p} and {q} play for the same club"
`;

describe('rules in the language', () => {
    it('a spec with rules, properties and a rule probe is clean', async () => {
        const ds = await diagnose(`${SOCCER}
rule same_city(a: Club, b: Club) :- a.city = b.city, a != b symmetric
rule plays_in(p: Player, city: Club) :- plays_for(p, k), same_city(k, city)
rule elsewhere(p: Player, c: Club) :- plays_for(p, k), k.city = c.city, not plays_for(p, c)
rule home(p: Player, k: Club) :- Club(k), p.club = k
probe colleagues rule using colleague { basic "Is it true that {p} and {q} play for the same club?" }`);
        assert.deepEqual(
            ds.map(d => `${d.code}: ${d.message}`),
            [],
        );
    });

    const cases: { name: string; add: string; code: string; covers?: string; message?: RegExp }[] = [
        {
            name: 'unknown attribute with a suggestion',
            add: 'rule r(a: Player, b: Player) :- a.clb = b.club, a != b',
            code: 'rule-unknown-attribute',
            covers: 'a.clb',
            message: /no attribute 'clb'.*Did you mean 'club'/,
        },
        {
            name: 'unknown predicate with a suggestion',
            add: 'rule r(a: Player, b: Player) :- colleage(a, b)',
            code: 'rule-unknown-predicate',
            covers: 'colleage(a, b)',
            message: /Did you mean 'colleague'/,
        },
        {
            name: 'arity mismatch',
            add: 'rule r(a: Player, b: Player) :- colleague(a, b, a)',
            code: 'rule-arity',
            message: /takes 2 argument/,
        },
        {
            name: 'type mismatch in an atom',
            add: 'rule r(a: Player, b: Club) :- colleague(a, b)',
            code: 'rule-type',
            covers: 'b',
            message: /Argument 2 of colleague is a Player/,
        },
        {
            name: 'type mismatch in a comparison',
            add: 'rule r(a: Player, b: Club) :- a.club = b.name, a != b',
            code: 'rule-type',
        },
        {
            name: 'unsafe head variable',
            add: 'rule r(a: Player, b: Player) :- a.club = "Barcelona"',
            code: 'rule-unsafe',
            covers: 'b: Player',
            message: /'b' is not bound/,
        },
        {
            name: 'unsound negation on an open relation',
            add: 'rule r(a: Player, b: Player) :- a.club = b.club, not colleague(a, b)',
            code: 'rule-unsound-negation',
            message: /rests on Player, which is not declared complete/,
        },
        {
            name: 'recursion without a cap',
            add: 'rule reach(a: Player, b: Player) :- colleague(a, b)\nrule reach(a: Player, c: Player) :- reach(a, b), colleague(b, c)',
            code: 'rule-unbounded',
            message: /cap 10000/,
        },
        {
            name: 'transitive without a cap',
            add: 'rule r(a: Player, b: Player) :- colleague(a, b) transitive',
            code: 'rule-unbounded',
        },
        {
            name: 'both a cap and a sample',
            add: 'rule r(a: Player, b: Player) :- colleague(a, b) cap 10 sample 5',
            code: 'rule-cap',
            covers: 'sample 5',
            message: /Keep one/,
        },
        {
            name: 'a sample of no facts',
            add: 'rule r(a: Player, b: Player) :- colleague(a, b) sample 0',
            code: 'rule-cap',
            message: /sample 5000/,
        },
        {
            name: 'symmetric between different relations',
            add: 'rule r(a: Player, b: Club) :- plays_for(a, b) symmetric',
            code: 'rule-property',
        },
        {
            name: 'phrase names an unknown argument',
            add: 'rule r(a: Player, b: Player) :- colleague(a, b) phrase "{a} and {c}"',
            code: 'rule-phrase',
            message: /\{c\}/,
        },
    ];
    for (const c of cases) {
        it(c.name, async () => {
            const doc = await parseSpec(`${SOCCER}\n${c.add}\n`);
            const found = (doc.diagnostics ?? []).filter(d => d.code === c.code);
            assert.ok(
                found.length > 0,
                `expected ${c.code}, got ${JSON.stringify((doc.diagnostics ?? []).map(d => `${d.code}: ${d.message}`))}`,
            );
            if (c.covers)
                assert.ok(
                    found.some(d => covered(doc, d) === c.covers),
                    found.map(d => covered(doc, d)).join(' | '),
                );
            if (c.message)
                assert.ok(
                    found.some(d => c.message!.test(String(d.message))),
                    found.map(d => d.message).join(' | '),
                );
        });
    }

    it('`sample N` bounds a rule as `cap N` does: recursion with a sample is clean', async () => {
        const ds = await diagnose(
            `${SOCCER}\nrule r(a: Player, b: Player) :- colleague(a, b) transitive sample 500\nrule s(a: Player, b: Player) :- a.club = b.club sample 20\n`,
        );
        assert.deepEqual(
            ds.map(d => `${d.code}: ${d.message}`),
            [],
        );
    });

    it('recursion through negation is an error even on complete relations', async () => {
        const ds = await diagnose(
            SOCCER.replace('relation Player from players {', 'relation Player from players complete {').replace(
                'relation Club from clubs {',
                'relation Club from clubs complete {',
            ) +
                '\nrule odd(a: Player, b: Player) :- colleague(a, b), not even(a, b)\nrule even(a: Player, b: Player) :- colleague(a, b), not odd(a, b)\n',
        );
        assert.ok(
            ds.some(d => d.code === 'rule-negation-cycle'),
            JSON.stringify(ds.map(d => d.message)),
        );
    });
});
