/**
 * ERBench multiple choice replayed through the command line, on a small published-style log written here:
 * - `keyword_match paper`: the authors' keyword rule (check_reasoning: a lower-case substring of the whole
 *   response, with the dataset's spellings — `split("/")` for a music genre) beside our default (whole words);
 * - a `draws_from` log that fits no row is an error saying why (counts, the first mismatch as a word diff),
 *   never "No questions to ask";
 * - a knowledge probe asked in other words than the log's is answered by the logged question about the same entity.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli } from '../support/cli-process.js';
import { tempDir } from '../support/temp.js';

const SONGS = [
    'title,artist,year,genre',
    'day after day,badfinger,1971,pop/rock',
    'congratulations,reba mcentire,1984,country/folk',
    'elegie,patti smith,1975,blues/jazz',
    'jimmy james,beastie boys,1992,hip hop/reggae',
].join('\n');

/** The false genre each logged question shows (another value of the column). */
const FAKE = ['country/folk', 'pop/rock', 'pop/rock', 'blues/jazz'];
/** GPT-3.5-style answers: the first two name a genre part, the second inside a longer word ("folksy"). */
const ANSWERS = [
    'Option 2: The genre of the song is country/folk. Day After Day is a classic rock song by Badfinger.',
    'Option 2: The genre of the song is pop/rock. It is a folksy ballad.',
    'Option 1: The song was released in 1975. I am not sure of the rest.',
    'Option 2: The genre of the song is blues/jazz. Jimmy James is a hip hop track.',
];

const stem = (title: string, artist: string) => `What's the inaccurate option about the song ${title} of the artist ${artist}?`;

/** The authors' multiple-choice log layout (responses/gpt35_mc_movie_choice_3.log). */
function choiceLog(optionText = (year: string) => `The song was released in ${year}.`): string {
    return SONGS.split('\n')
        .slice(1)
        .map(l => l.split(','))
        .map(([title, artist, year, genre], n) =>
            [
                '========================================',
                `${n}-0th question`,
                '<Question> ',
                `Q: ${stem(title!, artist!)} Provide an explanation.`,
                `Option 1: ${optionText(year!)}`,
                `Option 2: The genre of the song is ${FAKE[n]}.`,
                '',
                'A: ',
                '',
                '<Answer> ',
                ANSWERS[n]!,
                '',
                '<Gold Answer> ',
                '2',
                '',
                '<Gold Entity> ',
                genre!,
                '',
            ].join('\n'),
        )
        .join('\n');
}

/** The knowledge log: "Do you know the music …?" per song; the third is not known. */
function knowsLog(): string {
    return SONGS.split('\n')
        .slice(1)
        .map(l => l.split(','))
        .map(([title, artist], n) =>
            [
                '========================================',
                `${n}-0th question`,
                '<Question> ',
                `Q: Do you know the music ${title} by ${artist}?`,
                'A:',
                '',
                '<Answer> ',
                n === 2 ? 'No, I do not know that song.' : 'Yes.',
                '',
                '<Gold Answer> ',
                'None',
                '',
                '<Gold Entity> ',
                'None',
                '',
            ].join('\n'),
        )
        .join('\n');
}

const SPLIT = `aliases Song.genre {
    split("/")
}`;

const SPEC = (probes: string, aliases = SPLIT) => `source songs csv "songs.csv"
relation Song from songs label "song" {
    title: text
    artist: text
    year: int label "release year"
    genre: text
    key (title, artist)
}
fd Song: title, artist -> year, genre as song_facts
${aliases}
${probes}
model simulator offline {
    seed 1
}
suite published {
    probes ${probes
        .match(/^probe (\w+)/gm)!
        .map(p => p.slice(6))
        .join(', ')}
    models simulator
    sample all
}
`;

const choice = (name: string, extra = '', option = 'The song was released in {year}.') => `probe ${name} choice using song_facts {
    draws_from "published.log"
${extra}    stem "What's the inaccurate option about the song {title} of the artist {artist}?"
    option year "${option}"
    option genre "The genre of the song is {genre}."
}
`;

interface Group {
    probe: string;
    phrasing: string;
    mode: string;
    n: number;
    A: number;
    R: number;
    AR: number;
}

