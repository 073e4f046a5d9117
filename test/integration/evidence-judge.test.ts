// Entailment-based accuracy (issue 24, item 7): `judge_with MODEL` on an evidence probe asks a configured chat model
// — the real local OpenAI-compatible server through the openai SDK, in JSON mode — whether each answer entails the
// gold ("question? answer" ⊨ "question? gold", as the ReEval authors' NLI check); the label is kept on the verdict,
// the report shows it beside exact match and F1 (n/a without a judge), the calls are cached (a second run asks
// nothing) and priced into the run's cost.
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

interface KindFigures {
    n: number;
    exact: { value: number | null };
    entailment: { k: number; n: number; value: number | null } | null;
}

/**
 * A judge that reads the premise's answer as entailing the gold when it shares the gold's last word (a surname
 * answers "Who directed …?" as well as the full name does), contradiction otherwise.
 */
function judge(content: string): string {
    let sent: { premise?: string; hypothesis?: string };
    try {
        sent = JSON.parse(content) as typeof sent;
    } catch {
        return 'not a judge request';
    }
    const [premise, hypothesis] = [sent.premise, sent.hypothesis].map(s => /^.*?\? ([\s\S]*)$/.exec(s ?? '')?.[1]);
    if (premise === undefined || hypothesis === undefined) return 'not a judge request';
    const last = (s: string) =>
        s
            .toLowerCase()
            .replace(/[^a-z ]/g, '')
            .trim()
            .split(/\s+/)
            .at(-1) ?? '';
    return JSON.stringify({ label: last(premise) === last(hypothesis) ? 'entailment' : 'contradiction' });
}

describe('evidence: entailment accuracy through a configured judge model', () => {
    let dir: string;
    let server: TestServer;
    const formats: (string | undefined)[] = [];
    const env = { ...process.env, JUDGE_TEST_KEY: 'sk-judge-test' };
    before(async () => {
        dir = mkdtempSync(path.join(os.tmpdir(), 'halluprobe-judge-'));
        cpSync(path.join(repoRoot, 'examples', 'evidence'), path.join(dir, 'evidence'), { recursive: true });
        cpSync(path.join(repoRoot, 'examples', 'movie', 'data'), path.join(dir, 'movie', 'data'), { recursive: true });
        server = await startOpenAIServer({
            apiKey: 'sk-judge-test',
            answer: info => {
                formats.push(info.body.response_format?.type);
                return judge(info.question);
            },
        });
        const spec = readFileSync(path.join(dir, 'evidence', 'evidence.probe'), 'utf8');
        writeFileSync(
            path.join(dir, 'evidence', 'judged.probe'),
            `${spec.replace('perturb [swap, enrich, closed]', 'perturb [swap, closed]\n    judge_with judge')}
model judge openai {
    id "judge-model"
    endpoint "${server.url}"
    key_env "JUDGE_TEST_KEY"
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

    const run = (spec: string, db: string, resume = 'auto') =>
        runSpec({
            spec: path.join(dir, 'evidence', spec),
            db: path.join(dir, db),
            resume,
            limit: 40,
            env,
            origin: 'test',
            confirmHost: async () => true,
            confirmCost: async () => true,
        });
    const figures = async (db: string) => {
        const store = await openStore(path.join(dir, db));
        try {
            const latest = (await store.latestRun())!.id;
            const { data } = await loadReport(store, latest);
            const kinds = (phrasing: string) =>
                (
                    data.metrics.find(g => g.phrasing === phrasing && g.mode === 'all')!.figures!.evidence as {
                        byKind: Record<string, KindFigures>;
                    }
                ).byKind[phrasing]!;
            return { seed: kinds('seed'), swap: kinds('swap'), md: renderReport(data, 'md'), counts: await store.counts(latest) };
        } finally {
            await store.close();
        }
    };

    it('asks the judge in JSON mode for every answer and shows entailment beside exact match and F1, with its cost', async () => {
        const result = await run('judged.probe', 'judged.db');
        assert.equal(result.status, 'completed');
        assert.deepEqual(
            result.notes.filter(n => n.code === 'model-step'),
            [],
        );
        // One call per distinct judgement (a closed-book answer equal to its seed's asks the same thing: cached).
        const byId = new Map(result.results.questions.map(q => [q.id, q]));
        const distinct = new Set(
            result.results.answers
                .filter(a => a.text.trim())
                .map(a => JSON.stringify([byId.get(a.questionId)!.evidence!.asked, a.text.trim(), byId.get(a.questionId)!.gold])),
        );
        assert.equal(server.completed, distinct.size, 'one judge call per distinct judgement');
        assert.ok(formats.length > 0 && formats.every(f => f === 'json_object'), String(formats));
        const f = await figures('judged.db');
        assert.ok(f.seed.entailment && f.seed.entailment.n === f.seed.n, JSON.stringify(f.seed));
        assert.ok(f.swap.entailment && f.swap.entailment.n === f.swap.n);
        // The stale answers (the original director) contradict the swapped gold: entailment is below 1 on swaps.
        assert.ok(f.swap.entailment.value! < 1);
        assert.match(f.md, /\| entailment \(judge\) \|/);
        assert.match(f.md, /\| seed \|[^\n]*\| \d\.\d\d \\\[[^\n]*\\\] of \d+ \|/);
        // Priced at the declared price: the judge's calls are the run's only priced calls (the simulator is free).
        assert.ok(f.counts.cost > 0, JSON.stringify(f.counts));
    });

    it('caches the judge: a second run of the same answers asks the server nothing and gives the same figure', async () => {
        const first = await figures('judged.db');
        assert.ok(first.seed.entailment, 'the first run was judged');
        const before = server.completed;
        await run('judged.probe', 'judged.db', 'new');
        assert.equal(server.completed, before);
        assert.deepEqual((await figures('judged.db')).seed.entailment, first.seed.entailment);
    });

    it('without judge_with the entailment figure is n/a, not 0', async () => {
        await run('evidence.probe', 'plain.db');
        const f = await figures('plain.db');
        assert.equal(f.seed.entailment, null);
        assert.match(f.md, /\| seed \|[^\n]*\| n\/a \|/);
    });
});
