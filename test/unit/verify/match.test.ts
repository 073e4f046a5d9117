import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createVerifyContext, verify } from '../../../src/core/verify/verify.js';
import { data, kw, question, spec } from '../../fixtures/verify/world.js';

const ctx = createVerifyContext(spec, data);
const Q = 'Is there a movie, released in 2009, starring CCH Pounder where James Cameron is the director?';
const title = kw('Movie', 'title', 'Avatar');

function check(response: string, keyword = title, q = Q) {
    const v = verify(question(q, [[keyword]]), response, ctx, 'm');
    return { v, k: v.hops[0]!.keywords[0]! };
}

describe('keyword matching', () => {
    it('finds the keyword exactly and gives its span in the response', () => {
        const r = 'Yes. The movie is "Avatar".';
        const { v, k } = check(r);
        assert.equal(k.status, 'found');
        assert.equal(k.rule, 'exact');
        assert.equal(r.slice(k.spans[0]!.start, k.spans[0]!.end), 'Avatar');
        assert.equal(v.rationale, true);
        assert.equal(v.correct, true);
    });

    it('normalises case, accents and whitespace', () => {
        const { k } = check('Yes, AVATAR it is.');
        assert.equal(k.status, 'found');
        assert.equal(k.rule, 'normalised');
        const r = 'Yes, it is Ame\u0301lie by Jeunet.';
        const a = check(r, kw('Movie', 'title', 'Amélie'), 'Is there a movie from 2001 by Jean-Pierre Jeunet?');
        assert.equal(a.k.status, 'found');
        assert.equal(r.slice(a.k.spans[0]!.start, a.k.spans[0]!.end), 'Ame\u0301lie');
    });

    it('falls back to punctuation-stripped matching, with curly apostrophes', () => {
        const { k } = check(
            'Yes. It is \u201cPirates of the Caribbean \u2013 At World\u2019s End\u201d.',
            kw('Movie', 'title', "Pirates of the Caribbean: At World's End"),
            'Is there a movie with Johnny Depp from 2007?',
        );
        assert.equal(k.status, 'found');
        assert.equal(k.rule, 'punctuation');
    });

    it('needs word boundaries: "Up" is not found in "update"', () => {
        const { k } = check(
            'Yes, after the update it was released.',
            kw('Movie', 'title', 'Up'),
            'Is there a movie from 2009 by Pete Docter?',
        );
        assert.equal(k.status, 'missing');
    });

    it('applies name_parts to people (last or first name)', () => {
        const { k } = check(
            'Yes. Cameron was born in 1954.',
            kw('Director', 'name', 'James Cameron'),
            'Was the director of Avatar born in the 1950s?',
        );
        assert.equal(k.status, 'found');
        assert.equal(k.rule, 'name_parts');
    });

    it('applies round(2) to numbers', () => {
        const { k } = check(
            'Yes, that is Incheon at 37.47 N.',
            kw('Airport', 'lat', '37.4691'),
            'Is there an airport at latitude 37.4691?',
        );
        assert.equal(k.status, 'found');
        assert.equal(k.rule, 'round(2)');
        assert.equal(
            check('Yes, at 37.48.', kw('Airport', 'lat', '37.4691'), 'Is there an airport at latitude 37.4691?').k.status,
            'missing',
        );
    });

    it('applies truncate(2) and tolerance(1)', () => {
        assert.equal(check('Yes, longitude 126.45 E.', kw('Airport', 'lon', '126.4505'), 'Where?').k.rule, 'truncate(2)');
        assert.equal(check('Yes, he is 181 cm tall.', kw('Player', 'height', '180'), 'Is he tall?').k.rule, 'tolerance(1)');
        assert.equal(check('Yes, he is 182 cm tall.', kw('Player', 'height', '180'), 'Is he tall?').k.status, 'missing');
    });

    it('uses alias lists and lookups (code ↔ name)', () => {
        const gb = check('Yes, it is in the UK.', kw('Airport', 'country', 'GB'), 'Is Heathrow in Europe?');
        assert.equal(gb.k.rule, 'alias:UK');
        const kr = check('Yes, it is in South Korea.', kw('Airport', 'country', 'KR'), 'Is Incheon in Asia?');
        assert.equal(kr.k.rule, 'lookup');
    });

    it('strips affixes and reads "Month, Year" dates', () => {
        assert.equal(
            check('Yes, that is Narita.', kw('Airport', 'name', 'Narita International'), 'Is there an airport at 35.76?').k.rule,
            'strip',
        );
        const d = check('Yes, it was published in Mar. 2005.', kw('Book', 'date', 'March, 2005'), 'Is there a book by X?');
        assert.equal(d.k.status, 'found');
        assert.equal(d.k.rule, 'month_year');
    });
});

