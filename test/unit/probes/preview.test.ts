import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { writeFileSync } from 'node:fs';
import { world, MOVIE_SPEC, MOVIES_CSV } from '../../fixtures/probes/world.js';
import { cliArgs } from '../../support/cli-path.js';

const cli = (args: string[]) => spawnSync(process.execPath, cliArgs('preview', ...args), { encoding: 'utf8' });

describe('halluprobe preview', () => {
    it('prints JSONL questions with the documented fields, and a summary on stderr', async t => {
        const w = await world(MOVIE_SPEC, { 'movies.csv': MOVIES_CSV });
        t.after(w.dispose);
        const r = cli([path.join(w.dir, 'spec.probe'), '--suite', 'all', '--format', 'jsonl', '--limit', '5']);
        assert.equal(r.status, 0, r.stderr);
        const lines = r.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as Record<string, unknown>);
        assert.equal(lines.length, 5);
        for (const key of ['id', 'probe', 'kind', 'phrasing', 'question', 'messages', 'gold', 'keywords', 'source', 'path'])
            assert.ok(key in lines[0]!, key);
        assert.deepEqual(lines[0]!.keywords, [['Avatar']]);
        assert.match(
            r.stderr,
            /5 questions \(movie_binary 5 from 2 rows, director_decade 0 from 0 rows\); data: Movie 6 rows, Director 3 rows/,
        );
        const csv = cli([path.join(w.dir, 'spec.probe'), '--probe', 'director_decade', '--format', 'csv', '--limit', '1']);
        assert.equal(csv.stdout.split('\n')[0], 'id,probe,kind,phrasing,variant,variant_id,gold,question,keywords,source');
        assert.match(
            csv.stdout.split('\n')[1]!,
            /,path,basic,zero_shot,zero_shot,yes,Was the director .*,James Cameron \| 1954,/,
        );
        const table = cli([path.join(w.dir, 'spec.probe'), '--probe', 'know_movie', '--limit', '1']);
        assert.match(
            table.stdout,
            /^id\s+probe\s+phrasing\s+variant\s+gold\s+keywords\s+question\n[0-9a-f]{16}\s+know_movie\s+knows\s+zero_shot\s+yes/,
        );
    });

    it('prints generation problems as file:line messages, never a stack trace', async t => {
        // The director column is empty in every row: movie_long's FD has nothing to ask about.
        const w = await world(MOVIE_SPEC, {
            'movies.csv': 'title,year,director,star,birth_year,length,plot\nAvatar,2009,,CCH Pounder,1954,162,x\n',
        });
        t.after(w.dispose);
        const r = cli([path.join(w.dir, 'spec.probe'), '--probe', 'movie_long']);
        assert.match(
            r.stderr,
            /spec\.probe:\d+:\d+ error \[probe-fd-empty\] Movie\.director, the right-hand side of movie_director, is empty in every row/,
        );
        assert.match(r.stderr, /0 questions \(movie_long 0 from 1 row\); data: Movie 1 row/);
        assert.doesNotMatch(r.stderr, /\n\s+at /);
        assert.equal(r.status, 1);
    });

    it('prints the questions it can but exits 1 when the data has errors (an FD violated)', async t => {
        // James Cameron born in 1954 and in 1955: director_birth is violated.
        const w = await world(MOVIE_SPEC, {
            'movies.csv': MOVIES_CSV.replace(
                'Titanic,1997,James Cameron,Leonardo DiCaprio,1954',
                'Titanic,1997,James Cameron,Leonardo DiCaprio,1955',
            ),
        });
        t.after(w.dispose);
        const r = cli([path.join(w.dir, 'spec.probe'), '--probe', 'movie_binary', '--format', 'jsonl']);
        assert.match(r.stderr, /error \[fd-violated\].*James Cameron/);
        assert.ok(r.stdout.trim().split('\n').length > 0, 'the questions are still printed');
        assert.equal(r.status, 1, 'a spec with errors is not a pass');
    });

    it('shows a choice question\'s gold in full in the table (not "opt…")', async t => {
        const choice = `${MOVIE_SPEC}\nfd Movie: title, year -> director, star as pick_facts\nprobe pick choice using pick_facts {\n    stem "Which is wrong about {title} ({year})?"\n    option director "Directed by {director}."\n    option star "Starring {star}."\n}\n`;
        const w = await world(choice, { 'movies.csv': MOVIES_CSV });
        t.after(w.dispose);
        const r = cli([path.join(w.dir, 'spec.probe'), '--probe', 'pick', '--limit', '2']);
        const rows = r.stdout.trim().split('\n');
        assert.match(rows[0]!, /gold\s+keywords/);
        assert.match(rows[1]!, /\soption \d \((Directed by|Starring) [^)]+\.\)\s/, r.stdout + r.stderr);
        assert.doesNotMatch(r.stdout, /opt…/);
    });

    it('refuses a spec with errors and bad usage', async t => {
        const w = await world('relation Broken from nowhere {', {});
        t.after(w.dispose);
        const r = cli([path.join(w.dir, 'spec.probe')]);
        assert.equal(r.status, 1);
        assert.match(r.stderr, /the spec has \d+ error\(s\); fix them first/);
        writeFileSync(path.join(w.dir, 'ok.probe'), '');
        assert.equal(cli([path.join(w.dir, 'ok.probe'), '--format', 'xml']).status, 2);
        assert.equal(cli([path.join(w.dir, 'missing.probe')]).status, 2);
    });
});
