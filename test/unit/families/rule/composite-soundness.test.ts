// Issue 38 item 4: rule questions over relations whose key has several attributes. A negation through a composite
// key that holds the negated attribute, a shared-object join on a key attribute (the question states its answer),
// and `a != b` pairing one entity with itself across two rows are each refused with a located diagnostic.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { world } from '../../../fixtures/probes/world.js';
import { generateQuestions } from '../../../../src/core/probes/index.js';

const SPEC = `source p csv "p.csv"
source c csv "c.csv"
relation Player from p complete label "soccer player" { name: text  club: text label "team"  country: text  key (name, club) }
relation Club from c complete { name: text  city: text  key (name) }
fk Player.club -> Club.name as plays_for
`;
const FILES = {
    'p.csv': 'name,club,country\nX,A,Germany\nX,B,Germany\nY,A,Spain\nZ,B,Spain\n',
    'c.csv': 'name,city\nA,Rome\nB,Rome\n',
};

async function ask(rules: string) {
    const w = await world(SPEC + rules, FILES);
    try {
        const g = generateQuestions(w.model, w.data);
        return {
            questions: [...g.questions].filter(q => q.probe === 'p').map(q => q.question),
            problems: g.diagnostics.filter(p => p.severity === 'error'),
            diagnostics: w.diagnostics.filter(d => d.severity === 'error'),
        };
    } finally {
        w.dispose();
    }
}

describe('rule questions through a composite key (issue 38 item 4)', () => {
    it("a closed-world negation of an attribute that is part of the subject's key is refused, located at the probe", async () => {
        const r = await ask(`rule not_at(p: Player, k: Club) :- plays_for(p, h), h.city = k.city, not plays_for(p, k)
    phrase "{p} does not play for {k}"
probe p rule using not_at { per_entity 4 }
`);
        assert.deepEqual(r.diagnostics, []);
        // Before: "… whose name is X and team is A does not play for B?" with gold yes, while X plays for B.
        assert.ok(!r.questions.some(q => /name is X and team is A does not play for B/.test(q)), r.questions.join('\n'));
        const p = r.problems.find(x => x.code === 'rule-composite-key');
        assert.ok(p, JSON.stringify(r.problems));
        assert.match(p.file, /spec\.probe$/);
        assert.match(p.message, /not plays_for/);
        assert.match(p.message, /key \(name, club\)/);
        assert.match(p.message, /Declare the FD if it holds \('fd Player: name -> club'\)/, 'a remedy');
    });

    it('a shared-object join on an attribute of the key is refused: the question would state its answer', async () => {
        const r = await ask(`rule mates(p: Player, q: Player) :- p.club = q.club, p.name != q.name
probe p rule using mates { noun "team" }
`);
        assert.ok(
            !r.questions.some(q => /team is A and the soccer player whose name is \w and team is A share/.test(q)),
            r.questions.join('\n'),
        );
        const p = r.problems.find(x => x.code === 'rule-composite-key');
        assert.ok(p, JSON.stringify(r.problems));
        assert.match(p.message, /club/);
    });

    it('`a != b` over rows of a composite key is refused: it would pair a player with herself across two rows', async () => {
        const r = await ask(`rule compatriots(p: Player, q: Player) :- p.country = q.country, p != q
probe p rule using compatriots { noun "country" }
`);
        assert.ok(
            !r.questions.some(q => /name is X and team is A and the soccer player whose name is X and team is B/.test(q)),
            r.questions.join('\n'),
        );
        const p = r.problems.find(x => x.code === 'rule-composite-key');
        assert.ok(p, JSON.stringify(r.problems));
        assert.match(p.message, /p != q/);
        assert.match(p.message, /p\.name != q\.name/);
    });

    it('comparing the attribute that names the player is sound and asked', async () => {
        const r = await ask(`rule compatriots(p: Player, q: Player) :- p.country = q.country, p.name != q.name
probe p rule using compatriots { noun "country" }
`);
        assert.deepEqual(r.problems, []);
        assert.ok(
            r.questions.some(q =>
                /name is Y and team is A and the soccer player whose name is Z and team is B share the same country/.test(q),
            ),
            r.questions.join('\n'),
        );
        assert.ok(
            !r.questions.some(q => /name is X and team is A and the soccer player whose name is X/.test(q)),
            r.questions.join('\n'),
        );
    });
});
