// Issue 27 items 3 and 4: negation through a composite key is refused unless a declared FD (or `complete`)
// justifies it, rule probes skip the rows of a violated FD, and a premise whose value equals its subject's name
// is kept (Liverpool's city is Liverpool).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { generateQuestions } from '../../../../src/core/probes/index.js';
import { world } from '../../../fixtures/probes/world.js';
import { cliArgs } from '../../../support/cli-path.js';

const repo = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 120_000 });

const players = (extra: string) => `source p csv "p.csv"
source c csv "c.csv"
relation Player from p label "player" { name: text  club: text  key (name, club) }
relation Club from c label "club" { name: text  city: text  key (name) }
fk Player.club -> Club.name as plays_for phrase "{subject} plays for {object}"
fd Club: name -> city as club_city
${extra}
rule not_at(p: Player, k: Club) :- plays_for(p, h), h.city = k.city, not plays_for(p, k)
    phrase "{p} does not play for {k}"
probe away rule using not_at { per_entity 4 }
`;
const FILES = { 'p.csv': 'name,club\nX,A\nX,B\nY,A\n', 'c.csv': 'name,city\nA,Rome\nB,Rome\n' };

describe('rule golds (issue 27)', () => {
    it('refuses negation through a composite key with no FD and nothing complete (real CLI check)', async () => {
        const w = await world(players(''), FILES);
        try {
            const r = cli(['check', path.join(w.dir, 'spec.probe'), '--format', 'json']);
            assert.equal(r.status, 1, r.stdout + r.stderr);
            const rows = JSON.parse(r.stdout) as { line: number; severity: string; code: string; message: string }[];
            const hit = rows.find(x => x.code === 'rule-unsound-negation');
            assert.ok(hit, r.stdout);
            assert.equal(hit.line, 8);
            assert.match(hit.message, /fd Player: name -> club/, 'the remedy names the FD to declare');
            assert.equal([...generateQuestions(w.model, w.data).questions].length, 0);
        } finally {
            w.dispose();
        }
    });

    it('with the FD declared but violated, the rows that break it give no question', async () => {
        const w = await world(players('fd Player: name -> club as player_club'), FILES);
        try {
            assert.deepEqual(
                w.diagnostics.filter(d => d.severity === 'error').map(d => d.message),
                [],
            );
            const qs = [...generateQuestions(w.model, w.data).questions];
            assert.ok(qs.length > 0, 'Y (one club) is still asked about');
            for (const q of qs) assert.ok(!/\bX\b/.test(q.question), `X plays for both A and B: ${q.question} (gold ${q.gold})`);
        } finally {
            w.dispose();
        }
    });

    it("keeps a premise whose value equals its subject's name (Liverpool's city is Liverpool)", async () => {
        const w = await world(
            `source c csv "c.csv"
relation Club from c label "club" { name: text  city: text  key (name) }
fd Club: name -> city as club_city
rule neighbours(a: Club, b: Club) :- a.city = b.city, a != b  phrase "{a} and {b} are in the same city"
probe n rule using neighbours { per_entity 4 }
`,
            { 'c.csv': 'name,city\nLiverpool,Liverpool\nEverton,Liverpool\n' },
        );
        try {
            const qs = [...generateQuestions(w.model, w.data).questions];
            const q = qs.find(x => x.rule?.args[0] === 'Liverpool');
            assert.ok(q, qs.map(x => x.question).join('\n'));
            const premises = q.rule!.premises.map(p => `${p.subject}.${p.attribute}=${p.value}`);
            assert.deepEqual(premises.sort(), ['Everton.city=Liverpool', 'Liverpool.city=Liverpool']);
        } finally {
            w.dispose();
        }
    });
});
