// Statement probes through the CLI a user types: preview, run with the offline simulator, report, estimate.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer } from '../support/openai-server.js';
import { cli as run } from '../support/cli-process.js';
import { loadSpec } from '../../src/core/spec/load.js';
import { loadData } from '../../src/core/data/index.js';
import { generateQuestions } from '../../src/core/probes/index.js';
import { cliArgs } from '../support/cli-path.js';
import { tsImport } from '../support/ts-loader.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const cli = (args: string[]) => spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 180_000 });

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
        const lines = r.stdout
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as { gold: string; statement: { corruption: string } });
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
        const json = JSON.parse(cli(['report', '--db', db, '--format', 'json']).stdout) as {
            groups: { probe: string; mode: string; kind: string }[];
            questionGroups: { relation: string }[];
        };
        assert.ok(json.groups.some(g => g.kind === 'statement'));
        assert.ok(json.questionGroups.some(g => g.relation === 'statements'));
    });

    it('exits quietly when the reader of its output goes away (report | head -c1)', () => {
        // The movie example's HTML report is larger than a pipe's buffer, so the write meets the closed pipe.
        const db = path.join(dir, 'movie.db');
        assert.equal(cli(['run', path.join(repo, 'examples', 'movie', 'movie.probe'), '--db', db, '--yes']).status, 0);
        const main = path.join(repo, 'src', 'cli', 'main.ts');
        const r = spawnSync(
            'bash',
            [
                '-c',
                `"${process.execPath}" ${tsImport().join(' ')} "${main}" report --db "${db}" --format html | head -c1; echo " status \${PIPESTATUS[0]}"`,
            ],
            { cwd: repo, encoding: 'utf8', timeout: 180_000 },
        );
        assert.equal(r.stdout, '< status 0\n');
        assert.doesNotMatch(r.stderr, /EPIPE|Error|at /, r.stderr);
    });

    it("estimates a model's C from a sample and says what was measured", () => {
        const r = cli([
            'estimate',
            spec,
            '--probe',
            'movie_facts',
            '--model',
            'simulator',
            '--cheap',
            'cheap',
            '--budget',
            '30%',
            '--db',
            path.join(dir, 'e.db'),
            '--format',
            'json',
        ]);
        assert.equal(r.status, 0, r.stderr);
        const e = JSON.parse(r.stdout) as {
            labelled: number;
            population: number;
            chosen: { value: number; ci: [number, number] };
            metric: string;
        };
        assert.equal(e.population, 120);
        assert.equal(e.labelled, 36);
        assert.equal(e.metric, 'C');
        assert.ok(e.chosen.ci[0] <= e.chosen.value && e.chosen.value <= e.chosen.ci[1]);
        const bad = cli(['estimate', spec, '--probe', 'movie_facts', '--model', 'simulator']);
        assert.equal(bad.status, 2);
        assert.match(bad.stderr, /--cheap/);
    });

    it('reads --budget 100% as every triple, not one', () => {
        const r = cli([
            'estimate',
            spec,
            '--probe',
            'movie_facts',
            '--model',
            'simulator',
            '--cheap',
            'cheap',
            '--budget',
            '100%',
            '--db',
            path.join(dir, 'all.db'),
            '--format',
            'json',
        ]);
        assert.equal(r.status, 0, r.stderr);
        const e = JSON.parse(r.stdout) as { labelled: number; population: number };
        assert.equal(e.population, 120);
        assert.equal(e.labelled, 120);
        const over = cli([
            'estimate',
            spec,
            '--probe',
            'movie_facts',
            '--model',
            'simulator',
            '--cheap',
            'cheap',
            '--budget',
            '150%',
        ]);
        assert.equal(over.status, 2);
        assert.match(over.stderr, /100 ?%/);
    });

    it('leaves failed expensive calls out of the estimate and counts them (a perfect model stays at 1)', async () => {
        const { model, data } = await loadSpec(spec).then(async l => ({ model: l.model, data: await loadData(l.model) }));
        const gold = new Map(
            [...generateQuestions(model, data, { probe: 'movie_facts' }).questions].map(q => [q.question, q.gold]),
        );
        const server = await startOpenAIServer({
            answer: info => (gold.get(info.question) === 'no' ? 'No, the statement is false.' : 'Yes, the statement is true.'),
            // Every call about Avatar fails, on every attempt.
            fault: info => (info.question.includes('Avatar') ? 'server_error' : undefined),
        });
        try {
            const served = path.join(dir, 'statements', 'served.probe');
            writeFileSync(
                served,
                `${readFileSync(spec, 'utf8')}\nmodel perfect openai { id "m"  endpoint "${server.url}"  key_env "STATEMENTS_TEST_KEY"  retries 0 }\n`,
            );
            const r = await run(
                [
                    'estimate',
                    served,
                    '--probe',
                    'movie_facts',
                    '--model',
                    'perfect',
                    '--cheap',
                    'cheap',
                    '--budget',
                    '100%',
                    '--db',
                    path.join(dir, 'failed.db'),
                    '--yes',
                    '--format',
                    'json',
                ],
                { STATEMENTS_TEST_KEY: 'sk-statements' },
            );
            assert.equal(r.code, 1, 'calls failed: the exit status says so');
            const e = JSON.parse(r.stdout) as {
                labelled: number;
                failed: number;
                population: number;
                sampleOnly: { value: number };
            };
            assert.ok(e.failed > 0, r.stdout);
            assert.equal(e.labelled + e.failed, e.population);
            assert.equal(e.sampleOnly.value, 1, 'the triples answered are all right: failures are not scored 0');
            const text = await run(
                [
                    'estimate',
                    served,
                    '--probe',
                    'movie_facts',
                    '--model',
                    'perfect',
                    '--cheap',
                    'cheap',
                    '--budget',
                    '100%',
                    '--db',
                    path.join(dir, 'failed.db'),
                    '--yes',
                ],
                { STATEMENTS_TEST_KEY: 'sk-statements' },
            );
            assert.match(text.stdout, new RegExp(`${e.failed} triples? left out: the expensive model's calls failed`));
        } finally {
            await server.close();
        }
    });
});
