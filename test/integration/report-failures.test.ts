// Issue 27 item 12: a run whose calls failed says so in every report format, per probe and model — never
// "N verdicts, N passed, 0 failed" as if everything had been asked. Real CLI, real local OpenAI-compatible server.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { cli } from '../support/cli-process.js';
import { repoRoot } from '../support/runner-fixtures.js';

const ENV = { REPORT_TEST_KEY: 'sk-report-test' };

describe('failed calls in every report format', () => {
    let dir: string;
    let db: string;
    let server: TestServer;
    before(async () => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-report-failures-'));
        cpSync(path.join(repoRoot, 'examples', 'statements'), path.join(dir, 'statements'), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        // Every call about James Cameron fails, on every attempt; the others are answered.
        server = await startOpenAIServer({
            answer: () => 'Yes, the statement is true.',
            fault: info => (info.question.includes('James Cameron') ? 'server_error' : undefined),
        });
        const spec = path.join(dir, 'statements', 'served.probe');
        writeFileSync(
            spec,
            `${readFileSync(path.join(dir, 'statements', 'statements.probe'), 'utf8')}\nmodel local openai { id "m"  endpoint "${server.url}"  key_env "REPORT_TEST_KEY"  retries 0 }\nsuite born { probes director_born  models local }\n`,
        );
        db = path.join(dir, 'r.db');
        const run = await cli(['run', spec, '--suite', 'born', '--db', db, '--yes'], ENV);
        assert.ok(run.code === 0 || run.code === 1, run.stderr);
        assert.ok(server.completed > 0);
    });
    after(async () => {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
    });

    const report = async (format: string) => {
        const r = await cli(['report', '--db', db, '--format', format], ENV);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout;
    };

    it('md, html, json, csv, jsonl and junit count the questions whose calls failed, per probe and model', async () => {
        const json = JSON.parse(await report('json')) as {
            failedCalls: number;
            unanswered: { probe: string; model: string; failed: number; notAnswered: number }[];
        };
        const failed = json.failedCalls;
        assert.ok(failed > 0, 'some calls failed');
        assert.deepEqual(
            json.unanswered.map(u => [u.probe, u.model, u.failed]),
            [['director_born', 'local', failed]],
        );
        assert.match(await report('md'), new RegExp(`${failed} questions? not answered: the calls failed`));
        assert.match(await report('md'), /\| director\\_born \| local \| \d+ \| 0 \|/);
        assert.match(await report('html'), new RegExp(`${failed} questions? not answered: the calls failed`));
        const csv = (await report('csv')).split('\n');
        // The statement family's figure columns (triples, truthfulness, …) follow the shared ones.
        const header = csv[0]!.split(',');
        assert.ok(csv[0]!.includes(',not_answered,failed_calls,'), csv[0]);
        const [na, fc] = [header.indexOf('not_answered'), header.indexOf('failed_calls')];
        assert.ok(
            csv.some(l => {
                const c = l.split(',');
                return l.startsWith('local,director_born,statement,') && c[na] === '0' && c[fc] === String(failed);
            }),
            csv.slice(0, 4).join('\n'),
        );
        const jsonl = (await report('jsonl'))
            .trim()
            .split('\n')
            .map(l => JSON.parse(l) as { status?: string; probe?: string });
        assert.equal(jsonl.filter(l => l.status === 'failed').length, failed);
        const junit = await report('junit');
        assert.equal((junit.match(/<error /g) ?? []).length, failed);
        assert.match(junit, new RegExp(`<testsuites [^>]*errors="${failed}"`));
    });
});
