import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_STEMS, generateQuestions, SYSTEM_CHOICE, SYSTEM_CHOICE_NONE } from '../../../../src/core/probes/index.js';
import { world } from '../../../fixtures/probes/world.js';
import { parseChoiceAnswer } from '../../../../src/core/families/choice/family.js';
import { readOption } from '../../../../src/core/families/choice/draws.js';
import { parseTemplate } from '../../../../src/core/spec/template.js';
import { DEFAULT_RATES, OfflineClient } from '../../../../src/core/models/offline.js';

const CSV = [
    'title,year,director,country,genre',
    'Avatar,2009,James Cameron,USA,non-animation',
    'Up,2009,Pete Docter,USA,animation',
    'Spectre,2015,Sam Mendes,UK,non-animation',
    'Amelie,2001,Jean-Pierre Jeunet,France,non-animation',
    'Akira,1988,Katsuhiro Otomo,Japan,animation',
    'Coco,2017,Lee Unkrich,USA,animation',
    'Heat,1995,Michael Mann,USA,non-animation',
    'Ran,1985,Akira Kurosawa,Japan,non-animation',
].join('\n');

const SPEC = (probe: string) => `
source films csv "films.csv"
relation Movie from films label "movie" {
    title: text
    year: int label "release year"
    director: text
    country: text
    genre: text
    key (title, year)
}
fd Movie: title, year -> director, country, genre as facts
${probe}`;

const rowsOf = () =>
    new Map(
        CSV.split('\n')
            .slice(1)
            .map(l => l.split(','))
            .map(r => [r[0]!, r]),
    );

describe('choice probes', () => {
    it('falsify exactly one option with another value of its column; gold is that option', async t => {
        const w = await world(
            SPEC(`probe mc choice using facts {
    subject "the movie {title} released in year {year}"
    option director "Directed by {director}."
    option country "Produced in the country {country}."
    option genre "It is {article(genre)} {genre} movie."
}`),
            { 'films.csv': CSV },
        );
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'mc' }).questions];
        assert.equal(qs.length, 8 * 3, 'three stems per row');
        const truth = rowsOf();
        for (const q of qs) {
            assert.equal(typeof q.gold, 'number');
            const row = truth.get(q.entity.key[0]!)!;
            const trueTexts = [
                `Directed by ${row[2]}.`,
                `Produced in the country ${row[3]}.`,
                `It is ${row[4] === 'animation' ? 'an' : 'a'} ${row[4]} movie.`,
            ];
            const differing = q.options!.map((o, i) => (o === trueTexts[i] ? -1 : i)).filter(i => i >= 0);
            assert.deepEqual(differing, [(q.gold as number) - 1], `exactly the gold option is false: ${q.question}`);
            const attr = ['director', 'country', 'genre'][(q.gold as number) - 1]!;
            assert.deepEqual(q.keywords, [
                [{ relation: 'Movie', attribute: attr, value: row[['director', 'country', 'genre'].indexOf(attr) + 2]! }],
            ]);
            // A two-valued column is flipped.
            if (attr === 'genre')
                assert.equal(q.options![2], `It is ${row[4] === 'animation' ? 'a non-animation' : 'an animation'} movie.`);
            assert.equal(q.messages[0]!.content, SYSTEM_CHOICE);
        }
        const first = qs[0]!;
        assert.equal(first.phrasing, 'stem-1');
        assert.equal(
            first.question.split('\n')[0],
            "Q: What's the inaccurate option about the movie Avatar released in year 2009? Provide an explanation.",
        );
        assert.match(first.question, /^Q: .+ Provide an explanation\.\nOption 1: .+\nOption 2: .+\nOption 3: .+\nA: $/);
        assert.equal(
            qs[1]!.question.split('\n')[0],
            DEFAULT_STEMS[1]!.replace('{subject}', 'the movie Avatar released in year 2009').replace(/^/, 'Q: ') +
                ' Provide an explanation.',
        );
        // The three stems of a row share the falsified option.
        assert.deepEqual(
            qs.slice(0, 3).map(q => q.options),
            [first.options, first.options, first.options],
        );
    });

    it('mixes in all-true questions with gold none and the None-of-above prompt', async t => {
        const w = await world(
            SPEC('probe mc choice using facts {\n none_of_above 0.5\n stem "Which is false about {title}?"\n}'),
            { 'films.csv': CSV },
        );
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'mc', seed: 4 }).questions];
        assert.equal(qs.length, 8);
        const none = qs.filter(q => q.gold === 'none');
        assert.ok(none.length > 0 && none.length < 8, `some but not all all-true (${none.length})`);
        for (const q of none) {
            assert.deepEqual(q.keywords, []);
            assert.ok(q.options!.every(o => /^The (director|country|genre) is /.test(o)));
        }
        for (const q of qs) assert.equal(q.messages[0]!.content, SYSTEM_CHOICE_NONE);
    });

    it('is deterministic: the same seed falsifies the same options', async t => {
        const w = await world(SPEC('probe mc choice using facts {}'), { 'films.csv': CSV });
        t.after(w.dispose);
        const run = (seed: number) =>
            [...generateQuestions(w.model, w.data, { probe: 'mc', seed }).questions]
                .map(q => `${q.id} ${q.gold} ${q.options!.join('|')}`)
                .sort();
        assert.deepEqual(run(1), run(1));
        assert.notDeepEqual(run(1), run(2));
        const suites = await world(
            SPEC('probe mc choice using facts {}\nsuite s1 { probes mc  seed 1 }\nsuite s2 { probes mc  seed 2 }'),
            { 'films.csv': CSV },
        );
        t.after(suites.dispose);
        const bySuite = (suite: string) =>
            [...generateQuestions(suites.model, suites.data, { suite }).questions]
                .map(q => `${q.id} ${q.gold} ${q.options!.join('|')}`)
                .sort();
        assert.deepEqual(bySuite('s1'), run(1), "the suite's seed setting seeds the falsification");
        assert.notDeepEqual(bySuite('s1'), bySuite('s2'));
    });

    it("a row's stems test the same facts: one list, made once per row and shared by its questions", async t => {
        const w = await world(SPEC('probe mc choice using facts {}'), { 'films.csv': CSV });
        t.after(w.dispose);
        const qs = [...generateQuestions(w.model, w.data, { probe: 'mc', seed: 4 }).questions];
        assert.equal(qs.length, 8 * 3);
        for (let i = 0; i < qs.length; i += 3) {
            const row = qs.slice(i, i + 3);
            assert.deepEqual(new Set(row.map(q => q.entity.key.join())).size, 1);
            assert.equal(row[0]!.facts!.length, 3, 'one fact per option');
            assert.equal(row[1]!.facts, row[0]!.facts);
            assert.equal(row[2]!.facts, row[0]!.facts);
        }
    });
});