describe('contradictions', () => {
    it('another title of the data stated instead → contradicted, with value, span and row', () => {
        const r = 'Yes. The movie is "Titanic".';
        const { v, k } = check(r);
        assert.equal(k.status, 'contradicted');
        assert.equal(k.conflict!.value, 'Titanic');
        assert.equal(r.slice(k.conflict!.spans[0]!.start, k.conflict!.spans[0]!.end), 'Titanic');
        assert.deepEqual(k.conflict!.row, { file: 'movie.csv', line: 3 });
        assert.equal(v.rationale, false);
        assert.equal(v.failedHop, 1);
    });

    it('keyword written and another title stated too → found, the other value reported as alsoStated', () => {
        const r = 'Yes. It is "Avatar"; Cameron also made "Titanic".';
        const { v, k } = check(r);
        assert.equal(k.status, 'found');
        assert.equal(k.conflict, undefined);
        assert.equal(k.alsoStated!.value, 'Titanic');
        assert.equal(r.slice(k.alsoStated!.spans[0]!.start, k.alsoStated!.spans[0]!.end), 'Titanic');
        assert.equal(v.rationale, true);
    });

    it('a value inside the keyword is no contradiction ("The Dark Knight" in "The Dark Knight Rises")', () => {
        const { k } = check(
            'Yes. The movie is "The Dark Knight Rises".',
            kw('Movie', 'title', 'The Dark Knight Rises'),
            'Is there a movie from 2012 with Tom Hardy?',
        );
        assert.equal(k.status, 'found');
    });

    it('part of a longer quoted name is no contradiction', () => {
        const { k } = check(
            'No. You may mean "The Dark Knight Returns", an animated film.',
            kw('Movie', 'title', 'Spectre'),
            'Is there a movie from 2015?',
        );
        assert.equal(k.status, 'missing');
    });

    it('values written in the question are not claims', () => {
        const { k } = check(
            'No. Titanic was released in 1997, not 2009.',
            title,
            'Is Titanic a movie released in 2009 by James Cameron?',
        );
        assert.equal(k.status, 'missing');
    });

    it('short, common or lower-case words are not claims ("home", "up", sentence starts)', () => {
        assert.equal(check('No, I went home. It is not up to me.').k.status, 'missing');
        assert.equal(check('No. Home is where the heart is.').k.status, 'missing');
        assert.equal(check('Yes. The story is set in spectre territory.', title).k.status, 'missing');
        assert.equal(check('Yes. The story is set in the Inception era.', title).k.status, 'contradicted');
    });

    it('numbers: another birth year contradicts only when the right one is missing', () => {
        const birth = kw('Director', 'birth_year', '1954');
        const q = 'Was the director who directed the movie titled Avatar that was released in 2009 born in the 1950s?';
        assert.equal(check('Yes, James Cameron was born in 1965.', birth, q).k.status, 'contradicted');
        assert.equal(check('Yes, he was born in 1954 and Nolan in 1970.', birth, q).k.status, 'found');
        assert.equal(check('Yes, Avatar came out in 2009.', birth, q).k.status, 'missing');
        assert.equal(check('Yes, born in the 1950s.', birth, q).k.status, 'missing');
    });

    it('can be switched off', () => {
        const off = createVerifyContext(spec, data, { contradictions: false });
        const v = verify(question(Q, [[title]]), 'Yes. The movie is "Titanic".', off, 'm');
        assert.equal(v.hops[0]!.status, 'missing');
    });
});

