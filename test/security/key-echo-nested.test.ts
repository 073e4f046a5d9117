// Issue 40, items 1–2: random keys echoed by real local endpoints through nested encodings — in answers, finish
// reasons, batch output lines (answers and finish reasons) and a claim extractor's JSON (`extract_with`, the key as
// `sk\u002dproj…` inside an escaped JSON string) — are never stored, cached or printed, and `store copy` to a real
// PostgreSQL and back carries none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { executeRun } from '../../src/core/run/runner.js';
import { executeBatchRun } from '../../src/core/run/batch.js';
import { startOpenAIServer } from '../support/openai-server.js';
import { startBatchServer } from '../support/openai-batch-server.js';
import { movieQuestions } from '../support/questions.js';
import { newRun, serverModel, tempDir, tempStore } from '../support/runner-fixtures.js';
import { encoders, keyArb, recoverable, type Encoder } from '../support/key-encodings.js';
import { cli } from '../support/cli-process.js';
import { rulesSpecWithExtractor } from '../support/rules-extractor-spec.js';
import { startPostgres } from '../support/postgres.js';

/** Every text value in every table of a SQLite store. */
function storedTexts(file: string): string[] {
    const db = new Database(file, { readonly: true });
    try {
        const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
            t => t.name,
        );
        return tables.flatMap(t =>
            (db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]).flatMap(r =>
                Object.values(r).filter((v): v is string => typeof v === 'string'),
            ),
        );
    } finally {
        db.close();
    }
}

const chain = fc.array(fc.constantFrom(...encoders), { minLength: 1, maxLength: 3 });
const through = (k: string, c: [string, Encoder][], seed: number) => c.reduce((s, [, enc], i) => enc(s, seed + i), k);

test(
    'random keys through nested encodings in answers, finish reasons and batch lines are never stored or cached',
    { timeout: 300_000 },
    async () => {
        await fc.assert(
            fc.asyncProperty(keyArb, chain, chain, fc.integer(), async (key, answerChain, finishChain, seed) => {
                const echo = (n: number) => through(key, n % 2 ? answerChain : finishChain, seed + n);
                let n = 0;
                const chat = await startOpenAIServer({
                    answer: () => `Yes. debug ${echo(n++)} ok`,
                    finishReason: () => `stop-${echo(n)}`,
                });
                const batch = await startBatchServer({
                    answer: q => `Yes. ${echo(q.length)}`,
                    finishReason: q => `stop ${echo(q.length + 1)}`,
                });
                const store = tempStore();
                try {
                    const questions = movieQuestions(4, 'e');
                    const live = await newRun(store, questions);
                    await executeRun({ store, runId: live, questions, models: [serverModel(chat.url, {}, 'live', key)] });
                    const batched = await newRun(store, movieQuestions(4, 'b'));
                    await executeBatchRun({
                        store,
                        runId: batched,
                        questions: movieQuestions(4, 'b'),
                        models: [serverModel(batch.url, {}, 'batch', key)],
                        batch: { pollMs: 1 },
                    });
                    assert.equal((await store.counts(live)).answered + (await store.counts(batched)).answered, 8);
                    const file = store.file;
                    await store.close();
                    const leaked = storedTexts(file).filter(t => recoverable(t, key));
                    assert.deepEqual(
                        leaked,
                        [],
                        `${answerChain.map(c => c[0]).join(' > ')} / ${finishChain.map(c => c[0]).join(' > ')}`,
                    );
                } finally {
                    await store.close().catch(() => undefined);
                    await chat.close();
                    await batch.close();
                }
            }),
            { numRuns: 12 },
        );
    },
);

const KEY = 'sk-proj-Zx81Qw72Er63Ty54Ui45Op36As27Df18';
const ISSUE_FORMS = [
    KEY.replaceAll('-', '\\u002d'), // sk\u002dproj\u002d… : after one JSON parse of the reply below
    KEY.replaceAll('-', '\\\\u002d'), // escaped twice
    KEY.replaceAll('-', '\\-'), // Markdown
    Buffer.from(`Bearer ${KEY.replaceAll('-', '\\u002d')}`).toString('base64'),
];

