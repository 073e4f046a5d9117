// Issue 29, item 3: a join rule without a bound (`colleague(p, q) :- p.club = q.club, p != q` over 20,000 players
// in 10 clubs: 40M facts) ran `check` for minutes into a heap abort, and killed the language server. Its size is
// now estimated from the data before deriving: refused with a located error without a cap, a bounded sample with
// one, and the language server never derives it. A capped or sampled rule (`cap N`, `sample N`) draws its facts
// without enumerating every candidate (bounded work, not only bounded memory), and the language server works from
// estimates and samples for every rule, however small its bound.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MarkupContent } from 'vscode-languageserver-protocol';
import { cli } from '../support/cli-process.js';
import { startLanguageServer, within } from '../support/lsp-process.js';
import { FIXTURES } from '../server/support.js';

const PLAYERS = 20_000;
const spec = (extra = '') => `source players csv "players.csv"

relation Player from players {
    name: text = "player"
    club: text = "club"
    key (name)
}

rule colleague(p: Player, q: Player) :- p.club = q.club, p != q
    symmetric${extra}

probe teammates rule using colleague {
    noun "club"
}
`;
/** A heap of 400 MB: deriving the 40M facts cannot fit, an estimate and a capped sample do. */
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=400' };
/**
 * CPU seconds a `check` of the capped or sampled rule may use (the kernel kills it past them): starting, loading
 * the 20,000 rows and refusing the uncapped rule takes 3.6; enumerating the 40M candidates into a capped sample took 11.
 */
const CPU_SECONDS = 8;
/** 1,400 players in 2 clubs: about 980,000 facts, under the 1M a rule may derive without a bound. */
const FEW = 1_400;

