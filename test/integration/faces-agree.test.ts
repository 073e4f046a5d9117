// The CLI (`halluprobe run` + `halluprobe report`, a real process) and the extension's engine door
// (src/extension/engine.ts, as the commands call it) run the same spec to the same verdicts, metrics and report.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as engine from '../../src/extension/engine.js';
import { openStore } from '../../src/core/store/index.js';
import { cliArgs } from '../support/cli-path.js';

const repo = path.resolve(import.meta.dirname, '..', '..');

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, cliArgs(...args), { cwd: repo, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The report JSON without what differs by construction (run id, times). */
function comparable(json: string): unknown {
    const body = JSON.parse(json) as Record<string, unknown>;
    delete body.run;
    return body;
}

async function verdictsOf(db: string) {
    const store = await openStore(db);
    try {
        const run = (await store.latestRun())!;
        const r = (await store.loadRunResults(run.id))!;
        const key = (v: { questionId: string; model: string; sample: number }) => `${v.questionId} ${v.model} ${v.sample}`;
        return {
            verdicts: r.verdicts.map(v => ({ ...v })).sort((a, b) => key(a).localeCompare(key(b))),
            groups: r.groupVerdicts,
            questions: r.questions.map(q => q.id).sort(),
            settings: run.settings,
        };
    } finally {
        await store.close();
    }
}

describe('the CLI and the extension run the same engine path', () => {
    let dir: string;
    let spec: string;
    before(() => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-faces-'));
        cpSync(path.join(repo, 'examples', 'movie'), dir, { recursive: true });
        spec = path.join(dir, 'movie.probe');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    async function both(model: string, name: string) {
        const cliDb = path.join(dir, `${name}-cli.db`);
        const extDb = path.join(dir, `${name}-ext.db`);
        const run = cli(['run', spec, '--model', model, '--db', cliDb, '--yes', '--format', 'json']);
        assert.equal(run.code, 0, run.stderr);
        const report = cli(['report', '--db', cliDb, '--format', 'json']);
        assert.equal(report.code, 0, report.stderr);

        const outcome = await engine.run({
            file: spec,
            model,
            db: extDb,
            concurrency: 4,
            extraModels: [],
            secrets: { get: async () => undefined },
            confirmHost: async () => true,
            confirmCost: async () => true,
            signal: new AbortController().signal,
            onProgress: () => {},
        });
        assert.equal(outcome.status, 'completed');
        const extReport = await engine.report(extDb, outcome.run.id, 'json');

        const a = await verdictsOf(cliDb);
        const b = await verdictsOf(extDb);
        assert.ok(a.verdicts.length > 100, `${a.verdicts.length} verdicts`);
        assert.ok(a.groups.length > 50, `${a.groups.length} group verdicts`);
        assert.deepEqual(b.questions, a.questions, 'same questions');
        assert.deepEqual(b.verdicts, a.verdicts, 'same verdicts');
        assert.deepEqual(b.groups, a.groups, 'same group verdicts');
        assert.deepEqual(comparable(extReport.text), comparable(report.stdout), 'same report JSON');
        assert.equal((a.settings as { from?: string }).from, 'cli');
        assert.equal((b.settings as { from?: string }).from, 'vscode');
        return { cliDb, extDb };
    }

    it("with the offline simulator (the suite's model)", async () => {
        await both('simulator', 'offline');
    });

    it('with a replay of recorded answers, and the same report after answers were left unverified', async () => {
        // Recorded answers for every question the movie suite asks, keyed by question id.
        const { cliDb } = await both('simulator', 'seed');
        const store = await openStore(cliDb);
        const r = (await store.loadRunResults((await store.latestRun())!.id))!;
        await store.close();
        const lines = r.answers.map((x, i) =>
            JSON.stringify({ id: x.questionId, answer: i % 3 === 0 ? `No. ${x.text}` : x.text }),
        );
        const file = path.join(dir, 'recorded.jsonl');
        writeFileSync(file, lines.join('\n') + '\n');
        await both(`replay:${file}`, 'replay');

        // A run stored without verdicts: the editor's Export Report verifies them first, as `halluprobe report` does.
        const db = path.join(dir, 'unverified.db');
        const run = cli(['run', spec, '--model', `replay:${file}`, '--db', db, '--yes', '--no-verify', '--format', 'json']);
        assert.equal(run.code, 0, run.stderr);
        const runId = (JSON.parse(run.stdout) as { run: { id: string } }).run.id;
        const exported = JSON.parse((await engine.report(db, runId, 'json')).text) as { unverified: number; questions: number };
        assert.equal(exported.unverified, 0);
        const cliReport = cli(['report', '--db', db, '--run', runId, '--format', 'json']);
        assert.deepEqual(comparable(cliReport.stdout), comparable(JSON.stringify(exported)));
        assert.ok(readFileSync(file, 'utf8').length > 0);
    });
});
