// Question-aware retrieval by embeddings (issue 24, item 9): `embeddings MODEL` on an open probe asks the real local
// OpenAI-compatible server's /v1/embeddings (deterministic bag-of-words vectors) for the question's and every node's
// and edge's vector before the run generates; prizes follow the cosine of the question with each text, and relation
// replacement picks the least plausible relation by embeddings (ATS-style). Vectors are cached (a second run and the
// preview ask nothing); without them the preview falls back to BM25 and says so. The same on a SQLite store and on a
// PostgreSQL one (started by the test), where generation reads the vectors read ahead from the server.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bagOfWords, startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { previewSpec, runSpec, type Preview } from '../../src/core/run/index.js';
import { cosine } from '../../src/core/models/openai-embeddings.js';
import type { Question } from '../../src/core/probes/question.js';
import { postgresInstalled, startPostgres, type PostgresServer } from '../support/postgres.js';

const nodeText = (n: { label: string; type: string }) => `${n.label} ${n.type.replace(/[._]/g, ' ')}`;
const similarity = (a: string, b: string) => cosine(bagOfWords(a), bagOfWords(b));
/** The question as the data words it: the ask, without the prompt's facts. */
const asked = (q: Question) => q.messages.at(-1)!.content.split('\n')[0]!;

for (const engine of ['sqlite', 'postgres'] as const)
    describe(
        `open retrieval: prizes and relation replacement by embeddings (${engine} store)`,
        { skip: engine === 'postgres' && !postgresInstalled() ? 'PostgreSQL is not installed here' : false },
        () => {
            let dir: string;
            let server: TestServer;
            let pg: PostgresServer | undefined;
            const env = { ...process.env, EMBED_TEST_KEY: 'sk-embed-test' };
            const spec = () => path.join(dir, 'open', 'embedded.probe');
            const db = () => (pg ? pg.url('open') : path.join(dir, 'open.db'));
            before(async () => {
                if (engine === 'postgres') {
                    pg = await startPostgres();
                    pg!.createDatabase('open');
                    process.env.PGPASSWORD = pg!.password;
                }
                dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-open-embed-'));
                cpSync(path.join(repoRoot, 'examples', 'open'), path.join(dir, 'open'), { recursive: true });
                cpSync(path.join(repoRoot, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
                server = await startOpenAIServer({ apiKey: 'sk-embed-test' });
                const text = readFileSync(path.join(dir, 'open', 'open.probe'), 'utf8');
                writeFileSync(
                    spec(),
                    `${text
                        .replace('perturb ["rewire", "replace"]', 'perturb ["replace"]\n    embeddings embedder')
                        .replace('probes explain_pair, describe_movie', 'probes explain_pair')
                        .replace('sample first 10', 'sample first 4')}
model embedder openai {
    id "test-embedding"
    endpoint "${server.url}"
    key_env "EMBED_TEST_KEY"
}
`,
                );
            });
            after(async () => {
                await server.close();
                pg?.stop();
                delete process.env.PGPASSWORD;
                rmSync(dir, { recursive: true, force: true });
            });

            const preview = async () => (await previewSpec({ spec: spec(), db: db(), suite: 'open' })) as Preview;
            const run = (resume = 'auto') =>
                runSpec({
                    spec: spec(),
                    db: db(),
                    resume,
                    env,
                    origin: 'test',
                    confirmHost: async () => true,
                    confirmCost: async () => true,
                });

            it('before a run, the preview asks nothing: BM25 prizes, and it says the vectors are not in the store yet', async () => {
                const p = await preview();
                assert.equal(server.embedded, 0);
                assert.ok(p.questions.length > 0);
                assert.ok(p.questions.every(q => q.open!.retrieval.prizesFrom === 'bm25'));
                assert.match(p.summary, /prizes: embeddings \(embedder\) for 0 entities, BM25 for 4/);
            });

            let questions: Question[];
            it("a run embeds the question and the neighbourhood: prizes follow the question's cosine with each node and edge", async () => {
                const result = await run();
                assert.equal(result.status, 'completed');
                assert.ok(server.embedded > 0);
                questions = result.results.questions;
                const clean = questions.filter(q => q.phrasing === 'clean');
                assert.equal(clean.length, 4);
                for (const q of clean) {
                    assert.equal(q.open!.retrieval.prizesFrom, 'embeddings');
                    const g = q.open!.retrieval.graph;
                    // Non-seed nodes with a prize, best first: their cosine with the question never rises.
                    const ranked = g.nodes
                        .filter(n => !n.seed && n.prize > 0)
                        .sort((a, b) => b.prize - a.prize)
                        .map(n => similarity(asked(q), nodeText(n)));
                    assert.ok(ranked.length > 2);
                    ranked.forEach((s, i) =>
                        assert.ok(i === 0 || s <= ranked[i - 1]! + 1e-12, `node ${i}: ${ranked.join(', ')}`),
                    );
                    const label = new Map(q.open!.relations.map(r => [r.name, `${r.label} ${r.words.join(' ')}`]));
                    const node = new Map(g.nodes.map(n => [n.id, nodeText(n)]));
                    const edges = g.edges
                        .filter(e => e.prize > 0)
                        .sort((a, b) => b.prize - a.prize)
                        .map(e => similarity(asked(q), `${node.get(e.head)} ${label.get(e.relation)} ${node.get(e.tail)}`));
                    edges.forEach((s, i) => assert.ok(i === 0 || s <= edges[i - 1]! + 1e-12, `edge ${i}: ${edges.join(', ')}`));
                }
            });

            it('replaces each chosen relation by the least plausible one by embeddings (ATS-style), and says how plausible', () => {
                const replaced = questions.filter(q => q.open?.condition === 'replace');
                assert.ok(replaced.length > 0);
                let checked = 0;
                for (const q of replaced) {
                    const ctx = q.open!.context!;
                    const byId = new Map(ctx.nodes.map(n => [n.id, n]));
                    for (const e of ctx.edges.filter(x => x.perturbed?.kind === 'replace')) {
                        const head = byId.get(e.head)!,
                            tail = byId.get(e.tail)!;
                        const was = q.open!.relations.find(r => r.name === e.perturbed!.relation)!;
                        const others = q.open!.relations.filter(r => r.name !== was.name);
                        const pool = others.some(r => r.headType === head.type.split('.')[0])
                            ? others.filter(r => r.headType === head.type.split('.')[0])
                            : others;
                        const own = `${head.label} ${was.label} ${tail.label}`;
                        const scores = pool.map(r => similarity(own, `${head.label} ${r.label} ${tail.label}`));
                        const least = Math.min(...scores);
                        assert.ok(
                            Math.abs(e.perturbed!.plausibility! - least) < 1e-9,
                            `${e.perturbed!.plausibility} vs ${scores}`,
                        );
                        assert.equal(e.relation, pool[scores.indexOf(least)]!.name);
                        checked++;
                    }
                }
                assert.ok(checked > 0);
            });

            it("vectors are cached: the preview then shows the run's questions, and a second run asks nothing", async () => {
                const texts = server.embedded;
                const p = await preview();
                assert.ok(p.questions.every(q => q.open!.retrieval.prizesFrom === 'embeddings'));
                assert.doesNotMatch(p.summary, /BM25 for/);
                const byId = new Map(questions.map(q => [q.id, JSON.stringify(q.messages)]));
                for (const q of p.questions) assert.equal(JSON.stringify(q.messages), byId.get(q.id));
                await run('new');
                assert.equal(server.embedded, texts);
            });
        },
    );
