import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { translateRules } from '../../../src/core/rules/translate.js';
import type { Literal, Rule } from '../../../src/core/rules/ir.js';
import { world, type World } from '../../fixtures/probes/world.js';

const SPEC = `source players csv "players.csv"
source clubs csv "clubs.csv"
relation Player from players { name: text  club: text  key (name) }
relation Club from clubs complete { name: text  city: text  key (name) }
fd Player: name -> club as player_club
fk Player.club -> Club.name as plays_for inverse has_player "{subject} has {object} in its squad"
fk Club.city -> Club.name as partner
rule colleague(p: Player, q: Player) :- p.club = q.club, p != q
    symmetric phrase "{p} and {q} play for the same club"
rule elsewhere(p: Player, c: Club) :- plays_for(p, k), k.city = c.city, not plays_for(p, c)
rule same_city(a: Club, b: Club) :- a.city = b.city, a != b
rule apart(a: Club, b: Club) :- Club(a), Club(b), a != b, not same_city(a, b)
rule linked(a: Club, b: Club) :- same_city(a, b) transitive cap 50
`;

const text = (l: Literal) =>
    l.kind === 'compare'
        ? `${show(l.left)} ${l.op} ${show(l.right)}`
        : `${l.kind === 'not' ? `not[${l.sound}] ` : ''}${l.atom.pred}(${l.atom.args.map(show).join(', ')})`;
const show = (t: { var: string } | { const: unknown }) => ('var' in t ? t.var : JSON.stringify(t.const));
const clause = (r: Rule) => `${r.head.pred}(${r.head.args.map(show).join(', ')}) :- ${r.body.map(text).join(', ')}`;

describe('rules → Datalog program', () => {
    let w: World;
    after(() => w?.dispose());

    it('translates attribute reads, unification, properties, sound negation and caps', async () => {
        w = await world(SPEC, { 'players.csv': 'name,club\nA,X\n', 'clubs.csv': 'name,city\nX,Rome\n' });
        assert.deepEqual(
            w.diagnostics.filter(d => d.severity === 'error'),
            [],
        );
        const t = translateRules(w.model);
        assert.deepEqual(t.problems, []);
        const clauses = t.program.rules.map(clause);
        // p.club = q.club is one shared variable: a hash join, not a filtered cross product.
        assert.ok(
            clauses.includes('colleague(p, q) :- Player.club(p, p.club), Player.club(q, p.club), p != q'),
            clauses.join('\n'),
        );
        assert.ok(clauses.includes('colleague(b, a) :- colleague(a, b)'), 'symmetric');
        assert.ok(clauses.includes('plays_for(subject, object) :- fk:Player.club->Club.name(subject, object)'), 'named fk');
        assert.ok(clauses.includes('has_player(b, a) :- plays_for(a, b)'), 'inverse');
        assert.ok(clauses.includes('linked(a, c) :- linked(a, b), linked(b, c)'), 'transitive');
        // plays_for is functional (one club per player): negating it is sound through the FD.
        assert.ok(
            clauses.some(c => c.startsWith('elsewhere(p, c) :-') && c.includes('not[fd] plays_for(p, c)')),
            clauses.join('\n'),
        );
        // same_city rests on Club only, which is declared complete: closed-world negation is sound.
        assert.ok(
            clauses.some(c => c.startsWith('apart(a, b) :-') && c.includes('not[complete] same_city(a, b)')),
            clauses.join('\n'),
        );
        assert.equal(t.program.caps?.linked, 50);
        assert.equal(t.predicates.get('colleague')?.symmetric, true);
        assert.equal(t.predicates.get('has_player')?.inverseOf, 'plays_for');
        const fk = t.program.base.find(b => b.name === 'fk:Player.club->Club.name');
        assert.equal(fk?.functional, true);
        assert.equal(t.program.base.find(b => b.name === 'Club.city')?.complete, true);
        assert.equal(t.program.base.find(b => b.name === 'Player.club')?.complete, undefined);
        // Every clause carries where it is written.
        assert.ok(t.program.rules.every(r => r.loc && r.loc.file.endsWith('spec.probe')));
    });

    it('constants bind variables instead of filtering', async () => {
        const w2 = await world(`${SPEC}\nrule roman(c: Club) :- c.city = "Rome"\n`, {
            'players.csv': 'name,club\n',
            'clubs.csv': 'name,city\n',
        });
        try {
            const t = translateRules(w2.model);
            assert.ok(
                t.program.rules.map(clause).includes('roman(c) :- Club.city(c, "Rome")'),
                t.program.rules.map(clause).join('\n'),
            );
        } finally {
            w2.dispose();
        }
    });
});
