// Evidence probes through the CLI a user types, and the offline simulator's memory share checked by the metric.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliArgs } from '../support/cli-path.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 240_000 });

interface Json {
    groups: {
        probe: string;
        phrasing: string;
        mode: string;
        evidence?: { swap?: { n: number; stale: { value: number; ci: [number, number] } } };
    }[];
    questionGroups: { relation: string; outcomes: Record<string, number> }[];
}

describe('evidence probes from the command line', () => {
    let dir: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-evidence-'));
        cpSync(path.join(repo, 'examples', 'evidence'), path.join(dir, 'evidence'), { recursive: true });
        cpSync(path.join(repo, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('previews the seed, the swapped passage, the enriched one and the closed book', () => {
        const r = cli(['preview', path.join(dir, 'evidence', 'evidence.probe'), '--limit', '4', '--format', 'jsonl']);
        assert.equal(r.status, 0, r.stderr);
        const qs = r.stdout
            .trim()
            .split('\n')
            .map(
                l =>
                    JSON.parse(l) as {
                        phrasing: string;
                        messages: { role: string; content: string }[];
                        evidence: { original: string; spans?: [number, number][]; passage: string };
                    },
            );
        assert.deepEqual(
            qs.map(q => q.phrasing),
            ['seed', 'swap', 'enrich', 'closed'],
        );
        assert.equal(qs[0]!.messages.length, 1, "the paper's prompt is one user message");
        assert.match(
            qs[0]!.messages[0]!.content,
            /^Answer the question below, paired with a context that provides background knowledge\. Only output the answer without other context words\.\n\nContext: Avatar is a 2009 film directed by James Cameron/,
        );
        const swap = qs[1]!;
        assert.doesNotMatch(swap.evidence.passage, /James Cameron/);
        assert.ok(swap.evidence.spans!.length > 0);
        assert.doesNotMatch(qs[3]!.messages[0]!.content, /Context:/);
    });

    it('runs the movie suite offline and reports followed / stale per swapped case', () => {
        const db = path.join(dir, 'r.db');
        assert.equal(cli(['run', path.join(dir, 'evidence', 'evidence.probe'), '--db', db, '--yes']).status, 0);
        const md = cli(['report', '--db', db]).stdout;
        assert.match(md, /## Evidence: swapped answers — followed the passage or stale/);
        const json = JSON.parse(cli(['report', '--db', db, '--format', 'json']).stdout) as Json;
        assert.ok(json.questionGroups.some(g => g.relation === 'evidence' && (g.outcomes.followed ?? 0) > 0));
    });

    it('measures a simulator that trusts its memory 30 % of the time at a stale rate whose interval covers 0.30', () => {
        const rows = Array.from({ length: 400 }, (_, i) => `Film ${i},${1950 + (i % 60)},Director ${i % 97}`).join('\n');
        writeFileSync(path.join(dir, 'films.csv'), `title,year,director\n${rows}\n`);
        const spec = path.join(dir, 'films.probe');
        writeFileSync(
            spec,
            `source f csv "films.csv"
relation Film from f { title: text  year: int  director: text  key(title, year) }
probe who evidence about Film {
    question "Who directed {title}?"
    answer director
    passage "{title} ({year}) was directed by {director}."
}
model memory offline { knowledge 1  unsure 0  trusts_memory 0.3  seed 4 }
suite s { probes who  models memory }
`,
        );
        const db = path.join(dir, 'm.db');
        const run = cli(['run', spec, '--db', db, '--yes']);
        assert.equal(run.status, 0, run.stderr);
        const json = JSON.parse(cli(['report', '--db', db, '--format', 'json']).stdout) as Json;
        const swap = json.groups.find(g => g.phrasing === 'swap' && g.mode === 'all')!.evidence!.swap!;
        assert.equal(swap.n, 400);
        assert.ok(swap.stale.ci[0] <= 0.3 && 0.3 <= swap.stale.ci[1], `stale ${swap.stale.value} [${swap.stale.ci}]`);
    });
});
