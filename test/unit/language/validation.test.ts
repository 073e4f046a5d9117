import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { covered, diagnose, MOVIE, parseSpec } from './support.js';

describe('language diagnostics', () => {
    it('the movie spec is clean', async () => {
        const ds = await diagnose(MOVIE);
        assert.deepEqual(
            ds.map(d => `${d.code}: ${d.message}`),
            [],
        );
    });

    // Each case: a snippet appended to (or replacing part of) the movie spec, the code expected, and the text
    // the diagnostic must cover (its exact range).
    const cases: { name: string; add?: string; replace?: [string, string]; code: string; covers?: string; message?: RegExp }[] = [
        {
            name: 'unresolved relation with suggestion',
            add: 'fd Movei: title -> year',
            code: 'unresolved-name',
            covers: 'Movei',
            message: /Unknown relation 'Movei'.*Did you mean 'Movie'/,
        },
        {
            name: 'unresolved attribute names its relation',
            add: 'fd Movie: titel -> year',
            code: 'unresolved-name',
            covers: 'titel',
            message: /attribute 'titel' in relation Movie.*'title'/,
        },
        {
            name: 'unresolved probe in a suite',
            add: 'suite s2 { probes movie_binar }',
            code: 'unresolved-name',
            covers: 'movie_binar',
            message: /Unknown probe/,
        },
        {
            name: 'duplicate relation',
            add: 'relation Movie from movies { a: int }',
            code: 'duplicate-name',
            message: /Duplicate relation name 'Movie'/,
        },
        {
            name: 'duplicate attribute',
            replace: ['    star: text = "entity1"', '    star: text = "entity1"\n    star: int'],
            code: 'duplicate-name',
            message: /already has an attribute 'star'/,
        },
        {
            name: 'key names an attribute twice',
            replace: ['key (title, year)', 'key (title, title)'],
            code: 'key-duplicate-attribute',
        },
        { name: 'fd attribute on both sides', add: 'fd Movie: title, year -> year', code: 'fd-overlap' },
        { name: 'fk of different arity', add: 'fk Movie(title, year) -> Director.name', code: 'fk-arity' },
        {
            name: 'fk between incompatible types',
            add: 'fk Movie.title -> Director.birth_year',
            code: 'fk-type',
            message: /text but Director.birth_year is int/,
        },
        { name: 'csv source with a table', add: 'source other csv "x.csv" table "t"', code: 'source-shape' },
        { name: 'sqlite source without table', add: 'source db sqlite "x.db"', code: 'source-shape' },
        {
            name: 'unknown template attribute at its exact range',
            replace: ['starring {star}', 'starring {starr}'],
            code: 'unknown-attribute',
            covers: 'starr',
            message: /Did you mean 'star'/,
        },
        {
            name: 'joined attribute needs qualification',
            replace: ['the director?"\n    negated', 'the director, born {birth_year}?"\n    negated'],
            code: 'unknown-attribute',
            covers: 'birth_year',
            message: /\{Director\.birth_year\}/,
        },
        {
            name: 'list attribute outside a list function',
            add: 'probe p3 binary using movie_title { phrasing g gold yes "Genres {genres}?" }',
            code: 'list-attribute',
            covers: 'genres',
        },
        {
            name: 'unknown template function',
            replace: ['{decade(birth_year)}', '{decad(birth_year)}'],
            code: 'unknown-function',
            covers: 'decad',
            message: /Did you mean 'decade'/,
        },
        {
            name: 'wrong arity',
            replace: ['{decade(birth_year)}', '{decade(birth_year, 2)}'],
            code: 'function-arity',
            covers: 'decade(birth_year, 2)',
        },
        { name: 'unclosed placeholder', replace: ['released in {year}?', 'released in {year?'], code: 'template-syntax' },
        {
            name: 'when condition does not parse',
            add: 'probe p4 binary using movie_title { phrasing g when "year >" "In {year}?" }',
            code: 'condition-syntax',
        },
        {
            name: "an ask's when condition is checked too",
            add: 'probe k1 knows about Movie { ask when "nonempty(genress)" "Do you know {title}?" }',
            code: 'unknown-attribute',
            covers: 'genress',
        },
        {
            name: "an ask's when condition that does not parse",
            add: 'probe k2 knows about Movie { ask when "year >" "Do you know {title}?" }',
            code: 'condition-syntax',
        },
        { name: 'binary probe without an fd', add: 'probe p5 binary about Movie { basic "x" }', code: 'probe-target' },
        {
            name: 'path hop without fk',
            add: 'probe p6 path along Director.name -> Movie.title { basic "x" }',
            code: 'path-no-fk',
        },
        {
            name: 'path cycle',
            add: 'fk Director.name -> Movie.director\nprobe p7 path along Movie.director -> Director.name -> Movie.title { basic "x" }',
            code: 'path-cycle',
        },
        {
            name: 'custom phrasing without gold',
            add: 'probe p8 binary using movie_title { phrasing mine "Is {title} a movie?" }',
            code: 'phrasing-needs-gold',
            covers: 'mine',
        },
        {
            name: 'choice option not on the fd right-hand side',
            add: 'probe p9 choice using movie_title { option year "in {year}" }',
            code: 'option-not-rhs',
            covers: 'year',
        },
        {
            name: 'unknown provider',
            add: 'model m2 opnai { }',
            code: 'unknown-provider',
            covers: 'opnai',
            message: /Did you mean 'openai'/,
        },
        {
            name: 'secret in a model',
            add: 'model m3 openai { api_key "sk-123" }',
            code: 'secret-in-spec',
            message: /key_env "ENV_NAME"/,
        },
        {
            name: 'unknown setting',
            add: 'model m4 openai { temprature 0 }',
            code: 'unknown-setting',
            covers: 'temprature',
            message: /Did you mean 'temperature'/,
        },
        { name: 'suite without probes', add: 'suite s3 { models simulator }', code: 'suite-no-probes' },
        {
            name: 'unknown variant',
            replace: ['variant zero_shot', 'variant zeroshot'],
            code: 'unknown-variant',
            covers: 'zeroshot',
        },
        { name: 'few_shot without a count', replace: ['variant zero_shot', 'variant few_shot'], code: 'variant-args' },
        { name: 'non-positive sample count', replace: ['sample all', 'sample random 0'], code: 'sample-count' },
        { name: 'unknown normaliser', replace: ['name_parts', 'name_part'], code: 'unknown-normaliser', message: /name_parts/ },
        { name: 'normaliser arguments', replace: ['name_parts', 'round(1.5)'], code: 'normaliser-args' },
        { name: 'missing import', add: 'import "nowhere.probe"', code: 'missing-import' },
        { name: 'syntax error', add: 'relation Broken from movies { a: }', code: 'syntax' },
    ];
    for (const c of cases) {
        it(c.name, async () => {
            let text = MOVIE;
            if (c.replace) {
                assert.ok(text.includes(c.replace[0]), `fixture contains ${c.replace[0]}`);
                text = text.replace(c.replace[0], c.replace[1]);
            }
            if (c.add) text += `\n${c.add}\n`;
            const doc = await parseSpec(text);
            const found = (doc.diagnostics ?? []).filter(d => d.code === c.code);
            assert.ok(
                found.length > 0,
                `expected ${c.code}, got ${JSON.stringify(doc.diagnostics?.map(d => [d.code, d.message]))}`,
            );
            if (c.covers)
                assert.ok(
                    found.some(d => covered(doc, d) === c.covers),
                    `a ${c.code} covering '${c.covers}', got ${found.map(d => `'${covered(doc, d)}'`).join(', ')}`,
                );
            if (c.message)
                assert.ok(
                    found.some(d => c.message!.test(String(d.message))),
                    `message ${c.message}: ${found.map(d => d.message).join(' | ')}`,
                );
        });
    }

    it('every diagnostic has a code', async () => {
        const ds = await diagnose(
            `${MOVIE}\nfd Nope: a -> b\nmodel x foo { token "t" }\nprobe q binary using nope { }\n relation {`,
        );
        assert.ok(ds.length >= 4);
        for (const d of ds) assert.equal(typeof d.code, 'string', `no code on: ${d.message}`);
    });

    it('recovers from a syntax error and still analyses the rest of the file', async () => {
        const text =
            MOVIE.replace('relation Director from movies distinct {', 'relation Director from movies distinct { oops ::') +
            '\nmodel m5 opnai { }\n';
        const ds = await diagnose(text);
        assert.ok(
            ds.some(d => d.code === 'syntax'),
            'a syntax error',
        );
        assert.ok(
            ds.some(d => d.code === 'unknown-provider'),
            'a check after the error still runs',
        );
    });
});