/** One logged question in the authors' multiple-choice layout. */
const logged = (row: number, movie: string, options: string[], gold: number, entity: string) =>
    [
        '========================================',
        `${row}-0th question`,
        '<Question> ',
        `Q: What's the inaccurate option about the movie ${movie}? Provide an explanation.`,
        ...options.map((o, i) => `Option ${i + 1}: ${o}`),
        '',
        'A: ',
        '',
        '<Answer> ',
        `Option ${gold}.`,
        '',
        '<Gold Answer> ',
        String(gold),
        '',
        '<Gold Entity> ',
        entity,
    ].join('\n');

/** Avatar's genre and Up's director were falsified; the record for Spectre calls the true country false. */
const LOG = [
    logged(
        0,
        'Avatar released in year 2009',
        ['Directed by James Cameron.', 'Produced in the country USA.', 'Has the genre of animation movie.'],
        3,
        'non-animation',
    ),
    logged(
        1,
        'Up released in year 2009',
        ['Directed by Sam Mendes.', 'Produced in the country USA.', 'Has the genre of animation movie.'],
        1,
        'Pete Docter',
    ),
    logged(
        2,
        'Spectre released in year 2015',
        ['Directed by Sam Mendes.', 'Produced in the country UK.', 'Has the genre of non-animation movie.'],
        2,
        'UK',
    ),
].join('\n');

const PUBLISHED = `probe mc choice using facts {
    draws_from "published.log"
    stem "What's the inaccurate option about the movie {title} released in year {year}?"
    option director "Directed by {director}."
    option country "Produced in the country {country}."
    option genre "Has the genre of {genre} movie."
}`;

