/**
 * Pacing against a rate-limited endpoint: the local server enforces 60,000 tokens per minute (OpenAI-style
 * continuous refill, `x-ratelimit-*` headers, 429s with retry-after-ms). Two runs of the same length, in this
 * process: the runner pacing from the endpoint's headers, and today's fixed pacing with `tpm` guessed 20 % too
 * high (72,000). Figures: tokens the endpoint accepted as a share of what the limit allows over the run, and the
 * share of requests answered 429.
 *
 * HALLUPROBE_PACING_WINDOW_MS (default 60000) shortens the endpoint's "minute" and HALLUPROBE_PACING_WINDOWS
 * (default 3) sets the run's length in windows; the tokens limit per window stays 60,000 × window / 1 min.
 * With a short window the fixed run's `tpm` bucket (a real minute's worth) bursts more windows' worth at once.
 */
import { executeRun } from '../src/core/run/index.js';
import { startOpenAIServer } from '../test/support/openai-server.js';
import { movieQuestions } from '../test/support/questions.js';
import { newRun, serverModel, tempStore } from '../test/support/runner-fixtures.js';
import { report, type BenchRow } from './support.js';

const WINDOW = Number(process.env.HALLUPROBE_PACING_WINDOW_MS ?? 60_000);
const WINDOWS = Number(process.env.HALLUPROBE_PACING_WINDOWS ?? 3);
const PER_MINUTE = 60_000;
const LIMIT = Math.round((PER_MINUTE * WINDOW) / 60_000);
/** ~130 tokens a request: ~460 requests a minute at the limit. */
const ANSWER = `${'The answer is yes, and here is why it is so. '.repeat(11)}Yes.`;

async function paced(name: string, settings: Record<string, string | number>): Promise<BenchRow[]> {
    const server = await startOpenAIServer({
        latencyMs: 200,
        answer: () => ANSWER,
        rateLimit: { tokens: LIMIT, windowMs: WINDOW },
    });
    const store = tempStore();
    try {
        const questions = movieQuestions(Math.ceil((PER_MINUTE / 100) * (WINDOW / 60_000) * WINDOWS * 1.5) + 50, `${name}-`);
        const runId = await newRun(store, questions);
        const controller = new AbortController();
        const length = WINDOW * WINDOWS;
        const timer = setTimeout(() => controller.abort(), length);
        const started = performance.now();
        await executeRun({
            store,
            runId,
            questions,
            models: [serverModel(server.url, { concurrency: 16, retries: 8, ...settings })],
            signal: controller.signal,
        });
        clearTimeout(timer);
        const accepted = server.charges.filter(c => c.at - started <= length).reduce((n, c) => n + c.tokens, 0);
        const allowed = LIMIT * WINDOWS;
        const share429 = server.requests ? server.rateLimited / server.requests : 0;
        const label = `${name} (${LIMIT} tokens per ${WINDOW / 1000} s window, ${WINDOWS} windows)`;
        return [
            {
                bench: 'runner',
                case: `rate-limited endpoint, ${label}: tokens accepted / allowed`,
                value: accepted / allowed,
                unit: 'share of limit',
                goal: name.startsWith('learned') ? '≥ 0.95' : undefined,
                met: name.startsWith('learned') ? accepted / allowed >= 0.95 : undefined,
            },
            {
                bench: 'runner',
                case: `rate-limited endpoint, ${label}: requests answered 429`,
                value: share429,
                unit: `share of ${server.requests} requests`,
                goal: name.startsWith('learned') ? '< 0.01' : undefined,
                met: name.startsWith('learned') ? share429 < 0.01 : undefined,
            },
        ];
    } finally {
        await store.close();
        await server.close();
    }
}

const rows = [
    ...(await paced('learned from the headers', {})),
    ...(await paced('fixed tpm 20 % too high', { pacing: 'fixed', tpm: Math.round(PER_MINUTE * 1.2) })),
];
report(rows);