describe('join rules are sized before they are derived', { timeout: 120_000 }, () => {
    let dir: string;
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-rule-size-'));
        const rows = Array.from({ length: PLAYERS }, (_, i) => `Player ${i},Club ${i % 10}`);
        fs.writeFileSync(path.join(dir, 'players.csv'), `player,club\n${rows.join('\n')}\n`);
        fs.writeFileSync(path.join(dir, 'big.probe'), spec());
        fs.writeFileSync(path.join(dir, 'capped.probe'), spec('\n    cap 5000'));
        fs.writeFileSync(path.join(dir, 'sampled.probe'), spec('\n    sample 5000'));
        const few = Array.from({ length: FEW }, (_, i) => `Player ${i},Club ${i % 2}`);
        fs.writeFileSync(path.join(dir, 'few.csv'), `player,club\n${few.join('\n')}\n`);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('check refuses the unbounded join with a located error saying its size and the remedy', async () => {
        const r = await cli(['check', path.join(dir, 'big.probe')], SMALL_HEAP);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        const line =
            spec()
                .split('\n')
                .findIndex(l => l.startsWith('rule colleague')) + 1;
        assert.match(
            r.stdout + r.stderr,
            new RegExp(`big\\.probe:${line}:\\d+ error \\[rule-too-large\\] colleague derives about 40M facts .*Add 'cap N'`),
        );
    });

    it('check derives a capped sample of it within the same small heap, in bounded CPU time', async () => {
        const r = await cli(['check', path.join(dir, 'capped.probe')], SMALL_HEAP, undefined, CPU_SECONDS);
        assert.equal(r.code, 0, `${r.signal ?? ''} ${r.stdout}${r.stderr}`);
    });

    it('`sample N` draws a seeded sample of it in the same heap and CPU time, and its questions span the clubs', async () => {
        const checked = await cli(['check', path.join(dir, 'sampled.probe')], SMALL_HEAP, undefined, CPU_SECONDS);
        assert.equal(checked.code, 0, `${checked.signal ?? ''} ${checked.stdout}${checked.stderr}`);
        assert.match(checked.stdout, /No problems found/);
        const shown = await cli(
            ['preview', path.join(dir, 'sampled.probe'), '--limit', '1500', '--format', 'jsonl'],
            SMALL_HEAP,
            undefined,
            CPU_SECONDS,
        );
        assert.equal(shown.code, 0, `${shown.signal ?? ''} ${shown.stdout}${shown.stderr}`);
        const questions = shown.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as { question: string });
        assert.ok(questions.length >= 1_000, `questions: ${questions.length}`);
        // A uniform sample of the join, not the first facts found: the players asked about come from every club.
        const clubs = new Set(questions.map(q => Number(/Player (\d+)/.exec(q.question)![1]) % 10));
        assert.equal(clubs.size, 10, `clubs asked about: ${[...clubs].join(', ')}`);
    });

    it('the language server reports it and keeps answering other documents', async () => {
        fs.cpSync(FIXTURES, path.join(dir, 'ws'), { recursive: true });
        fs.copyFileSync(path.join(dir, 'players.csv'), path.join(dir, 'ws', 'players.csv'));
        const lsp = await startLanguageServer(path.join(dir, 'ws'));
        try {
            lsp.open('big.probe', spec());
            const ds = await within(
                lsp.diagnosticsFor(lsp.uri('big.probe'), d => d.some(x => x.code === 'rule-too-large')),
                60_000,
                'the size diagnostic',
            );
            assert.match(String(ds.find(d => d.code === 'rule-too-large')!.message), /about 40M facts/);
            const line = spec()
                .split('\n')
                .findIndex(l => l.startsWith('rule colleague'));
            const hover = await within(lsp.hover('big.probe', line, 6), 20_000, 'hover on the rule');
            assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /40M/);
            const movie = fs.readFileSync(path.join(dir, 'ws', 'movie.probe'), 'utf8');
            lsp.open('movie.probe', movie);
            await within(lsp.diagnosticsFor(lsp.uri('movie.probe')), 20_000, 'diagnostics of another document');
            const other = await within(
                lsp.hover(
                    'movie.probe',
                    movie.split('\n').findIndex(l => l.startsWith('relation Movie')),
                    10,
                ),
                2_000,
                'hover on another document',
            );
            assert.ok(other !== null);
            assert.equal(lsp.child.exitCode, null, lsp.log());
        } finally {
            await lsp.close();
        }
    });

    it('the language server works from estimates and samples: capped, sampled and large uncapped rules, in a 400 MB heap', async () => {
        const ws = path.join(dir, 'ws-bounded');
        fs.cpSync(FIXTURES, ws, { recursive: true });
        fs.copyFileSync(path.join(dir, 'players.csv'), path.join(ws, 'players.csv'));
        fs.copyFileSync(path.join(dir, 'few.csv'), path.join(ws, 'few.csv'));
        const lsp = await startLanguageServer(ws, ['--max-old-space-size=400']);
        try {
            const line = spec()
                .split('\n')
                .findIndex(l => l.startsWith('rule colleague'));
            const hoverText = async (file: string) =>
                (
                    (await within(lsp.hover(file, line, 6), 20_000, `hover on the rule of ${file}`))?.contents as
                        MarkupContent | undefined
                )?.value ?? '';
            for (const [file, text, bound] of [
                ['capped.probe', spec('\n    cap 5000'), /its cap keeps a seeded sample of 5,000/],
                ['sampled.probe', spec('\n    sample 5000'), /a seeded sample of 5,000/],
            ] as const) {
                lsp.open(file, text);
                const ds = await within(lsp.diagnosticsFor(lsp.uri(file)), 30_000, `the diagnostics of ${file}`);
                assert.deepEqual(
                    ds.filter(d => d.severity === 1).map(d => d.message),
                    [],
                    file,
                );
                const hover = await hoverText(file);
                assert.match(hover, /about 40M facts/, `${file}: ${hover}`);
                assert.match(hover, bound, `${file}: ${hover}`);
            }
            // Under the 1M bound, `check` derives it whole; the editor still works from its estimate and a sample.
            const few = spec().replace('players.csv', 'few.csv');
            lsp.open('few.probe', few);
            await within(lsp.diagnosticsFor(lsp.uri('few.probe')), 30_000, 'the diagnostics of few.probe');
            const hover = await hoverText('few.probe');
            assert.match(hover, /about 980k facts/, hover);
            assert.match(hover, /sample of 10,000/, hover);
            assert.equal(lsp.child.exitCode, null, lsp.log());
        } finally {
            await lsp.close();
        }
    });
});