describe('choice probes from recorded draws (draws_from)', () => {
    it('take the falsified option and its false value from the log, matched by stem; verify against the data', async t => {
        const w = await world(SPEC(PUBLISHED), { 'films.csv': CSV, 'published.log': LOG });
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'mc' });
        const qs = [...g.questions];
        assert.deepEqual(
            qs.map(q => q.entity.key[0]),
            ['Avatar', 'Up'],
            'rows without a usable recorded question give none',
        );
        const [avatar, up] = qs;
        assert.equal(avatar!.gold, 3);
        assert.deepEqual(avatar!.keywords, [[{ relation: 'Movie', attribute: 'genre', value: 'non-animation' }]]);
        assert.equal(
            avatar!.question,
            "Q: What's the inaccurate option about the movie Avatar released in year 2009? Provide an explanation.\nOption 1: Directed by James Cameron.\nOption 2: Produced in the country USA.\nOption 3: Has the genre of animation movie.\nA: ",
        );
        assert.equal(up!.gold, 1);
        assert.deepEqual(up!.options, [
            'Directed by Sam Mendes.',
            'Produced in the country USA.',
            'Has the genre of animation movie.',
        ]);
        assert.deepEqual(
            up!.keywords[0]!.map(k => k.value),
            ['Pete Docter'],
        );
        // Spectre's log says the UK is false, but the data says UK: that record does not fit the data.
        assert.match(
            g.stats.byProbe.mc?.notes?.[0] ?? '',
            /2 questions from the draws recorded in .*published\.log; 1 recorded questions not used/,
        );
    });

    it('a log that cannot be read is a located error with a remedy', async t => {
        const w = await world(SPEC(PUBLISHED), { 'films.csv': CSV });
        t.after(w.dispose);
        const g = generateQuestions(w.model, w.data, { probe: 'mc' });
        assert.equal([...g.questions].length, 0);
        assert.ok(
            g.diagnostics.some(
                d => d.code === 'probe-setting' && /draws_from: .*published\.log cannot be read \(ENOENT\)/.test(d.message),
            ),
        );
    });
});

describe('multiple-choice answers: the M rule', () => {
    const q = { options: ['a', 'b', 'c'] };
    it('an answer naming no option that declines (sorry, cannot, not enough, specific …) is unsure, not none of the above', () => {
        assert.equal(
            parseChoiceAnswer("I'm sorry, I cannot determine the inaccurate option without additional information.", q).answer,
            'unsure',
        );
        assert.equal(parseChoiceAnswer('There is not enough information to tell.', q).answer, 'unsure');
    });
    it('a plain none of the above stays none; an option stays an option', () => {
        assert.equal(parseChoiceAnswer('None of the above. All three options are correct.', q).answer, 'none');
        assert.equal(parseChoiceAnswer('Option 2: I am sorry, it was produced in the UK.', q).answer, 'option');
    });
});

describe('readOption', () => {
    it("reads the attribute's value out of an option text through its template", () => {
        assert.equal(
            readOption(parseTemplate('Directed by {director}.'), 'director', 'Directed by James Cameron.'),
            'James Cameron',
        );
        assert.equal(
            readOption(parseTemplate('It is {article(genre)} {genre} movie.'), 'genre', 'It is an animation movie.'),
            'animation',
        );
        assert.equal(readOption(parseTemplate('Directed by {director}.'), 'director', 'Produced in the country USA.'), undefined);
        assert.equal(readOption(parseTemplate('Directed by {director}.'), 'country', 'Directed by James Cameron.'), undefined);
    });
});

describe('offline simulator on choice questions', () => {
    it('a simulator that knows everything answers every question right (its answer names the option as models do)', async t => {
        const w = await world(SPEC('probe mc choice using facts {}'), { 'films.csv': CSV });
        t.after(w.dispose);
        const sim = new OfflineClient('s', { ...DEFAULT_RATES, knowledge: 1, unsure: 0, omit: 0, contradict: 0 });
        const qs = [...generateQuestions(w.model, w.data, { probe: 'mc', seed: 3 }).questions];
        assert.ok(qs.length > 0);
        for (const q of qs) {
            const parsed = parseChoiceAnswer(sim.answer(q), q);
            assert.equal(parsed.option, q.gold, sim.answer(q));
        }
    });
});
