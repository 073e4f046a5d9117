/**
 * `as of`: data dated by the spec. Through the command line a user types: `check` locates a date that names no
 * year; `preview` asks in that time ("In 2019, …"); a run whose model answers with later facts reports them as
 * outdated in every format (json, csv, md, the failing list), not as plain errors.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { cli } from '../support/cli-process.js';
import { tempDir } from '../support/temp.js';

const PLAYERS = [
    'name,club,country',
    'Messi,FC Barcelona,Argentina',
    'Ronaldo,Juventus,Portugal',
    'Hazard,Real Madrid,Belgium',
    'Neymar,Paris Saint-Germain,Brazil',
].join('\n');

const SPEC = (asOf: string) => `source players csv "players.csv" ${asOf}
relation Player from players label "soccer player" {
    name: text
    club: text
    country: text
    key (name)
}
fd Player: name -> club, country as player_facts
probe plays statement using player_facts {
    statement ["{name} plays for {club}.", "{name} was born in {country}."]
    negatives 1
}
probe which choice using player_facts {
    stem "What is the false option about {name}?"
    option club "He plays for {club}."
    option country "He was born in {country}."
}
probe said_when statement using player_facts {
    statement ["In 2019 {name} played for {club}."]
    negatives 1
}
model simulator offline {
    seed 1
}
suite statements {
    probes plays
    models simulator
}
`;

function write(spec: string): string {
    const dir = tempDir('hp-as-of-');
    writeFileSync(path.join(dir, 'players.csv'), PLAYERS);
    writeFileSync(path.join(dir, 'spec.probe'), spec);
    return dir;
}

interface Line {
    id: string;
    probe: string;
    question: string;
    gold: string;
}

describe('as of: dated data through the CLI', () => {
    it('check locates an "as of" that names no year, with the fix', async () => {
        for (const [bad, col] of [
            ['as of 2019.5', 40],
            ['as of "last spring"', 40],
        ] as const) {
            const dir = write(SPEC(bad));
            const r = await cli(['check', path.join(dir, 'spec.probe')], {});
            assert.equal(r.code, 1, r.stdout + r.stderr);
            assert.match(
                r.stdout + r.stderr,
                new RegExp(
                    `spec\\.probe:1:${col} error \\[as-of-value\\] 'as of [^']+' does not name a year: write the year the data was true, e\\.g\\. 'as of 2019'`,
                ),
            );
        }
    });

    it('preview asks in that time; a template that already says when is asked as written', async () => {
        const dir = write(SPEC('as of 2019'));
        const r = await cli(['preview', path.join(dir, 'spec.probe'), '--format', 'jsonl'], {});
        assert.equal(r.code, 0, r.stderr);
        const lines = r.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as Line & { asOf?: { year: number } });
        const texts = lines.map(l => l.question);
        assert.ok(texts.includes('In 2019, Messi plays for FC Barcelona.'), texts.join('\n'));
        assert.ok(
            texts.some(t => t.startsWith('Q: In 2019, what is the false option about Messi? Provide an explanation.')),
            texts.join('\n'),
        );
        assert.ok(texts.includes('In 2019 Messi played for FC Barcelona.'), 'said_when names the year itself');
        assert.ok(
            lines.every(l => l.asOf?.year === 2019),
            'every question carries its date',
        );
    });

    it('a wrong answer that places its claim later is outdated in json, csv, md and the failing list; an abstention is not', async () => {
        const dir = write(SPEC('as of 2019'));
        const spec = path.join(dir, 'spec.probe');
        const preview = await cli(['preview', spec, '--probe', 'plays', '--format', 'jsonl'], {});
        assert.equal(preview.code, 0, preview.stderr);
        const questions = preview.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as Line);
        const messi = questions.find(q => q.question === 'In 2019, Messi plays for FC Barcelona.');
        assert.ok(messi);
        const answers = questions.map(q => ({
            id: q.id,
            answer:
                q === messi
                    ? 'No, the statement is false. Messi currently plays for Inter Miami.'
                    : q.question.startsWith('In 2019, Ronaldo plays')
                      ? 'No, the statement is false. Ronaldo moved to Al Nassr in 2023.'
                      : "I don't know.",
        }));
        writeFileSync(path.join(dir, 'answers.jsonl'), answers.map(a => JSON.stringify(a)).join('\n'));
        const db = path.join(dir, 'r.db');
        const run = await cli(
            ['run', spec, '--suite', 'statements', '--model', `m=replay:${path.join(dir, 'answers.jsonl')}`, '--db', db, '--yes'],
            {},
        );
        assert.ok(run.code === 0 || run.code === 1, run.stderr);

        const json = JSON.parse((await cli(['report', '--db', db, '--format', 'json'], {})).stdout) as {
            groups: { probe: string; mode: string; n: number; outdated?: { k: number; value: number } }[];
        };
        const g = json.groups.find(x => x.probe === 'plays' && x.mode === 'all');
        assert.ok(g?.outdated, JSON.stringify(json.groups));
        assert.equal(g.outdated.k, 2, 'Messi (currently) and Ronaldo (2023); the abstentions are not');
        assert.equal(g.outdated.value, 2 / g.n);

        const csv = (await cli(['report', '--db', db, '--format', 'csv'], {})).stdout.trim().split('\n');
        const header = csv[0]!.split(',');
        const col = header.indexOf('outdated');
        assert.ok(col > 0, csv[0]);
        const row = csv.find(l => l.startsWith('m,plays,'))!.split(',');
        assert.equal(Number(row[col]), Math.round((2 / g.n) * 10000) / 10000);

        const md = (await cli(['report', '--db', db], {})).stdout;
        assert.match(md, /Outdated answers \(dated questions answered with later facts\)/);
        assert.match(md, /outdated: asked as of 2019, answered with "currently"/);
        assert.match(md, /outdated: asked as of 2019, answered with "2023"/);
    });
});
