// OKGQA's own evaluation beside the data check (issue 38, item 7): `judge_with MODEL` on an open probe has a configured
// chat model — the real local OpenAI-compatible server through the openai SDK — score every answer on the paper's four
// G-Eval criteria, one call per criterion with the rubric docs/open.md writes out (recorded here as the server got
// it); the cost gate counts and prices those calls before the run, they are cached (a second run asks nothing) and
// priced with the run, and the report shows each criterion's mean and the judge's agreement with the data check.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOpenAIServer, type TestServer } from '../support/openai-server.js';
import { repoRoot } from '../support/runner-fixtures.js';
import { runSpec } from '../../src/core/run/index.js';
import { loadReport, renderReport } from '../../src/core/report/index.js';
import { openStore } from '../../src/core/store/index.js';
import type { CostForecast } from '../../src/core/models/index.js';

const docs = readFileSync(path.join(repoRoot, 'docs', 'open.md'), 'utf8');
const rubric = (c: string) => new RegExp('```text geval-' + c + '\\n([\\s\\S]*?)\\n```').exec(docs)![1]!;
const CRITERIA = ['relevance', 'comprehensiveness', 'correctness', 'empowerment'];

/** Correctness 5 for an answer of an even number of words, else 2 (so the judge sometimes disagrees with the data). */
const correctness = (answer: string) => ((answer.match(/\S+/g) ?? []).length % 2 === 0 ? 5 : 2);

/** The judge: each criterion's reply in another form ("{score}", "n/5", "Score: n"), and a refusal for Empowerment. */
function judge(system: string, user: string): string {
    const sent = JSON.parse(user) as { answer: string };
    if (system === rubric('relevance')) return '{"score": 4}';
    if (system === rubric('comprehensiveness')) return 'I rate it 3/5.';
    if (system === rubric('correctness')) return `Score: ${correctness(sent.answer)}`;
    if (system === rubric('empowerment')) return 'I cannot rate this.';
    return 'not a judge request';
}

