// Issue 29, item 3: a join rule without a bound (`colleague(p, q) :- p.club = q.club, p != q` over 20,000 players
// in 10 clubs: 40M facts) ran `check` for minutes into a heap abort, and killed the language server. Its size is
// now estimated from the data before deriving: refused with a located error without a cap, a bounded sample with
// one, and the language server never derives it.
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

describe('join rules are sized before they are derived', { timeout: 120_000 }, () => {
    let dir: string;
    before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halluprobe-rule-size-'));
        const rows = Array.from({ length: PLAYERS }, (_, i) => `Player ${i},Club ${i % 10}`);
        fs.writeFileSync(path.join(dir, 'players.csv'), `player,club\n${rows.join('\n')}\n`);
        fs.writeFileSync(path.join(dir, 'big.probe'), spec());
        fs.writeFileSync(path.join(dir, 'capped.probe'), spec('\n    cap 5000'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('check refuses the unbounded join with a located error saying its size and the remedy', async () => {
        const r = await cli(['check', path.join(dir, 'big.probe')], SMALL_HEAP);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        const line = spec().split('\n').findIndex(l => l.startsWith('rule colleague')) + 1;
        assert.match(r.stdout + r.stderr, new RegExp(`big\\.probe:${line}:\\d+ error \\[rule-too-large\\] colleague derives about 40M facts .*Add 'cap N'`));
    });

    it('check derives a capped sample of it within the same small heap', async () => {
        const r = await cli(['check', path.join(dir, 'capped.probe')], SMALL_HEAP);
        assert.equal(r.code, 0, r.stdout + r.stderr);
    });

    it('the language server reports it and keeps answering other documents', async () => {
        fs.cpSync(FIXTURES, path.join(dir, 'ws'), { recursive: true });
        fs.copyFileSync(path.join(dir, 'players.csv'), path.join(dir, 'ws', 'players.csv'));
        const lsp = await startLanguageServer(path.join(dir, 'ws'));
        try {
            lsp.open('big.probe', spec());
            const ds = await within(lsp.diagnosticsFor(lsp.uri('big.probe'), d => d.some(x => x.code === 'rule-too-large')), 60_000, 'the size diagnostic');
            assert.match(String(ds.find(d => d.code === 'rule-too-large')!.message), /about 40M facts/);
            const line = spec().split('\n').findIndex(l => l.startsWith('rule colleague'));
            const hover = await within(lsp.hover('big.probe', line, 6), 20_000, 'hover on the rule');
            assert.match((hover?.contents as MarkupContent | undefined)?.value ?? '', /40M/);
            const movie = fs.readFileSync(path.join(dir, 'ws', 'movie.probe'), 'utf8');
            lsp.open('movie.probe', movie);
            await within(lsp.diagnosticsFor(lsp.uri('movie.probe')), 20_000, 'diagnostics of another document');
            const other = await within(lsp.hover('movie.probe', movie.split('\n').findIndex(l => l.startsWith('relation Movie')), 10), 2_000, 'hover on another document');
            assert.ok(other !== null);
            assert.equal(lsp.child.exitCode, null, lsp.log());
        } finally {
            await lsp.close();
        }
    });
});
