/** The opt-in LLM judge through `halluprobe report --judge`, against a real OpenAI-compatible server on 127.0.0.1. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer, type TestServer } from '../../support/openai-server.js';
import { openStore } from '../../../src/core/store/index.js';
import { verifyRun } from '../../../src/core/verify/run.js';
import { report } from '../../../src/cli/commands/report.js';
import { parseArgs } from '../../../src/cli/args.js';
import { data, kw, question, spec } from '../../fixtures/verify/world.js';

describe('report --judge', () => {
    let dir = '';
    let db = '';
    let server: TestServer;
    const judged: string[] = [];

    before(async () => {
        // The judge says yes exactly when the response it is shown names "Avatar".
        server = await startOpenAIServer({
            answer: info => {
                judged.push(info.question);
                return /"""[\s\S]*Avatar[\s\S]*"""/.test(info.question) ? 'Yes, it names it.' : 'No, it does not.';
            },
        });
        dir = mkdtempSync(path.join(tmpdir(), 'halluprobe-judge-'));
        db = path.join(dir, 'results.db');
        const specFile = path.join(dir, 'judge.probe');
        writeFileSync(specFile, `model judge vllm {\n    id "judge-model"\n    endpoint "${server.url}"\n}\n`);
        const store = await openStore(db);
        const r = await store.createRun(specFile, 's', {});
        const qs = Array.from({ length: 6 }, (_, i) =>
            question(`Is there a movie number ${i}?`, [[kw('Movie', 'title', 'Avatar')]]),
        );
        await store.saveQuestions(r.id, qs);
        for (const [i, q] of qs.entries())
            await store.recordAnswer({
                run: r.id,
                question: q.id,
                model: 'gpt',
                sample: 0,
                hash: `h${i}`,
                params: {},
                text: i % 2 ? 'Yes. It is Avatar.' : 'Yes. It is "Titanic".',
                tokensIn: 0,
                tokensOut: 0,
                latencyMs: 0,
                cost: 0,
                attempts: 1,
                finishReason: 'stop',
                cached: false,
                cacheable: false,
            });
        await verifyRun(store, r.id, spec, data);
        await store.close();
    });
    after(async () => {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
    });

    it('samples verdicts, asks the judge model, reports agreement and kappa labelled "LLM judge"', async () => {
        // Written to files: the test runner uses this process's stdout for its own messages.
        const json = path.join(dir, 'r.json');
        const md = path.join(dir, 'r.md');
        const err = console.error;
        console.error = () => {};
        try {
            assert.equal(
                await report.run(
                    parseArgs([
                        '--db',
                        db,
                        '--format',
                        'json',
                        '--out',
                        json,
                        '--judge',
                        'judge',
                        '--judge-sample',
                        '4',
                        '--yes',
                    ]),
                ),
                0,
            );
            assert.equal(
                await report.run(parseArgs(['--db', db, '--out', md, '--judge', 'judge', '--judge-sample', '2', '--yes'])),
                0,
            );
            assert.equal(
                await report.run(
                    parseArgs([
                        '--db',
                        db,
                        '--format',
                        'junit',
                        '--out',
                        md + '.xml',
                        '--judge',
                        'judge',
                        '--judge-sample',
                        '2',
                        '--yes',
                    ]),
                ),
                0,
            );
        } finally {
            console.error = err;
        }
        const j = JSON.parse(readFileSync(json, 'utf8')) as {
            judge: { label: string; n: number; agreement: number; kappa: number };
        };
        assert.equal(j.judge.label, 'LLM judge');
        assert.equal(j.judge.n, 4);
        assert.equal(judged.length, 8);
        assert.equal(j.judge.agreement, 1, 'this judge agrees with the verifier on every sampled verdict');
        assert.match(readFileSync(md, 'utf8'), /## LLM judge/);
        assert.match(readFileSync(md + '.xml', 'utf8'), /<property name="LLM judge" value="preset erbench-like, n 2/);
    });
});
