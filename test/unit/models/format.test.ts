import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forecastLines, pacingLines, progressBar, progressLine, summaryLines, usd } from '../../../src/core/run/format.js';
import { cliCommand } from '../../../src/core/invocation.js';
import type { Progress } from '../../../src/core/run/runner.js';

const progress = (over: Partial<Progress>): Progress => ({
    total: 100,
    generating: false,
    questions: 50,
    done: 40,
    answered: 38,
    cached: 10,
    failed: 2,
    resumed: 5,
    tokensIn: 900,
    tokensOut: 100,
    cost: 0.0123,
    rate: 4,
    elapsedMs: 10_000,
    ...over,
});

test('progress: counts, tokens, cost, rate and time left', () => {
    assert.equal(
        progressLine(progress({})),
        '40/100 · 10 cached · 2 failed · 5 from before · 1000 tokens · $0.01 · 4.0/s · ~15s left',
    );
    assert.equal(
        progressLine(progress({ done: 0, cached: 0, failed: 0, resumed: 0, tokensIn: 0, tokensOut: 0, cost: 0, rate: 0 })),
        '0/100',
    );
    assert.match(progressBar(progress({ done: 50 }), 10), /^\[#####-----\]  50% 50\/100/);
    // While the questions are being generated the total is not known: no share, no time left.
    assert.equal(
        progressLine(progress({ generating: true, questions: 768 })),
        '40 done · generating… 768 questions so far · 10 cached · 2 failed · 5 from before · 1000 tokens · $0.01 · 4.0/s',
    );
    assert.match(progressBar(progress({ generating: true }), 10), /^\[~~~~~~~~~~\]    … 40 done/);
});

test('money is shown to the cent, or finer below a cent', () => {
    assert.deepEqual([usd(0), usd(0.004), usd(1.5)], ['$0', '$0.0040', '$1.50']);
});

test('estimates say where the output guess came from and when a price is unknown', () => {
    const lines = forecastLines(
        [
            { model: 'mini', requests: 10, inputTokens: 300, outputTokens: 600, usd: 0.0004, outputFrom: 'cache' },
            { model: 'odd', requests: 10, inputTokens: 300, outputTokens: 600, outputFrom: 'default' },
            { model: 'sim', requests: 0, inputTokens: 0, outputTokens: 0, usd: 0, outputFrom: 'default' },
        ],
        20,
        30,
    );
    assert.deepEqual(lines, [
        '20 of 30 answers to get (10 already in this run).',
        '  mini: 10 requests, ~300 input + ~600 output tokens (output from past answers), about $0.0004',
        '  odd: 10 requests, ~300 input + ~600 output tokens (output guessed), price unknown (set price_input / price_output)',
    ]);
});

test('the summary names the models (the simulator as such) and how to resume', () => {
    const run = {
        id: 'r1',
        spec: '/s.probe',
        suite: 'x',
        started: '',
        finished: null,
        status: 'cancelled' as const,
        settings: { models: [{ name: 'sim', provider: 'offline', display: 'sim (offline simulator)' }] },
    };
    const lines = summaryLines(
        run,
        { questions: 10, slots: 10, answered: 4, cached: 1, failed: 0, tokensIn: 0, tokensOut: 0, cost: 0, calls: 3 },
        1500,
    );
    assert.equal(lines[0], 'Run r1 cancelled in 2s — sim (offline simulator).');
    assert.equal(lines.at(-1), `  Continue it with: ${cliCommand()} run /s.probe --resume r1`);
});

test("pacing: requests, 429s, time paused and tokens/min against the endpoint's limit, per model", () => {
    const lines = pacingLines(
        progress({
            pacing: {
                mini: {
                    mode: 'endpoint',
                    requests: 200,
                    rateLimited: 1,
                    pausedMs: 1500,
                    tokens: 58_000,
                    activeMs: 60_000,
                    limitTokensPerMinute: 60_000,
                },
                local: { mode: 'aimd', requests: 50, rateLimited: 5, pausedMs: 0, tokens: 1000, activeMs: 30_000 },
                replay: { mode: 'fixed', requests: 10, rateLimited: 0, pausedMs: 0, tokens: 0, activeMs: 1 },
            },
        }),
    );
    assert.deepEqual(lines, [
        "  mini: 200 requests, 1 answered 429 (0.5 %), paused 1.5 s, 58000 tokens/min of the endpoint's 60000 (97 %).",
        '  local: 50 requests, 5 answered 429 (10.0 %), paused 0.0 s, 2000 tokens/min (the endpoint sends no limits: paced by its 429s).',
    ]);
});

test("a batch run's progress counts its batches by state; its estimate says it is at the batch price", () => {
    const b = (status: string) => ({ model: 'mini', id: `batch_${status}`, status, requests: 10, done: 0, failed: 0 });
    assert.match(
        progressLine(progress({ batches: [b('in_progress'), b('in_progress'), b('completed')] })),
        /^batches: 2 in_progress, 1 completed · 40\/100/,
    );
    assert.match(
        forecastLines(
            [{ model: 'mini', requests: 10, inputTokens: 300, outputTokens: 600, usd: 0.5, outputFrom: 'cache', batch: true }],
            10,
            10,
        )[1]!,
        /about \$0\.50 at the batch price$/,
    );
});