async function replay(
    spec: string,
    files: Record<string, string>,
    logs: string[],
): Promise<{ code: number | null; stderr: string; stdout: string; groups?: Group[]; dir: string }> {
    const dir = tempDir('hp-erbench-replay-');
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    writeFileSync(path.join(dir, 'spec.probe'), spec);
    const db = path.join(dir, 'results.db');
    const run = await cli(
        [
            'run',
            path.join(dir, 'spec.probe'),
            '--suite',
            'published',
            '--model',
            `gpt35=replay:${logs.map(l => path.join(dir, l)).join('+')}`,
            '--db',
            db,
            '--yes',
        ],
        {},
    );
    if (run.code !== 0 && run.code !== 1) return { ...run, dir };
    // A handful of songs: the knowledge filter's floor of 20 known entities would make mode "known" n/a.
    const json = await cli(['report', '--db', db, '--format', 'json', '--min-known', '1'], {});
    if (json.code !== 0) return { ...run, dir };
    return { ...run, groups: (JSON.parse(json.stdout) as { groups: Group[] }).groups, dir };
}

const group = (groups: Group[] | undefined, probe: string, mode = 'all') => {
    const g = groups?.find(x => x.probe === probe && x.mode === mode && x.phrasing === 'stem-1');
    assert.ok(g, `a ${probe} group in mode ${mode}: ${JSON.stringify(groups?.map(x => [x.probe, x.mode, x.phrasing]))}`);
    return g;
};

describe('ERBench multiple choice replayed from the CLI', () => {
    it('keyword_match paper finds the keyword as the authors did (a genre part, a substring), beside our whole-word default', async () => {
        const r = await replay(
            SPEC(choice('paper_rule', '    keyword_match paper\n') + choice('our_rule')),
            { 'songs.csv': SONGS, 'published.log': choiceLog() },
            ['published.log'],
        );
        assert.equal(r.code, 0, r.stderr);
        const paper = group(r.groups, 'paper_rule');
        const ours = group(r.groups, 'our_rule');
        assert.equal(paper.n, 4);
        assert.equal(paper.A, 0.75, 'three answers name option 2, the falsified one');
        // paper: "rock" (a part of pop/rock), "folk" inside "folksy", "hip hop" — three of four.
        assert.equal(paper.R, 0.75);
        // ours: "rock" and "hip hop" are words of the rationale; "folksy" is not the word "folk".
        assert.equal(ours.R, 0.5);
        assert.equal(ours.A, paper.A, 'the rule changes keywords only');
    });

    it('a draws_from log that fits no row says why: how many logged, how many matched, the first mismatch as a diff', async () => {
        const r = await replay(
            SPEC(choice('mismatched', '', 'The song came out in {year}.'), ''),
            { 'songs.csv': SONGS, 'published.log': choiceLog() },
            ['published.log'],
        );
        assert.equal(r.code, 1, r.stderr);
        assert.doesNotMatch(r.stderr, /No questions to ask/);
        assert.match(r.stderr, /spec\.probe:\d+:\d+ error \[draws-unmatched\]/);
        assert.match(
            r.stderr,
            /none of the 4 questions logged in .*published\.log matches a question of mismatched \(0 matched\)/,
        );
        assert.match(
            r.stderr,
            /First mismatch, option 1 of logged question 0-0 \(\[-logged-\] \{\+spec\+\}\): The song \[-was released-\] \{\+came out\+\} in 1971\./,
        );
        assert.match(r.stderr, /Word the stems and options as the log does/);
    });

    it('a knowledge probe asked in other words is answered by the logged question about the same entity', async () => {
        const knows = `probe know_song knows about Song {
    known_if no_word_no
    ask "Have you ever heard the song {title} by {artist}?"
}
`;
        const r = await replay(
            SPEC(choice('our_rule') + knows, ''),
            { 'songs.csv': SONGS, 'published.log': choiceLog(), 'validate.log': knowsLog() },
            ['published.log', 'validate.log'],
        );
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /0 failed/);
        // The third song is not known: mode "known" leaves its question out.
        const known = group(r.groups, 'our_rule', 'known');
        assert.equal(known.n, 3);
    });
});