test(
    'an extract_with reply holding the key as sk\\u002dproj… inside an escaped string and Markdown \\- answers: nothing stored or reported',
    { timeout: 300_000 },
    async () => {
        const dir = tempDir('hp-key-nested-');
        let n = 0;
        const server = await startOpenAIServer({
            answer: info => {
                const form = ISSUE_FORMS[n++ % ISSUE_FORMS.length]!;
                // JSON mode (the extractor): the key as a claim's subject, its escapes escaped once more by JSON.
                if (info.body.response_format)
                    return JSON.stringify({ triples: [{ subject: form, relation: 'club', object: 'x' }] });
                return `Yes, they were teammates. (debug ${form})`;
            },
            finishReason: () => `stop-${ISSUE_FORMS[n % ISSUE_FORMS.length]}`,
        });
        try {
            const file = rulesSpecWithExtractor(
                dir,
                { name: 'echo', id: 'echo-model', url: server.url, keyEnv: 'ECHO_NESTED_KEY' },
                true,
            );
            const db = path.join(dir, 'echo.db');
            const env = { ECHO_NESTED_KEY: KEY };
            const r = await cli(['run', file, '--db', db, '--yes'], env);
            assert.ok(r.code === 0 || r.code === 1, r.stdout + r.stderr);
            assert.ok(
                server.log.filter(e => e.authorization === `Bearer ${KEY}`).length > 10,
                'the server saw the key (so it could echo it)',
            );
            const printed = [r.stdout, r.stderr];
            for (const format of ['md', 'json', 'jsonl']) {
                const rep = await cli(['report', '--db', db, '--format', format], env);
                printed.push(rep.stdout, rep.stderr);
            }
            const texts = storedTexts(db);
            assert.ok(
                texts.some(t => t.includes('[redacted]')),
                'the echoes were stored, redacted',
            );
            assert.deepEqual(
                texts.filter(t => recoverable(t, KEY)),
                [],
                'the store holds the key',
            );
            assert.deepEqual(
                printed.filter(t => recoverable(t, KEY)).map(t => t.slice(0, 200)),
                [],
                'a report or the terminal shows the key',
            );
        } finally {
            await server.close();
        }
    },
);

test(
    "store copy to PostgreSQL and back carries no key: a batch run's echoed finish reasons, and a store written before they were redacted",
    { timeout: 300_000 },
    async () => {
        const pg = await startPostgres();
        assert.ok(pg, 'PostgreSQL is installed');
        pg.createDatabase('nested');
        const batch = await startBatchServer({
            answer: () => 'Yes.',
            finishReason: q => `stop-${ISSUE_FORMS[q.length % ISSUE_FORMS.length]}`,
        });
        const store = tempStore();
        try {
            const questions = movieQuestions(8, 'c');
            const runId = await newRun(store, questions);
            await executeBatchRun({
                store,
                runId,
                questions,
                models: [serverModel(batch.url, {}, 'batch', KEY)],
                batch: { pollMs: 1 },
            });
            assert.equal((await store.counts(runId)).answered, 8);
            // What a store written by an older HalluProbe holds: the key in a finish reason and an error.
            store.db.prepare('UPDATE cache SET finish_reason = ? WHERE hash = (SELECT MIN(hash) FROM cache)').run(`stop-${KEY}`);
            store.db.prepare('UPDATE calls SET error = ? WHERE id = (SELECT MIN(id) FROM calls)').run(`HTTP 400: bad key ${KEY}`);
            const db = store.file;
            await store.close();
            const back = path.join(tempDir('hp-key-copy-'), 'back.db');
            for (const [from, to] of [
                [db, pg.url('nested')],
                [pg.url('nested'), back],
            ] as const) {
                const copy = await cli(['store', 'copy', from, to], pg.env);
                assert.equal(copy.code, 0, copy.stderr);
            }
            const onServer = pg.sql('nested', "SELECT finish_reason FROM cache UNION ALL SELECT COALESCE(error, '') FROM calls");
            assert.ok(!recoverable(onServer, KEY), onServer);
            const texts = storedTexts(back);
            assert.ok(
                texts.some(t => t.startsWith('stop-[redacted]')),
                'the finish reasons were copied, redacted',
            );
            assert.deepEqual(
                texts.filter(t => recoverable(t, KEY)),
                [],
            );
        } finally {
            await store.close().catch(() => undefined);
            await batch.close();
            pg.stop();
        }
    },
);