describe("open: OKGQA's G-Eval judge beside the data check (judge_with)", () => {
    let dir: string;
    let server: TestServer;
    const received: { system: string; user: string }[] = [];
    const gates: { usd: number; forecasts: CostForecast[] }[] = [];
    const env = { ...process.env, GEVAL_TEST_KEY: 'sk-geval-test', HALLUPROBE_CONFIRM_USD: '0' };
    const spec = () => path.join(dir, 'open', 'judged.probe');
    const db = () => path.join(dir, 'judged.db');
    before(async () => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-open-judge-'));
        cpSync(path.join(repoRoot, 'examples', 'open'), path.join(dir, 'open'), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        server = await startOpenAIServer({
            apiKey: 'sk-geval-test',
            answer: info => {
                const [system, user] = [info.body.messages[0]!.content, info.question];
                received.push({ system, user });
                return judge(system, user);
            },
        });
        const text = readFileSync(path.join(dir, 'open', 'open.probe'), 'utf8');
        writeFileSync(
            spec(),
            `${text
                .replace(
                    'perturb ["rewire", "replace"]\n    levels [0.25, 0.5, 1]',
                    'perturb ["rewire"]\n    levels [1]\n    judge_with judge',
                )
                .replace('probes explain_pair, describe_movie', 'probes explain_pair')
                .replace('sample first 10', 'sample first 3')}
model judge openai {
    id "judge-model"
    endpoint "${server.url}"
    key_env "GEVAL_TEST_KEY"
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

    const run = (resume = 'auto') =>
        runSpec({
            spec: spec(),
            db: db(),
            resume,
            env,
            origin: 'test',
            confirmHost: async () => true,
            confirmCost: async (usd, forecasts) => {
                gates.push({ usd, forecasts });
                return true;
            },
        });

    it("counts the judge's calls at the cost gate, asks the rubric per criterion, and reports the scores beside the data check", async () => {
        const result = await run();
        assert.equal(result.status, 'completed');
        assert.deepEqual(
            result.notes.filter(n => n.code === 'model-step'),
            [],
        );
        const answers = result.results.answers;
        assert.equal(answers.length, 9, '3 pairs × (none, clean, rewire-100)');
        // The cost gate was asked before anything: 4 calls per answer to come, priced at the judge's price.
        const step = gates[0]!.forecasts.find(e => e.model === 'judge (model step)');
        assert.ok(step, JSON.stringify(gates[0]));
        assert.equal(step.requests, 4 * answers.length);
        assert.ok(step.usd! > 0 && gates[0]!.usd >= step.usd!);
        // Each answer judged once per criterion, with the rubric of docs/open.md and the texts as one JSON object.
        assert.equal(received.length, 4 * answers.length);
        for (const c of CRITERIA) assert.equal(received.filter(r => r.system === rubric(c)).length, answers.length, c);
        const byId = new Map(result.results.questions.map(q => [q.id, q]));
        for (const a of answers) {
            const asked = received
                .filter(r => (JSON.parse(r.user) as { answer: string }).answer === a.text.trim())
                .map(r => JSON.parse(r.user) as { question: string; facts: string });
            assert.ok(asked.length >= 4);
            assert.ok(byId.get(a.questionId)!.question.startsWith(`${asked[0]!.question}\n`));
            assert.equal(asked[0]!.facts === '(none)', byId.get(a.questionId)!.phrasing === 'none');
        }
        // The scores kept on each verdict; the refusal is unparsed, not a score.
        const verdicts = result.results.verdicts;
        for (const v of verdicts) {
            const answer = answers.find(a => a.questionId === v.questionId && a.model === v.model)!.text;
            assert.deepEqual(v.geval, {
                model: 'judge',
                scores: { relevance: 4, comprehensiveness: 3, correctness: correctness(answer.trim()) },
                unparsed: ['empowerment'],
            });
        }
        const store = await openStore(db());
        try {
            assert.ok((await store.counts(result.run.id)).cost > 0, "the judge's calls are priced with the run");
            const { data } = await loadReport(store, result.run.id);
            // The figures, per model × probe × context, against the verdicts themselves.
            for (const g of data.metrics.filter(m => m.mode === 'all' && m.probe === 'explain_pair')) {
                const mine = verdicts.filter(v => byId.get(v.questionId)!.phrasing === g.phrasing);
                const j = (
                    g.figures!.open as {
                        judge: {
                            criteria: Record<string, { mean: number | null; n: number }>;
                            unparsed: number;
                            agreement: { k: number; n: number };
                        };
                    }
                ).judge;
                assert.deepEqual(
                    [j.criteria.relevance!.mean, j.criteria.comprehensiveness!.mean, j.criteria.empowerment!.mean],
                    [4, 3, null],
                );
                const scores = mine.map(v => v.geval!.scores.correctness!);
                assert.equal(j.criteria.correctness!.mean, scores.reduce((s, x) => s + x, 0) / scores.length);
                assert.equal(j.unparsed, mine.length);
                assert.deepEqual(
                    [j.agreement.k, j.agreement.n],
                    [mine.filter(v => v.geval!.scores.correctness! >= 4 === v.correct).length, mine.length],
                );
            }
            const md = renderReport(data, 'md');
            assert.match(
                md,
                /## Open answers: OKGQA's G-Eval criteria by the judge \(mean 1–5, 95 % interval\); agreement: Correctness ≥ 4 vs the data check\n/,
            );
            assert.match(
                md,
                /\| Context Relevance \| Comprehensiveness \| Correctness \| Empowerment \| unparsed \| agreement with the data check \|/,
            );
            assert.match(
                md,
                /\| clean \|[^\n]*\| judge \| 3 \| 4\.00 \\?\[4\.00, 4\.00\\?\] \| 3\.00 \\?\[3\.00, 3\.00\\?\] \| \d\.\d\d [^|]*\| n\/a \| 3 \| \d\.\d\d \\?\[[^|]*\\?\] over 3 \|/,
            );
            assert.match(renderReport(data, 'html'), /Empowerment/);
            assert.match(renderReport(data, 'csv'), /open\.judge\.agreement/);
            assert.match(renderReport(data, 'json'), /"agreement"/);
            assert.match(
                renderReport(data, 'jsonl'),
                /"geval":\{"model":"judge","scores":\{"relevance":4,"comprehensiveness":3,"correctness":[25]\},"unparsed":\["empowerment"\]\}/,
            );
        } finally {
            await store.close();
        }
    });

    it('caches the judge: a second run of the same answers asks the server nothing', async () => {
        const before = server.completed;
        assert.ok(before > 0, 'the first run asked the judge');
        await run('new');
        assert.equal(server.completed, before);
    });
});
