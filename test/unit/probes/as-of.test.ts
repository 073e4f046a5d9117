// `as of`: questions asked in their time, and outdated answers recognised by the response's own dating.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { datedText } from '../../../src/core/probes/as-of.js';
import { laterClaim } from '../../../src/core/verify/outdated.js';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { world } from '../../fixtures/probes/world.js';
import { data, kw, question, spec } from '../../fixtures/verify/world.js';

const CSV = ['name,club,city', 'Messi,FC Barcelona,Barcelona', 'Ronaldo,Juventus,Turin', 'Hazard,Real Madrid,Madrid'].join('\n');
const SPEC = (source: string, relation: string, extra = '') => `
source players csv "players.csv" ${source}
relation Player from players ${relation} label "soccer player" {
    name: text
    club: text
    city: text
    key (name)
}
relation Club from players as of 2021 {
    club: text
    city: text
    key (club)
}
fd Player: name -> club, city as facts
probe b binary using facts {
    basic "Is there a soccer player named {name}?"
}
${extra}`;

describe('as of: questions asked in their time', () => {
    it('prefixes the year and lower-cases a literal opening; a value opening keeps its case; a template naming the date is left alone', () => {
        const at = { text: '2019', year: 2019 };
        assert.equal(
            datedText('Is there a player named Messi?', at, ['Is there a player named {name}?']),
            'In 2019, is there a player named Messi?',
        );
        assert.equal(
            datedText('Messi plays for FC Barcelona.', at, ['{name} plays for {club}.']),
            'In 2019, Messi plays for FC Barcelona.',
        );
        assert.equal(datedText('USA is home to Messi.', at, ['USA is home to {name}.']), 'In 2019, USA is home to Messi.');
        assert.equal(
            datedText('Did Messi play there in 2019?', at, ['Did {name} play there in 2019?']),
            'Did Messi play there in 2019?',
        );
        assert.equal(
            datedText('Is Messi in Miami?', { text: 'June 2019', year: 2019 }, ['Is {name} in Miami?']),
            'As of June 2019, is Messi in Miami?',
        );
    });

    it("a relation's own date wins over its source's; a dated question is another question (another id)", async t => {
        const undated = await world(SPEC('', ''), { 'players.csv': CSV });
        const bySource = await world(SPEC('as of 2019', ''), { 'players.csv': CSV });
        const byRelation = await world(SPEC('as of 2019', 'as of "March 2018"'), { 'players.csv': CSV });
        t.after(() => {
            undated.dispose();
            bySource.dispose();
            byRelation.dispose();
        });
        const first = (w: typeof undated) => [...generateQuestions(w.model, w.data, { probe: 'b' }).questions][0]!;
        assert.equal(first(undated).question, 'Is there a soccer player named Messi?');
        assert.equal(first(undated).asOf, undefined);
        assert.equal(first(bySource).question, 'In 2019, is there a soccer player named Messi?');
        assert.deepEqual(first(bySource).asOf, { text: '2019', year: 2019 });
        assert.equal(first(byRelation).question, 'As of March 2018, is there a soccer player named Messi?');
        assert.notEqual(first(bySource).id, first(undated).id);
    });

    it("a probe reading relations dated differently is warned about and asks in its first relation's time", async t => {
        const w = await world(
            SPEC(
                'as of 2019',
                '',
                `fk Player.club -> Club.club
probe p path along Player.club -> Club.city {
    basic "Is the club {name} played for in {city}?"
}`,
            ),
            { 'players.csv': CSV },
        );
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'p' });
        const qs = [...g.questions];
        assert.ok(qs.length > 0);
        assert.match(qs[0]!.question, /^In 2019, /);
        assert.ok(
            g.diagnostics.some(d => d.code === 'as-of-mixed' && /Player \(as of 2019\) and Club \(as of 2021\)/.test(d.message)),
            JSON.stringify(g.diagnostics),
        );
    });
});

describe('as of: outdated answers', () => {
    it("reads the response's own dating: a year after the snapshot not in the question, or present-time words", () => {
        const q = 'In 2019, did Messi play for FC Barcelona?';
        const joined = 'No, he joined Inter Miami in 2023.';
        assert.deepEqual(laterClaim(joined, q, 2019), {
            said: '2023',
            span: [joined.indexOf('2023'), joined.indexOf('2023') + 4],
        });
        assert.equal(laterClaim('No, he played there from 2004 to 2019.', q, 2019), undefined, 'not later');
        assert.equal(laterClaim('No. In 2019 he was at PSG.', q, 2019), undefined, 'the asked year');
        assert.equal(laterClaim('No, he currently plays for Inter Miami.', q, 2019)?.said, 'currently');
        assert.equal(laterClaim('No, he is now at Inter Miami.', q, 2019)?.said, 'is now');
        assert.equal(
            laterClaim('I know he scored 2021 goals? No.', q, 2019)?.said,
            '2021',
            "a number that reads as a year counts: the rule is documented as the response's dating",
        );
        assert.equal(laterClaim('It cost 2,500 dollars.', q, 2019), undefined);
    });

    it('marks a dated question answered wrong with a later claim outdated, with the value stated; right answers, abstentions and undated questions never', () => {
        const ctx = createVerifyContext(spec, data);
        const asOf = { text: '2009', year: 2009 };
        const base = (over = {}) =>
            question('In 2009, is there a movie by James Cameron starring CCH Pounder?', [[kw('Movie', 'title', 'Avatar')]], {
                asOf,
                ...over,
            });
        const said = 'Yes, there is: "Titanic", re-released in 2012.';
        const wrong = verify(base({ gold: 'no' }), said, ctx, 'm');
        assert.deepEqual(wrong.outdated, {
            asOf: '2009',
            said: '2012',
            span: [said.indexOf('2012'), said.indexOf('2012') + 4],
            value: 'Titanic',
        });
        assert.equal(verify(base(), 'Yes, "Avatar", re-released in 2012.', ctx, 'm').outdated, undefined, 'a right answer');
        assert.equal(
            verify(base({ gold: 'no' }), 'Unsure: maybe something in 2012.', ctx, 'm').outdated,
            undefined,
            'an abstention',
        );
        assert.equal(
            verify(base({ gold: 'no', asOf: undefined }), 'Yes, there is: "Titanic", re-released in 2012.', ctx, 'm').outdated,
            undefined,
            'an undated question',
        );
        assert.equal(
            verify(base({ gold: 'no' }), 'Yes, there is: "Titanic".', ctx, 'm').outdated,
            undefined,
            'another value without a later date is plainly wrong',
        );
    });
});
