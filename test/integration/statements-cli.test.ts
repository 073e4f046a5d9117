// Statement probes through the CLI a user types: preview, run with the offline simulator, report, estimate.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'src', 'cli', 'main.ts'), ...args], { cwd: repo, encoding: 'utf8', timeout: 180_000 });

describe('statement probes from the command line', () => {
    let dir: string;
    let spec: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-statements-'));
        cpSync(path.join(repo, 'examples', 'statements'), path.join(dir, 'statements'), { recursive: true });
        cpSync(path.join(repo, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        spec = path.join(dir, 'statements', 'statements.probe');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('previews statements with how each negative was made', () => {
        const r = cli(['preview', spec, '--probe', 'director_born', '--format', 'jsonl']);
        assert.equal(r.status, 0, r.stderr);
        const lines = r.stdout.trim().split('\n').map(l => JSON.parse(l) as { gold: string; statement: { corruption: string } });
        assert.ok(lines.some(l => l.gold === 'yes' && l.statement.corruption === 'true'));
        assert.ok(lines.some(l => l.gold === 'no' && ['tail', 'head'].includes(l.statement.corruption)));
    });

    it('runs offline and reports T, I, C, the confusion matrix and the triple groups', () => {
        const db = path.join(dir, 'r.db');
        const run = cli(['run', spec, '--db', db, '--yes']);
        assert.equal(run.status, 0, run.stderr);
        const md = cli(['report', '--db', db]);
        assert.match(md.stdout, /## Statements: truthfulness, informativeness, correctness/);
        assert.match(md.stdout, /## Statements: answers by polarity/);
        assert.match(md.stdout, /\| statements \| 120 \|/);
        const json = JSON.parse(cli(['report', '--db', db, '--format', 'json']).stdout) as { groups: { probe: string; mode: string; kind: string }[]; questionGroups: { relation: string }[] };
        assert.ok(json.groups.some(g => g.kind === 'statement'));
        assert.ok(json.questionGroups.some(g => g.relation === 'statements'));
    });

    it('estimates a model\'s C from a sample and says what was measured', () => {
        const r = cli(['estimate', spec, '--probe', 'movie_facts', '--model', 'simulator', '--cheap', 'cheap', '--budget', '30%', '--db', path.join(dir, 'e.db'), '--format', 'json']);
        assert.equal(r.status, 0, r.stderr);
        const e = JSON.parse(r.stdout) as { labelled: number; population: number; chosen: { value: number; ci: [number, number] }; metric: string };
        assert.equal(e.population, 120);
        assert.equal(e.labelled, 36);
        assert.equal(e.metric, 'C');
        assert.ok(e.chosen.ci[0] <= e.chosen.value && e.chosen.value <= e.chosen.ci[1]);
        const bad = cli(['estimate', spec, '--probe', 'movie_facts', '--model', 'simulator']);
        assert.equal(bad.status, 2);
        assert.match(bad.stderr, /--cheap/);
    });
});
