/**
 * The settings of a `model` block, read where a declaration becomes a client (providers.ts `resolveModel`,
 * index.ts `createClient`, offline.ts). `suite: true` marks those a suite may set for the models it runs (a model's
 * own value wins; src/core/run/spec-run.ts `suiteModels`). The offline simulator's per-family rates are declared by
 * the families (`SimulatorCapability.rates`) and added to these by the language (`modelDecls`).
 */
import { declareSettings } from '../spec/settings.js';

export const MODEL_SETTINGS = declareSettings('model', {
    id: { type: 'text', doc: 'The provider\'s model id, e.g. "gpt-4o-mini" (required for an HTTP provider).' },
    endpoint: { type: 'text', doc: "The base URL of an OpenAI-compatible server (default: the provider's; required for azure)." },
    key_env: {
        type: 'text',
        doc: "The environment variable that holds the key (default: the provider's, e.g. OPENAI_API_KEY). Never write a key in a spec.",
    },
    temperature: { type: 'number', min: 0, default: 0, suite: true, doc: 'Sampling temperature sent with every request.' },
    max_tokens: { type: 'integer', min: 1, suite: true, doc: "The most tokens an answer may have (default: the provider's)." },
    top_p: { type: 'number', above: 0, max: 1, doc: "Nucleus sampling sent with every request (default: the provider's)." },
    seed: { type: 'integer', doc: "The seed sent to an HTTP model; the offline simulator's draws (default 1)." },
    samples: {
        type: 'integer',
        min: 1,
        default: 1,
        doc: 'How many times each question is asked (answers kept apart as samples).',
    },
    stream: { type: 'boolean', default: false, doc: 'Stream answers (a long answer is not cut by the idle timeout).' },
    price_input: { type: 'number', min: 0, doc: 'Dollars per million input tokens, for the cost estimate and gate.' },
    price_output: { type: 'number', min: 0, doc: 'Dollars per million output tokens, for the cost estimate and gate.' },
    expected_output_tokens: {
        type: 'integer',
        min: 1,
        doc: 'Output tokens an answer is expected to have, for the cost estimate (default: from the answers so far).',
    },
    concurrency: { type: 'integer', min: 1, suite: true, doc: 'Requests in flight at once (default 8; 64 for a local model).' },
    rpm: {
        type: 'number',
        min: 0,
        default: 0,
        suite: true,
        doc: "A cap on requests per minute (0: none; the endpoint's own limits are learned from its headers).",
    },
    tpm: { type: 'number', min: 0, default: 0, suite: true, doc: 'A cap on tokens per minute (0: none).' },
    pacing: {
        type: 'text',
        values: ['endpoint', 'fixed'],
        default: 'endpoint',
        suite: true,
        doc: "endpoint: learn the limits from the endpoint's x-ratelimit-* headers, with rpm / tpm as caps on top; fixed: only rpm / tpm.",
    },
    timeout_ms: {
        type: 'integer',
        min: 1,
        default: 60_000,
        suite: true,
        doc: 'How long a request may stay silent (on connect and between parts of the answer) before it is retried.',
    },
    retries: {
        type: 'integer',
        min: 0,
        default: 4,
        doc: 'How many times a failed request (timeout, 429, 5xx, a dropped connection) is sent again after the first attempt.',
    },
    file: {
        type: 'text',
        list: true,
        doc: 'replay: the transcript(s) to answer from (JSONL, CSV or an ERBench .log), relative to the spec.',
    },
    format: { type: 'text', doc: "replay: the transcripts' format when their extension does not say it." },
    knowledge: { type: 'number', min: 0, max: 1, default: 0.8, doc: 'offline: the share of entities the simulated model knows.' },
    unsure: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.05,
        doc: 'offline: the share of answers about an unknown entity that say "not sure" instead of guessing.',
    },
    omit: { type: 'number', min: 0, max: 1, default: 0.1, doc: 'offline: the share of correct answers that give no rationale.' },
    contradict: {
        type: 'number',
        min: 0,
        max: 1,
        default: 0.05,
        doc: 'offline: the share of rationales that state another value of the same attribute.',
    },
});