describe('imports', () => {
    it('makes names of an imported file visible and reports duplicates across files', async () => {
        await parseSpec(
            'relation Country from c { code: text  name: text  key (code) }\nsource c csv "c.csv"',
            'file:///imp/countries.probe',
        );
        const ok = await diagnose(
            'import "countries.probe"\nsource p csv "p.csv"\nrelation Person from p { name: text  country: text }\nfk Person.country -> Country.code',
            'file:///imp/people.probe',
        );
        assert.deepEqual(
            ok.map(d => d.message),
            [],
        );
        const dup = await diagnose(
            'import "countries.probe"\nsource c2 csv "c.csv"\nrelation Country from c2 { code: text }',
            'file:///imp/dup.probe',
        );
        assert.ok(
            dup.some(d => d.code === 'duplicate-name' && /imported file countries.probe/.test(String(d.message))),
            JSON.stringify(dup.map(d => d.message)),
        );
        const without = await diagnose(
            'source p csv "p.csv"\nrelation Person from p { country: text }\nfk Person.country -> Country.code',
            'file:///imp/noimport.probe',
        );
        assert.ok(without.some(d => d.code === 'unresolved-name' && /Unknown relation 'Country'/.test(String(d.message))));
    });
});

describe('keywords used as names', () => {
    it('parses and links relations, attributes and settings named like keywords, and keeps the keywords working', async () => {
        const spec = `source path csv "x.csv"
relation key from path {
    date: date
    label: text
    key: int
    seed: list<int>
    key (key, date)
}
fd key: key, date -> label as sample
probe first binary using sample {
    basic "On {date}, is {label} the label of {key}?"
    negated "Is it true that {label} is not the label of {key} on {date}?"
}
model all offline { seed 3 knowledge 0.5 }
suite probes {
    probes first
    models all
    sample random 5 seed 2
}
`;
        const parsed = await parseSpec(spec);
        assert.deepEqual(parsed.parseResult.lexerErrors, []);
        assert.deepEqual(
            parsed.parseResult.parserErrors.map(e => e.message),
            [],
        );
        const ds = await diagnose(spec);
        assert.deepEqual(
            ds.filter(d => d.code === 'unresolved-name' || d.code === 'syntax').map(d => d.message),
            [],
        );
    });
});
