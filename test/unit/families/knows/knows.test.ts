import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { knows } from '../../../../src/core/families/knows/family.js';
import { parseBinary } from '../../../../src/core/verify/answer.js';
import { world } from '../../../fixtures/probes/world.js';
import { question } from '../../../fixtures/verify/world.js';
import { OLYMPICS_FILES, OLYMPICS_SPEC } from '../../../fixtures/probes/olympics.js';

/** The Soccer & Olympic knowledge prompt of the paper: FK-joined attributes, the last clause only for cities that hosted. */
const KNOWS = `
probe know_player knows about Player {
    known_if no_word_no
    ask "Did {name} play for {club}?"
    ask "If yes, is {club} located in the city {Club.city}?"
    ask when "nonempty(City.host_years)" 'If yes did {Club.city} host the summer olympics at {join(City.host_years, ",")},?'
}
probe know_each knows about Player {
    asks separate
    ask "Did {name} play for {club}?"
    ask when "nonempty(City.host_years)" "Did {Club.city} host the Summer Olympics?"
}
`;

describe('knowledge probes', () => {
    it('name attributes of FK-joined relations and keep a clause only where its condition holds', async t => {
        const w = await world(OLYMPICS_SPEC + KNOWS, OLYMPICS_FILES);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'know_player' });
        const qs = [...g.questions];
        assert.deepEqual(
            qs.map(q => q.question),
            [
                'Did L. Messi play for FC Barcelona? If yes, is FC Barcelona located in the city barcelona? If yes did barcelona host the summer olympics at 1992,?',
                'Did Cristiano Ronaldo play for Juventus? If yes, is Juventus located in the city turin?',
                'Did Neymar Jr play for Paris Saint-Germain? If yes, is Paris Saint-Germain located in the city paris? If yes did paris host the summer olympics at 1924,1900,?',
                'Did K. Mbappe play for Paris Saint-Germain? If yes, is Paris Saint-Germain located in the city paris? If yes did paris host the summer olympics at 1924,1900,?',
            ],
        );
        assert.equal(g.stats.skippedDangling, 1, 'Ghost FC is not a club: no question');
        assert.ok(qs.every(q => q.kind === 'knows' && q.knownIf === 'no_word_no'));
    });

    it('`asks separate`: one question per clause (a clause whose condition fails is not asked)', async t => {
        const w = await world(OLYMPICS_SPEC + KNOWS, OLYMPICS_FILES);
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'know_each' }).questions];
        const ronaldo = qs.filter(q => q.entity.key[0] === 'Cristiano Ronaldo');
        assert.deepEqual(
            ronaldo.map(q => q.phrasing),
            ['ask1'],
        );
        const messi = qs.filter(q => q.entity.key[0] === 'L. Messi');
        assert.deepEqual(
            messi.map(q => [q.phrasing, q.question]),
            [
                ['ask1', 'Did L. Messi play for FC Barcelona?'],
                ['ask2', 'Did barcelona host the Summer Olympics?'],
            ],
        );
        assert.equal(qs[0]!.knownIf, undefined, 'the default rule is not written onto the question');
    });

    it('a name no FK chain reaches is a located error', async t => {
        const spec = `${OLYMPICS_SPEC}\nrelation Lone from cities { name: text key (name) }\nprobe bad knows about Player { ask "Is {Lone.name} it?" }\n`;
        const w = await world(spec, OLYMPICS_FILES);
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'bad' });
        assert.equal([...g.questions].length, 0);
        assert.ok(
            g.diagnostics.some(p => p.code === 'unknown-attribute' && /no chain of fks/.test(p.message)),
            JSON.stringify(g.diagnostics),
        );
    });
});

describe('knowledge rules (known_if)', () => {
    const movie = (knownIf?: 'no_word_no') =>
        question('Do you know the movie No Country for Old Men released in 2007?', [], {
            kind: 'knows',
            entity: { relation: 'Movie', key: ['No Country for Old Men', '2007'] },
            ...(knownIf ? { knownIf } : {}),
        });
    const read = (response: string, knownIf?: 'no_word_no') => knows(movie(knownIf), response, parseBinary(response));

    it('only_yes (default, the paper\'s text): a yes without any "no"', () => {
        assert.equal(read('Yes, Yes, Yes.'), true);
        assert.equal(
            read('Yes. No Country for Old Men was directed by the Coen brothers.'),
            true,
            'the title\'s own "No" is masked',
        );
        assert.equal(read('Yes, but no, Tommy Lee Jones did not direct it.'), false);
        assert.equal(read('I do not have enough information about that movie.'), false);
    });

    it('no_word_no (the authors\' code): known unless the word "no" appears, whatever else is said', () => {
        assert.equal(read('Yes, Yes, Yes.', 'no_word_no'), true);
        assert.equal(read('I do not have enough information about that movie.', 'no_word_no'), true);
        assert.equal(read('Yes. No Country for Old Men was directed by the Coen brothers.', 'no_word_no'), true);
        assert.equal(read('Yes, No.', 'no_word_no'), false);
        assert.equal(read('NO.', 'no_word_no'), false);
    });
});

describe('knowledge probes in a suite with prompt variants', () => {
    it('are asked zero-shot, once, whatever variants the suite compares', async t => {
        const spec = `${OLYMPICS_SPEC}${KNOWS}\nsuite s { probes olympics, know_player  sample all  variant zero_shot  variant cot }\n`;
        const w = await world(spec, OLYMPICS_FILES);
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { suite: 's' }).questions];
        const knowsQs = qs.filter(q => q.kind === 'knows');
        assert.equal(knowsQs.length, 4, 'one per entity, not one per variant');
        assert.ok(
            knowsQs.every(q => q.variant === 'zero_shot' && q.messages.length === 2),
            'system prompt and the question, no demonstrations',
        );
        assert.deepEqual([...new Set(qs.filter(q => q.kind === 'path').map(q => q.variant))].sort(), ['cot', 'zero_shot']);
    });
});