describe('hops and answers', () => {
    it('reports each hop and the first failed hop', () => {
        const q = question(
            'Was the director of Avatar born in the 1950s?',
            [[kw('Movie', 'director', 'James Cameron')], [kw('Director', 'birth_year', '1954')]],
            { kind: 'path' },
        );
        const v = verify(q, 'Yes. James Cameron was born in 1954.', ctx, 'm');
        assert.deepEqual(
            v.hops.map(h => h.status),
            ['found', 'found'],
        );
        const w = verify(q, 'Yes. James Cameron was born in the fifties.', ctx, 'm');
        assert.deepEqual(
            w.hops.map(h => h.status),
            ['found', 'missing'],
        );
        assert.equal(w.failedHop, 2);
    });

    it('a multi-valued keyword needs every value (one keyword per item)', () => {
        const years = [kw('City', 'hosted', '1992'), kw('City', 'hosted', '1996')];
        const q = question('Did the city host the Summer Olympics?', [years], { kind: 'path' });
        assert.equal(verify(q, 'Yes, in 1992 and in 1996.', ctx, 'm').hops[0]!.status, 'found');
        const partial = verify(q, 'Yes, in 1992.', ctx, 'm');
        assert.equal(partial.hops[0]!.status, 'missing');
        assert.deepEqual(
            partial.hops[0]!.keywords.map(k => k.status),
            ['found', 'missing'],
        );
    });

    it('choice questions: option against gold', () => {
        const q = question('What is the false option about Avatar?', [[kw('Movie', 'year', '2009')]], {
            kind: 'choice',
            gold: 2,
            options: ['a', 'b', 'c'],
        });
        const v = verify(q, 'Option 2 is false: Avatar came out in 2009.', ctx, 'm');
        assert.equal(v.answer, 'option');
        assert.equal(v.option, 2);
        assert.equal(v.correct, true);
        assert.equal(v.rationale, true);
    });

    it('knows questions: known iff yes and no word "no" outside the entity name', () => {
        const q = question('Do you know the movie No Country for Old Men?', [], {
            kind: 'knows',
            entity: { relation: 'Movie', key: ['No Country for Old Men', '2007'] },
        });
        assert.equal(verify(q, 'Yes, No Country for Old Men is by the Coens.', ctx, 'm').known, true);
        assert.equal(verify(q, 'Yes. No. Yes.', ctx, 'm').known, false);
        assert.equal(verify(q, 'I know it.', ctx, 'm').known, false);
    });
});

