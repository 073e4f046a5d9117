/** Shared set-up for runner tests and benchmarks: a store in a temp dir and models pointed at the test server. */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, priceOf, resolveModel } from '../../src/core/models/index.js';
import type { Settings } from '../../src/core/spec/model.js';
import { SqliteStore, type Store } from '../../src/core/store/index.js';
import { tempDir as removedAtExit } from './temp.js';
import type { RunModel } from '../../src/core/run/index.js';
import type { Question } from '../../src/core/probes/question.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export function tempDir(prefix = 'hp-run-'): string {
    return removedAtExit(prefix);
}

export function tempStore(): SqliteStore {
    return new SqliteStore(path.join(tempDir(), 'results.db'));
}

/** An OpenAI-provider model at `url` (the test server), through the real SDK. */
export function serverModel(url: string, settings: Settings = {}, name = 'local', key = 'sk-test-key'): RunModel {
    const { model, problems } = resolveModel({
        name,
        provider: 'openai',
        settings: { id: 'test-model', endpoint: url, ...settings },
        loc: { file: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
    });
    if (!model) throw new Error(problems.map(p => p.message).join('; '));
    const rm: RunModel = { model, client: createClient(model, { key }), secret: key };
    const price = priceOf(model);
    if (price) rm.price = price;
    return rm;
}

export async function newRun(store: Store, questions: Question[], suite = 's'): Promise<string> {
    const run = await store.createRun('/fixture.probe', suite, { slots: questions.length });
    await store.saveQuestions(run.id, questions);
    return run.id;
}

/** Writes the runner's fixture spec (test/fixtures/runner) into a temp dir with the model pointed at `endpoint`. */
export function writeSpec(endpoint: string): string {
    const dir = tempDir('hp-spec-');
    const fixtures = path.join(repoRoot, 'test', 'fixtures', 'runner');
    copyFileSync(path.join(fixtures, 'movies.csv'), path.join(dir, 'movies.csv'));
    const spec = path.join(dir, 'movie.probe');
    writeFileSync(spec, readFileSync(path.join(fixtures, 'movie.probe.template'), 'utf8').replaceAll('{{ENDPOINT}}', endpoint));
    return spec;
}

/** The runner fixture spec over `rows` generated movies (two questions each), its model at `url` with a 60 s timeout. */
export function bigSpec(url: string, rows: number): string {
    const spec = writeSpec(url);
    const lines = [',common_entity,entity3,entity2,entity1'];
    for (let i = 0; i < rows; i++) lines.push(`${i},Film Number ${i},${1900 + (i % 120)}.0,Director ${i % 500},Actor ${i}`);
    writeFileSync(path.join(path.dirname(spec), 'movies.csv'), `${lines.join('\n')}\n`);
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('timeout_ms 2000', 'timeout_ms 60000'));
    return spec;
}
