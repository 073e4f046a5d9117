// Issue 27 item 15: rule questions in plain English — "have totally different clubs" (agreement), and the
// polarity twin of a negative phrase states the positive fact instead of "It is not true that … does not …".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ruleTemplates } from '../../../../src/core/families/rule/questions.js';
import type { ProbeDecl } from '../../../../src/core/spec/model.js';
import type { PredicateInfo } from '../../../../src/core/rules/translate.js';

const probe = (settings: Record<string, string>): ProbeDecl =>
    ({
        name: 'p',
        kind: 'rule',
        phrasings: [],
        stems: [],
        options: [],
        asks: [],
        settings,
        loc: { file: 'x', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } },
    }) as unknown as ProbeDecl;
const info = (phrase?: string): PredicateInfo => ({
    name: 'r',
    kind: 'rule',
    params: [
        { name: 'p', type: 'Player' },
        { name: 'k', type: 'Club' },
    ],
    ...(phrase ? { phrase } : {}),
});

describe('rule questions in plain English', () => {
    it('a shared noun agrees in number: "share the same club" but "have totally different clubs"', () => {
        const t = ruleTemplates(probe({ noun: 'club' }), info()) as { text: string; gold: string }[];
        assert.equal(t[1]!.text, '{p} and {k} have totally different clubs. Please judge the truth of this statement.');
        const city = ruleTemplates(probe({ noun: 'city' }), info()) as { text: string }[];
        assert.match(city[1]!.text, /totally different cities\./);
    });

    it('the twin of a negative phrase states the positive fact, with no double negation', () => {
        const t = ruleTemplates(probe({}), info('{p} does not play for {k}')) as { text: string; gold: string }[];
        assert.equal(t[0]!.text, 'Is it true that {fact}?');
        assert.equal(t[1]!.gold, 'no');
        assert.doesNotMatch(t[1]!.text, /not true that .*not/);
        assert.equal(t[1]!.text, '{p} plays for {k}. Please judge the truth of this statement.');
        const is = ruleTemplates(probe({}), info('{p} is not based in {k}')) as { text: string }[];
        assert.equal(is[1]!.text, '{p} is based in {k}. Please judge the truth of this statement.');
    });
});

describe('composite keys in rule questions (issue 27 item 15)', () => {
    it('an entity keyed by several attributes is named by its relation\'s label phrasing, never as "X (A)"', async () => {
        const { world } = await import('../../../fixtures/probes/world.js');
        const { generateQuestions } = await import('../../../../src/core/probes/index.js');
        const w = await world(
            `source p csv "p.csv"
source c csv "c.csv"
relation Player from p label "soccer player" { name: text  club: text label "team"  key (name, club) }
relation Club from c { name: text  city: text  key (name) }
fk Player.club -> Club.name as plays_for
fd Player: name -> club as player_club
fd Club: name -> city as club_city
rule not_at(p: Player, k: Club) :- plays_for(p, h), h.city = k.city, not plays_for(p, k)
    phrase "{p} does not play for {k}"
rule mates(p: Player, q: Player) :- p.club = q.club, p != q
rule plays_at(p: Player, k: Club) :- plays_for(p, k)
    phrase "{p} plays for {k}"
    inverse hosts "{k} is home to {p}"
probe away rule using not_at { per_entity 4 }
probe at rule using plays_at { per_entity 1 }
probe together rule using mates { noun "team" }
`,
            { 'p.csv': 'name,club\nY,A\nZ,A\n', 'c.csv': 'name,city\nA,Rome\nB,Rome\n' },
        );
        try {
            assert.deepEqual(
                w.diagnostics.filter(d => d.severity === 'error'),
                [],
            );
            const generation = generateQuestions(w.model, w.data);
            const questions = [...generation.questions];
            const away = questions.filter(q => q.probe === 'away').map(q => q.question);
            assert.deepEqual(away, [
                'Is it true that the soccer player whose name is Y and team is A does not play for B?',
                'The soccer player whose name is Y and team is A plays for B. Please judge the truth of this statement.',
                'Is it true that the soccer player whose name is Z and team is A does not play for B?',
                'The soccer player whose name is Z and team is A plays for B. Please judge the truth of this statement.',
            ]);
            // Issue 38 item 4: mates joins on the team, part of the key that names each player, so its question
            // ("… whose team is A and … whose team is A share the same team?") would state its answer: refused.
            assert.deepEqual(
                questions.filter(q => q.probe === 'together').map(q => q.question),
                [],
            );
            assert.ok(
                generation.diagnostics.some(d => d.code === 'rule-composite-key' && /joins p and q on club/.test(d.message)),
                JSON.stringify(generation.diagnostics),
            );
            // Inside a sentence the phrasing keeps its small letter.
            assert.deepEqual(
                questions.filter(q => q.probe === 'at' && q.question.includes(' Y ')).map(q => q.question),
                [
                    'Is it true that the soccer player whose name is Y and team is A plays for A?',
                    'It is not true that the soccer player whose name is Y and team is A plays for A. Please judge the truth of this statement.',
                    'Is it true that A is home to the soccer player whose name is Y and team is A?',
                ],
            );
            for (const q of questions) assert.doesNotMatch(q.question, /\w \(\w\)/, q.question);
        } finally {
            w.dispose();
        }
    });
});