describe('what verdicts of a run share', () => {
    it('a reading written alike is one frozen object; readings at the same place in other words are not mixed up', () => {
        const run = createVerifyContext(spec, data);
        const q = question(Q, [[title]]);
        const a = verify(q, 'Yes. The movie is "Avatar".', run, 'm');
        const b = verify(q, 'Yes, it is Avatar, by Cameron.', run, 'm');
        const no = verify(q, 'Nah. The movie is "Titanic".', run, 'm');
        const yep = verify(q, 'Yep. The movie is "Avatar".', run, 'm');
        assert.equal(a.read!.text, 'Yes');
        assert.equal(b.read, a.read);
        assert.ok(Object.isFrozen(a.read) && Object.isFrozen(a.read!.span) && Object.isFrozen(a.read!.spans![0]));
        // the same span [0, 3] as "Yes", and the same lengths: each keeps its own words and what they say
        assert.equal(no.read!.text, 'Nah');
        assert.equal(no.answer, 'no');
        assert.equal(yep.read!.text, 'Yep');
        assert.deepEqual(
            [a, no, yep].map(v => v.read!.spans!.map(x => `${x.text}:${x.says}`).join()),
            ['Yes:pos', 'Nah:neg', 'Yep:pos'],
        );
        // a verdict's JSON is the same whether its reading was shared or built for it
        const fresh = verify(q, 'Yes, it is Avatar, by Cameron.', createVerifyContext(spec, data), 'm');
        assert.equal(JSON.stringify(b), JSON.stringify(fresh));
    });

    it('a keyword missing without another value stated is one frozen verdict per keyword; found ones are not shared', () => {
        const run = createVerifyContext(spec, data);
        const q = question(Q, [[title]]);
        const a = verify(q, 'Yes, I believe so.', run, 'm').hops[0]!.keywords[0]!;
        const b = verify(q, 'No, not that I know of.', run, 'm').hops[0]!.keywords[0]!;
        assert.deepEqual(a, { relation: 'Movie', attribute: 'title', value: 'Avatar', status: 'missing', spans: [] });
        assert.equal(b, a);
        assert.ok(Object.isFrozen(a) && Object.isFrozen(a.spans));
        const c = verify(q, 'Yes, Avatar.', run, 'm').hops[0]!.keywords[0]!;
        const d = verify(q, 'Yes, Avatar.', run, 'm').hops[0]!.keywords[0]!;
        assert.equal(c.status, 'found');
        assert.notEqual(c, d);
        assert.ok(!Object.isFrozen(c));
    });

    it('a keyword found once shares the frozen span list of its position, whatever the response; found twice it does not', () => {
        const run = createVerifyContext(spec, data);
        const q = question(Q, [[title]]);
        // two different responses with "Avatar" at [5, 11]
        const a = verify(q, 'Yes, Avatar.', run, 'm').hops[0]!.keywords[0]!;
        const b = verify(q, 'Yes! Avatar (2009) by James Cameron.', run, 'm').hops[0]!.keywords[0]!;
        assert.deepEqual(a.spans, [{ start: 5, end: 11 }]);
        assert.equal(b.spans, a.spans);
        assert.ok(Object.isFrozen(a.spans) && Object.isFrozen(a.spans[0]));
        // elsewhere: its own list; twice: a list of its own, not frozen
        const c = verify(q, 'Yes, it is Avatar.', run, 'm').hops[0]!.keywords[0]!;
        assert.deepEqual(c.spans, [{ start: 11, end: 17 }]);
        assert.notEqual(c.spans, a.spans);
        const twice = verify(q, 'Yes, Avatar. Avatar!', run, 'm').hops[0]!.keywords[0]!;
        assert.deepEqual(twice.spans, [
            { start: 5, end: 11 },
            { start: 13, end: 19 },
        ]);
        assert.ok(!Object.isFrozen(twice.spans));
        // a verdict's JSON is the same whether its spans were shared or made for it
        const fresh = verify(q, 'Yes! Avatar (2009) by James Cameron.', createVerifyContext(spec, data), 'm');
        assert.equal(JSON.stringify(verify(q, 'Yes! Avatar (2009) by James Cameron.', run, 'm')), JSON.stringify(fresh));
    });
});

describe('bad input gives a verdict, never an exception', () => {
    const cases: [string, string][] = [
        ['empty', ''],
        ['1 MB', 'Yes. ' + 'Avatar and Titanic are films. '.repeat(35_000)],
        ['binary garbage', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1')],
        ['lone surrogates', 'Yes \ud800 Avatar \udfff'],
        ['right-to-left', '\u202eYes. \u0627\u0644\u0641\u064a\u0644\u0645 Avatar \u05e9\u05dc\u05d5\u05dd'],
        ['HTML', '<p><b>Yes</b>. The movie is <i>Avatar</i>.</p><script>alert(1)</script>'],
        ['Markdown', '# Yes\n\n- **Movie**: _Avatar_\n- `2009`\n\n| a | b |\n|---|---|'],
    ];
    for (const [name, text] of cases) {
        it(name, () => {
            const v = verify(question(Q, [[title]]), text, ctx, 'm');
            assert.ok(['yes', 'no', 'unsure', 'unparseable'].includes(v.answer));
            assert.equal(v.hops.length, 1);
            assert.ok(['found', 'missing', 'contradicted'].includes(v.hops[0]!.status));
        });
    }

    it('a verdict on 1 MB has spans inside the response', () => {
        const text = 'Yes. ' + 'x'.repeat(1 << 20) + ' Avatar';
        const v = verify(question(Q, [[title]]), text, ctx, 'm');
        const s = v.hops[0]!.keywords[0]!.spans[0]!;
        assert.equal(text.slice(s.start, s.end), 'Avatar');
    });
});
