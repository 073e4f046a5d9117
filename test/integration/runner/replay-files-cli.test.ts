/**
 * One replayed model from several transcripts on the command line (`--model NAME=replay:a.log+b.log`): its
 * answers and its knowledge-probe answers together, so the knowledge modes and the ERBench table come out
 * of the terminal. Small fixtures (no ../shared needed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli } from '../../support/cli-process.js';
import { repoRoot } from '../../support/runner-fixtures.js';
import { tempDir } from '../../support/temp.js';

const SPEC = `
source movies csv "movies.csv"
relation Movie from movies label "movie" {
    title: text
    year: int
    director: text
    star: text
    key (title, year)
}
fd Movie: director, star, year -> title as movie_title
probe movie_binary binary using movie_title {
    basic "Is there a movie, released in {year}, starring {star} where {director} is the director?"
    negated "Is it true that there are no movies, released in {year}, starring {star} where {director} is the director?"
}
probe know_movie knows about Movie {
    known_if no_word_no
    ask "Do you know the movie {title} released in {year}? If yes, did {star} star in the movie {title}? If yes, did {director} direct the movie {title}?"
}
suite s { probes movie_binary, know_movie  sample all }
`;

test('--model NAME=replay:a.log+b.log reads both transcripts as one model, named NAME', async () => {
    const dir = tempDir('hp-replay-cli-');
    writeFileSync(path.join(dir, 'spec.probe'), SPEC);
    writeFileSync(path.join(dir, 'movies.csv'), 'title,year,director,star\nAvatar,2009,James Cameron,CCH Pounder\n');
    const fixtures = path.join(repoRoot, 'test', 'fixtures', 'runner');
    const model = `gpt35=replay:${path.join(fixtures, 'erbench-sample.log')}+${path.join(fixtures, 'erbench-validate-sample.log')}`;
    const db = path.join(dir, 'results.db');
    const run = await cli(['run', path.join(dir, 'spec.probe'), '--model', model, '--db', db, '--yes', '--format', 'json'], {});
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout) as { counts: { answered: number; failed: number } };
    assert.deepEqual(
        [summary.counts.answered, summary.counts.failed],
        [3, 0],
        'two binary answers from the first log, the knowledge answer from the second',
    );
    const table = await cli(['report', '--db', db, '--format', 'erbench', '--min-known', '1'], {});
    assert.equal(table.code, 0, table.stderr);
    // Known (the knowledge answer has no "no"): the known-entities table has the model's row, named gpt35;
    // without the knowledge log the mode would not exist.
    assert.match(
        table.stdout,
        /## entities the model knows · zero_shot\n\n\| model \| BN\(Y\) A \| BN\(Y\) R \| BN\(Y\) AR \| BN\(Y\) H \| BN\(N\) A \| BN\(N\) R \| BN\(N\) AR \| BN\(N\) H \|\n[^\n]+\n\| gpt35 \| 1\.00 \| 1\.00 \| 1\.00 \| \.00 \| \.00 \| \.00 \| \.00 \| 1\.00 \|/,
    );
});

test('a replay says how many recorded answers matched no question (issue 36 item 11: none silently unused)', async () => {
    const dir = tempDir('hp-replay-unmatched-');
    writeFileSync(path.join(dir, 'spec.probe'), SPEC.replace('probes movie_binary, know_movie', 'probes movie_binary'));
    writeFileSync(path.join(dir, 'movies.csv'), 'title,year,director,star\nAvatar,2009,James Cameron,CCH Pounder\n');
    // Two answers to the spec's two questions, and one to a phrasing the spec does not have.
    const q = (text: string) => `${text} released in 2009, starring CCH Pounder where James Cameron is the director?`;
    const lines = [
        { question: q('Is there a movie,'), answer: 'Yes, Avatar.' },
        { question: q('Is it true that there are no movies,'), answer: 'No, there is Avatar.' },
        { question: q('Is it true that there is a movie,'), answer: 'Yes, Avatar.' },
    ];
    writeFileSync(path.join(dir, 'answers.jsonl'), lines.map(l => JSON.stringify(l)).join('\n'));
    const run = await cli(
        [
            'run',
            path.join(dir, 'spec.probe'),
            '--model',
            `rec=replay:${path.join(dir, 'answers.jsonl')}`,
            '--db',
            path.join(dir, 'results.db'),
            '--yes',
        ],
        {},
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /rec \(replay\): 1 of 3 recorded answers matched no question of this run\./);
});
