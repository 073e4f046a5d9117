/**
 * Generation's speed work (issue 39) must not change a single question: every field of every question (ids, texts,
 * golds, keywords, paths, sources, messages, the families' own data, in their order) as JSON, hashed, for the
 * examples and for multiple choice with aliases, the paper's answer rule and "none of the above", with and without
 * a seed. The digests were recorded on the code before that work.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { world } from '../../fixtures/probes/world.js';
import { generateQuestions } from '../../../src/core/probes/index.js';
import { loadSpec } from '../../../src/core/spec/load.js';
import { loadData } from '../../../src/core/data/index.js';
import type { LoadedData } from '../../../src/core/data/types.js';
import type { SpecModel } from '../../../src/core/spec/model.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Per probe, and with seed 5: the count and a hash of the questions' JSON (files named from `root`, which varies). */
function digests(model: SpecModel, data: LoadedData, root: string): string[] {
    const out: string[] = [];
    for (const probe of model.probes) {
        for (const seed of [undefined, 5]) {
            const h = createHash('sha256');
            let n = 0;
            for (const q of generateQuestions(model, data, { probe: probe.name, ...(seed === undefined ? {} : { seed }) }).questions) { h.update(`${JSON.stringify(q).replaceAll(root, '<root>')}\n`); n++; }
            out.push(`${probe.name}${seed === undefined ? '' : ` seed ${seed}`}: ${n} ${h.digest('hex').slice(0, 16)}`);
        }
    }
    return out;
}

const CSV = ['title,year,director,country,genre',
    'King Kong,1933,Merian C. Cooper,USA,non-animation',
    'Up,2009,Pete Docter,USA,animation',
    'King Kong,2005,Peter Jackson,New Zealand,non-animation',
    'Heat,1995,Michael Mann,USA,non-animation',
    'Akira,1988,Katsuhiro Otomo,Japan,animation',
    'Heat,1986,Michael Mann,United States,non-animation',
    'Spirited Away,2001,Hayao Miyazaki,Japan,animation',
    'Paddington,2014,Paul King,UK,non-animation',
    'King Kong,1976,John Guillermin,USA,non-animation'].join('\n');

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
aliases Movie.director {
    name_parts
}
aliases Movie.country {
    "USA" = "United States", "American"
    "UK" = "United Kingdom", "British"
}
probe mc choice using facts {
    stem "What is the false option about the movie {title}?"
    stem "What is the wrong option about the movie {title} released in year {year}?"
    option director "Directed by {director}."
    option country "Produced in the country {country}."
    option genre "It is {article(genre)} {genre} movie."
    answer_rule paper
}
probe mc_none choice using facts {
    none_of_above 0.3
    keyword_match paper
}
`;

/** Recorded on the code before the speed work. */
const EXPECTED: Record<string, string[]> = {
    'movie/movie.probe': ['movie_binary: 180 5d005019d0f24830', 'movie_binary seed 5: 180 e34c727d9c2eff37', 'director_decade: 120 bbdba45f77d9bdef', 'director_decade seed 5: 120 252c2a20d9321533', 'know_movie: 60 a099b4b84a927365', 'know_movie seed 5: 60 4b63757b5a25562a'],
    'soccer/soccer.probe': ['club_city_olympics: 80 ce02315de7353ae7', 'club_city_olympics seed 5: 80 be8d70d06dc62dbe', 'player_club: 80 aee982e983fd00fd', 'player_club seed 5: 80 076067cf77d448d2'],
    'statements/statements.probe': ['movie_facts: 480 388f00216ff60510', 'movie_facts seed 5: 480 c07fb81a0d829517', 'director_born: 120 3ed9503c659010fc', 'director_born seed 5: 120 065260102dc9505c'],
    'open/open.probe': ['explain_pair: 480 b0c2254b88abc882', 'explain_pair seed 5: 480 acafc254dc6ed01b', 'describe_movie: 180 56b7e6351155b76a', 'describe_movie seed 5: 180 d05d52734416868b'],
    'evidence/evidence.probe': ['directed_by: 239 c15b8b0a9d0a128f', 'directed_by seed 5: 239 989315e7bae5b415'],
    'temporal/temporal.probe': ['club_in_year: 40 919e9df4b58d4d30', 'club_in_year seed 5: 40 3da4611e90496622', 'club_next_year: 40 7c0067d258796cf2', 'club_next_year seed 5: 40 15f6ea4745123433', 'club_throughout: 40 ee94f4c7701e9bbe', 'club_throughout seed 5: 40 6c4c04d574997e6f', 'club_at_some_point: 40 303f69e33bb6d8d7', 'club_at_some_point seed 5: 40 5041987651471bf7', 'club_until_next: 30 4a45ad758aff1f46', 'club_until_next seed 5: 28 75ed363419f7e0cf', 'two_clubs_in_year: 40 08cd020ca61f396c', 'two_clubs_in_year seed 5: 40 29c9e22b12379392', 'either_club_in_year: 40 76bf124dcb78c8b3', 'either_club_in_year seed 5: 40 e1e99815da746943', 'club_until_within: 26 f7c224e1bfdc186a', 'club_until_within seed 5: 26 93abb1dc2c8cd4f8', 'club_stretch_soon: 40 1cfaca88e4b8a995', 'club_stretch_soon seed 5: 40 459c88b365763fbf', 'club_after_next: 40 0adb625ac0b99bdd', 'club_after_next seed 5: 40 c6a658edb506f78d'],
};

describe('generated questions are unchanged by the speed work (issue 39)', () => {
    it('multiple choice with aliases, answer_rule paper and none of the above', async t => {
        const w = await world(SPEC, { 'films.csv': CSV });
        t.after(w.dispose);
        assert.deepEqual(w.diagnostics.filter(d => d.severity === 'error'), []);
        assert.deepEqual(digests(w.model, w.data, w.dir), ['mc: 12 00a998526d5bfbee', 'mc seed 5: 12 6c3c7621914e87d7', 'mc_none: 27 3e3c19435ca1f397', 'mc_none seed 5: 27 f48e12a7bc5fbe55']);
    });

    for (const [example, expected] of Object.entries(EXPECTED)) {
        it(`examples/${example}`, async () => {
            const { model } = await loadSpec(path.join(repo, 'examples', example));
            const data = await loadData(model);
            assert.deepEqual(digests(model, data, repo), expected);
        });
    }
});
