/**
 * Which rows a rendered subject could mean (golds.ts SubjectIndex), kept as one ring of row numbers (issue 39):
 * the same rows as grouping every row's subject text, no rendering once it is built, and the questions and ids
 * of multiple choice unchanged by it (hashes recorded on the code before the ring).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { world } from '../../fixtures/probes/world.js';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { Scope } from '../../../src/core/probes/scope.js';
import { SubjectIndex, subjectIndexes } from '../../../src/core/probes/golds.js';
import { render } from '../../../src/core/spec/template.js';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';
import type { RelationTable } from '../../../src/core/data/types.js';
import { sharedMissing, sharedPath } from '../../support/shared.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// King Kong thrice and Heat twice: a subject without the year reads alike for their rows (the Heats agree on every option).
const CSV = [
    'title,year,director,country,genre',
    'King Kong,1933,Merian C. Cooper,USA,non-animation',
    'Up,2009,Pete Docter,USA,animation',
    'King Kong,2005,Peter Jackson,New Zealand,non-animation',
    'Heat,1995,Michael Mann,USA,non-animation',
    'Akira,1988,Katsuhiro Otomo,Japan,animation',
    'Heat,1986,Michael Mann,USA,non-animation',
    'King Kong,1976,John Guillermin,USA,non-animation',
].join('\n');

const SPEC = `
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
probe mc choice using facts {
    stem "What is the false option about the movie {title}?"
    stem "What is the wrong option about the movie {title} released in year {year}?"
    option director "Directed by {director}."
    option country "Produced in the country {country}."
    option genre "It is {article(genre)} {genre} movie."
}`;

const digest = (qs: Iterable<{ id: string; question: string; gold: unknown }>) => {
    const h = createHash('sha256');
    let n = 0;
    for (const q of qs) {
        h.update(`${q.id}\u0000${q.question}\u0000${String(q.gold)}\n`);
        n++;
    }
    return `${n} ${h.digest('hex').slice(0, 16)}`;
};

/** A table whose value reads are counted (a render reads values; a ring lookup reads none). */
function counted(table: RelationTable): { table: RelationTable; reads: () => number } {
    let reads = 0;
    return {
        table: {
            ...table,
            value: (row, attribute) => {
                reads++;
                return table.value(row, attribute);
            },
        },
        reads: () => reads,
    };
}

describe('subjects that read alike (SubjectIndex)', () => {
    it('groups exactly the rows whose subject renders the same text, and renders nothing once built', async t => {
        const w = await world(SPEC, { 'films.csv': CSV });
        t.after(w.dispose);
        const relation = w.model.relations[0]!;
        const { table, reads } = counted(w.data.tables.get('Movie')!);
        const scope = new Scope([{ relation, table }], [{ slot: 0 }]);
        const stem = scope.template('What is the false option about the movie {title}?');
        const index = new SubjectIndex(scope, table, stem.parsed, 'director');
        // The reference: every row's subject text, grouped.
        const texts = Array.from({ length: table.rowCount }, (_, r) => render(stem.parsed, scope.lookup(Int32Array.of(r))));
        for (let r = 0; r < table.rowCount; r++) index.rowsLike(r);
        const before = reads();
        for (let r = 0; r < table.rowCount; r++) {
            const expected = texts.flatMap((x, i) => (x === texts[r] ? [i] : []));
            assert.deepEqual(index.rowsLike(r), expected, `row ${r}`);
            assert.equal(index.alone(r), expected.length === 1, `row ${r}`);
        }
        assert.equal(reads(), before, 'a lookup renders no subject');
        assert.deepEqual(index.alike(), { text: 'What is the false option about the movie King Kong?', rows: [0, 2] });
    });

    it('options a stem does not name share its index; an option it names has its own', async t => {
        const w = await world(SPEC, { 'films.csv': CSV });
        t.after(w.dispose);
        const table = w.data.tables.get('Movie')!;
        const scope = new Scope([{ relation: w.model.relations[0]!, table }], [{ slot: 0 }]);
        const indexOf = subjectIndexes(scope, table);
        const stem = scope.template('Did {director} direct {title}?').parsed;
        assert.equal(indexOf(stem, 'country'), indexOf(stem, 'genre'));
        assert.notEqual(indexOf(stem, 'director'), indexOf(stem, 'country'));
        assert.deepEqual(
            indexOf(stem, 'director').rowsLike(0),
            [0, 2, 6],
            'with the director left open, the King Kongs read alike',
        );
        assert.deepEqual(indexOf(stem, 'country').rowsLike(0), [0]);
    });

    it('stems that differ only before their first placeholder and after their last share one index, built once', async t => {
        const w = await world(SPEC, { 'films.csv': CSV });
        t.after(w.dispose);
        const table = w.data.tables.get('Movie')!;
        const scope = new Scope([{ relation: w.model.relations[0]!, table }], [{ slot: 0 }]);
        const indexOf = subjectIndexes(scope, table);
        const a = scope.template("What's the inaccurate option about the movie {title}?").parsed;
        const b = scope.template('What is the wrong option regarding the movie {title}').parsed;
        const c = scope.template('Which is wrong about {title} of {year}?').parsed;
        assert.equal(indexOf(a, 'director'), indexOf(b, 'country'));
        assert.notEqual(indexOf(a, 'director'), indexOf(c, 'director'));
        // The shared index groups the rows as each stem's whole text does.
        for (const stem of [a, b])
            for (let row = 0; row < table.rowCount; row++) {
                const own = new SubjectIndex(scope, table, stem, 'director');
                assert.deepEqual(indexOf(stem, 'director').rowsLike(row), own.rowsLike(row));
            }
    });

    it('multiple choice asks the same questions with the same ids as before the ring (rows alike)', async t => {
        const w = await world(SPEC, { 'films.csv': CSV });
        t.after(w.dispose);
        assert.equal(digest(generateQuestions(w.model, w.data, { probe: 'mc' }).questions), '8 e1bef20cea6fd119');
        assert.equal(digest(generateQuestions(w.model, w.data, { probe: 'mc', seed: 3 }).questions), '8 b014712c45f53355');
    });

    it('examples/erbench/mc_movie.probe: the same questions and ids as before the ring', async t => {
        const missing = sharedMissing(sharedPath('data', 'erbench', 'mc_movie.csv'));
        if (missing) {
            t.skip(missing);
            return;
        }
        const { model } = await loadSpec(path.join(repo, 'examples/erbench/mc_movie.probe'));
        const data = await loadData(model);
        const got = (probe: string, seed?: number) =>
            digest(generateQuestions(model, data, { probe, ...(seed === undefined ? {} : { seed }) }).questions);
        assert.equal(got('movie_choice'), '4455 be08a7bd9f365060');
        assert.equal(got('movie_choice', 7), '4455 4dd9de61c241ad05');
        assert.equal(got('movie_choice_none'), '1485 d85c24e7ac9841a8');
        assert.equal(got('movie_choice_none', 7), '1485 2a1ed2a01b90acb8');
    });
});
