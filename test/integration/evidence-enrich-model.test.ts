// Context enriching with the paper's model steps (issue 24, item 6): `enrich_with MODEL` asks a configured chat model —
// the real local OpenAI-compatible server through the openai SDK, JSON mode — to select the supporting sentence,
// condense the related passages and merge them keeping the answer, before the run generates its questions. Every
// answer is validated (a merge that loses the supporting sentence is dropped and counted), the calls are cached (a
// second run and the preview ask nothing) and priced into the run's cost; without the model the preview says the
// cases wait for a run.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { previewSpec, runSpec, type Preview } from '../../src/core/run/index.js';
import { openStore } from '../../src/core/store/index.js';

const json = (o: object) => JSON.stringify(o);
/** Answers whose first letter is in A–F get a merge that drops the supporting sentence (the validation must catch it). */
const careless = (answer: string) => /^[A-F]/.test(answer);

/** A faithful model of the three steps, on the prompts' own layout. */
function steps(content: string): string {
    if (content.startsWith('A question, the answer and a passage')) {
        const answer = /\nAnswer:\n(.*)\n\nPassage:\n/.exec(content)![1]!;
        const passage = /\nPassage:\n([\s\S]*)\n\nReply/.exec(content)![1]!;
        return json({ sentence: passage.split(/(?<=\.) +/).find(s => s.includes(answer)) ?? '' });
    }
    if (/relevant passages? (is|are) shown below/.test(content)) {
        return json({
            passage: [...content.matchAll(/^\[\d\] (.*)$/gm)].map(m => m[1]!.replace(/, starring .*$/, '.')).join(' '),
        });
    }
    if (content.startsWith('Two passages and a span')) {
        const [, support, other, span] = /\n\[1\] (.*)\n\n\[2\] ([\s\S]*)\n\nSpan:\n(.*)\n/.exec(content)!;
        return json({ passage: careless(span!) ? other : `${other} Meanwhile, ${support}` });
    }
    return 'not a step';
}

describe("evidence: enriching with the paper's model steps (enrich_with)", () => {
    let dir: string;
    let server: TestServer;
    const prompts: string[] = [];
    const env = { ...process.env, ENRICH_TEST_KEY: 'sk-enrich-test' };
    const spec = () => path.join(dir, 'evidence', 'enriched.probe');
    before(async () => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-enrich-'));
        cpSync(path.join(repoRoot, 'examples', 'evidence'), path.join(dir, 'evidence'), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        server = await startOpenAIServer({
            apiKey: 'sk-enrich-test',
            answer: info => {
                prompts.push(info.question);
                return steps(info.question);
            },
        });
        const text = readFileSync(path.join(dir, 'evidence', 'evidence.probe'), 'utf8');
        writeFileSync(
            spec(),
            `${text.replace('perturb [swap, enrich, closed]', 'perturb [enrich]\n    enrich_with enricher\n    limit 12')}
model enricher openai {
    id "enrich-model"
    endpoint "${server.url}"
    key_env "ENRICH_TEST_KEY"
    price_input 1000
    price_output 2000
}
`,
        );
    });
    after(async () => {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
    });

    const db = () => path.join(dir, 'enrich.db');
    const preview = async () => (await previewSpec({ spec: spec(), db: db() })) as Preview;
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

    it('before a run, the preview asks nothing and says the enriched cases wait for the model', async () => {
        const p = await preview();
        assert.equal(server.requests, 0);
        assert.equal(p.questions.filter(q => q.phrasing === 'enrich').length, 0);
        assert.match(p.summary, /enrich: 0 of 12 cases valid; dropped: awaiting-model 12/);
        assert.ok(
            p.notes.some(n => /model answer\(s\) that generation reads .* are not in the store yet/.test(n)),
            p.notes.join('\n'),
        );
    });

    it('a run asks select and summarise, then merge; keeps the validated cases, drops merges that lost the support', async () => {
        const result = await run();
        assert.equal(result.status, 'completed');
        const selects = prompts.filter(p => p.startsWith('A question')).length;
        const summaries = prompts.filter(p => /relevant passages? (is|are) shown/.test(p)).length;
        const merges = prompts.filter(p => p.startsWith('Two passages')).length;
        assert.deepEqual([selects, summaries, merges], [12, 12, 12]);
        const enriched = result.results.questions.filter(q => q.phrasing === 'enrich');
        const dropped = result.results.questions.filter(q => q.phrasing === 'seed' && careless(q.evidence!.original)).length;
        assert.ok(dropped > 0 && dropped < 12, `${dropped} careless merges`);
        assert.equal(enriched.length, 12 - dropped);
        for (const q of enriched) {
            assert.deepEqual(q.evidence!.enrichedBy, { model: 'enricher', steps: ['select', 'summarise', 'merge'] });
            assert.ok(
                q.evidence!.passage.includes(`Meanwhile, `) && q.evidence!.passage.includes(q.evidence!.original),
                q.evidence!.passage,
            );
            assert.equal(q.evidence!.position, undefined, 'a merged passage has no position among passages');
        }
        // The steps' calls are recorded with the run at the model's price.
        const store = await openStore(db());
        try {
            assert.ok((await store.counts(result.run.id)).cost > 0);
        } finally {
            await store.close();
        }
    });

    it('the answers are cached: the preview shows the same cases and a second run asks nothing', async () => {
        const before = server.requests;
        const p = await preview();
        assert.match(p.summary, /enrich: (\d+) of 12 cases valid; dropped: merge-invalid \d+/);
        assert.ok(!p.notes.some(n => /not in the store yet/.test(n)));
        const again = await run('new');
        assert.equal(server.requests, before);
        const ids = (qs: { id: string; phrasing: string }[]) =>
            qs
                .filter(q => q.phrasing === 'enrich')
                .map(q => q.id)
                .sort();
        assert.deepEqual(ids(again.results.questions), ids(p.questions));
    });
});
