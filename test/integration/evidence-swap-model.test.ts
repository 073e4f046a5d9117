// Issue 38 item 1: swaps by a model, as ReEval makes them (§3.1). `swap_by MODEL` asks a configured chat model — the
// local OpenAI-compatible test server through the openai SDK — for a wrong answer and a rewrite of the passage, with
// the paper's two prompts verbatim; each rewrite is validated like every swap (a rewrite that leaves the old answer,
// or a wrong answer of another type, is dropped and counted), the calls are cached and priced with the run.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { previewSpec, runSpec, type Preview } from '../../src/core/run/index.js';
import { openStore } from '../../src/core/store/index.js';

const FILMS: [string, string][] = [
    ['Alpha', 'James Cameron'],
    ['Bravo', 'Steven Spielberg'],
    ['Charlie', 'Ridley Scott'],
    ['Delta', 'Martin Scorsese'],
    ['Echo', 'Peter Jackson'],
    ['Foxtrot', 'Tim Burton'],
];
/** The model's wrong answers: a woman director for most; Echo gets a year (another type), Foxtrot a careless rewrite. */
const WRONG: Record<string, string> = {
    'James Cameron': 'Greta Gerwig',
    'Steven Spielberg': 'Sofia Coppola',
    'Ridley Scott': 'Jane Campion',
    'Martin Scorsese': 'Kathryn Bigelow',
    'Peter Jackson': '1999',
    'Tim Burton': 'Chloe Zhao',
};

/** The paper's two prompts, written out here as METHODS.md §4 quotes them. */
const wrongPrompt = (title: string, director: string) =>
    `Generate a wrong answer to the question that is different from the correct answer.\n\nQuestion: Who directed ${title}?\n\nAnswer: ${director}\n\nWrong Answer:`;
const passageOf = (title: string, director: string) => `${title} was directed by ${director}. He won an award for it.`;
const rewritePrompt = (title: string, director: string, fresh: string) =>
    `Rewrite the passage to replace all the occurrences of the text span with the new span.\nPassage: ${passageOf(title, director)}\nText Span: ${director}\nNew Span: ${fresh}\nNew Passage:`;

function model(content: string): string {
    const asked = /^Generate a wrong answer[\s\S]*\nAnswer: (.*)\n\nWrong Answer:$/.exec(content);
    if (asked) return `${WRONG[asked[1]!]!}`;
    const rewrite = /^Rewrite the passage[^\n]*\nPassage: (.*)\nText Span: (.*)\nNew Span: (.*)\nNew Passage:$/.exec(content);
    if (rewrite) {
        const [, passage, span, fresh] = rewrite;
        // A careless rewrite keeps the old answer; a faithful one mends the pronoun as well.
        if (span === 'Tim Burton') return `${passage!.replace(span, fresh!)} ${span} said so.`;
        return passage!.replaceAll(span!, fresh!).replace(/\bHe\b/, 'She');
    }
    return 'not a step';
}

describe("evidence: swaps by a model with the paper's prompts (swap_by)", () => {
    let dir: string;
    let server: TestServer;
    const prompts: string[] = [];
    const env = { ...process.env, SWAP_TEST_KEY: 'sk-swap-test' };
    const spec = () => path.join(dir, 'swap.probe');
    const db = () => path.join(dir, 'swap.db');
    before(async () => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-swap-model-'));
        server = await startOpenAIServer({
            apiKey: 'sk-swap-test',
            answer: info => {
                prompts.push(info.question);
                return model(info.question);
            },
        });
        writeFileSync(path.join(dir, 'films.csv'), `title,director\n${FILMS.map(f => f.join(',')).join('\n')}\n`);
        writeFileSync(
            spec(),
            `source films csv "films.csv"
relation Film from films { title: text  director: text  key (title) }
probe swapped evidence about Film {
    question "Who directed {title}?"
    answer director
    passage "{title} was directed by {director}. He won an award for it."
    swap_by swapper
}
model swapper openai {
    id "swap-model"
    endpoint "${server.url}"
    key_env "SWAP_TEST_KEY"
    price_input 1000
    price_output 2000
}
model reader offline { knowledge 1  seed 3 }
suite s { probes swapped  models reader }
`,
        );
    });
    after(async () => {
        await server.close();
        rmSync(dir, { recursive: true, force: true });
    });

    const preview = async () => (await previewSpec({ spec: spec(), db: db() })) as Preview;
    const run = (resume = 'auto') =>
        runSpec({
            spec: spec(),
            db: db(),
            suite: 's',
            resume,
            env,
            origin: 'test',
            confirmHost: async () => true,
            confirmCost: async () => true,
        });

    it("before a run the swaps wait for the model; a run asks the paper's two prompts, verbatim, and keeps only valid swaps", async () => {
        const p = await preview();
        assert.equal(server.requests, 0);
        assert.match(p.summary, /swap: 0 of 6 cases valid; dropped: awaiting-model 6/);
        const result = await run();
        assert.equal(result.status, 'completed');
        for (const [title, director] of FILMS)
            assert.ok(prompts.includes(wrongPrompt(title, director)), `wrong-answer prompt for ${title}`);
        for (const [title, director] of FILMS.filter(([, d]) => d !== 'Peter Jackson'))
            assert.ok(prompts.includes(rewritePrompt(title, director, WRONG[director]!)), `rewrite prompt for ${title}`);
        // A year for a director is of another type: no rewrite is asked for it.
        assert.ok(!prompts.some(x => x.startsWith('Rewrite') && x.includes('New Span: 1999')));
        const swaps = result.results.questions.filter(q => q.phrasing === 'swap');
        assert.deepEqual(swaps.map(q => q.evidence!.original).sort(), [
            'James Cameron',
            'Martin Scorsese',
            'Ridley Scott',
            'Steven Spielberg',
        ]);
        for (const q of swaps) {
            assert.equal(q.evidence!.swappedBy, 'swapper');
            assert.equal(q.gold && typeof q.gold === 'object' ? q.gold.answer : '', WRONG[q.evidence!.original]);
            assert.match(q.evidence!.passage, /^\w+ was directed by [\w ]+\. She won an award for it\.$/);
        }
        const store = await openStore(db());
        try {
            assert.ok((await store.counts(result.run.id)).cost > 0, "the model's calls are priced with the run");
        } finally {
            await store.close();
        }
    });

    it('the answers are cached: the preview counts the dropped swaps, a second run asks nothing', async () => {
        const before = server.requests;
        const p = await preview();
        assert.match(p.summary, /swap: 4 of 6 cases valid; dropped: old-answer-left 1, type-mismatch 1/);
        await run('new');
        assert.equal(server.requests, before);
    });
});
