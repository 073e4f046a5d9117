/**
 * A local OpenAI-compatible server for tests and benchmarks: real node:http on 127.0.0.1, `/v1/chat/completions`
 * (JSON and SSE streaming), `/v1/models` and `/v1/embeddings` (deterministic bag-of-words vectors), scripted answers,
 * a latency distribution, fault injection per request and a count of every request it receives (by question text
 * too). No mocks: the real `openai` SDK talks to it.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { OfflineClient, type OfflineRates } from '../../src/core/models/offline.js';
import type { Question } from '../../src/core/probes/question.js';

export type Fault = 'rate_limit' | 'server_error' | 'hang' | 'reset' | 'malformed' | 'truncated';
export const FAULTS: Fault[] = ['rate_limit', 'server_error', 'hang', 'reset', 'malformed', 'truncated'];

export interface ChatRequest {
    model: string;
    messages: { role: string; content: string }[];
    temperature?: number;
    max_tokens?: number;
    seed?: number;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    /** JSON mode: `{ type: 'json_object' }`. */
    response_format?: { type: string };
}

export interface RequestInfo {
    /** 1-based number of this request among all chat requests. */
    n: number;
    /** The last user message: the question as asked. */
    question: string;
    /** 1-based: how many requests with this question text the server has received, this one included. */
    attempt: number;
    body: ChatRequest;
    /** The Authorization header as received (an endpoint echoing the key back is a case to test). */
    authorization?: string;
}

export interface ServerOptions {
    /** The answer text; wins over `answers`. */
    answer?: (info: RequestInfo) => string;
    /** Answers keyed by question text (the last user message). */
    answers?: Record<string, string> | Map<string, string>;
    /** Fixed latency in ms, or a function drawing one per request (a distribution). */
    latencyMs?: number | ((info: RequestInfo) => number);
    /** A promise this request's answer waits for, if any: the answer is sent once it resolves. */
    hold?: (info: RequestInfo) => Promise<unknown> | undefined;
    /** A fault to inject into this request, if any. */
    fault?: (info: RequestInfo) => Fault | undefined;
    /** Retry-After (seconds) sent with 429s; default 0.05. */
    retryAfterSeconds?: number;
    /** When set, requests must carry `Authorization: Bearer <apiKey>` (else 401). */
    apiKey?: string;
    port?: number;
    /** `/v1/embeddings`: the vector of one input text (default: `bagOfWords`, deterministic). */
    embed?: (text: string) => number[];
    /** Enforce rate limits on chat requests (see `RateLimitOptions`). */
    rateLimit?: RateLimitOptions;
    /** The finish reason sent (default "stop"): an endpoint may echo anything there, the key included. */
    finishReason?: (info: RequestInfo) => string;
    /** Sends each answer's body in `pieces` parts `gapMs` apart (headers at once): slow, but never silent long. */
    dribble?: { pieces: number; gapMs: number };
    /** An error answer (status and message) instead of a completion, for this request. */
    error?: (info: RequestInfo) => { status: number; message: string } | undefined;
    /** Headers added to this request's response, whatever it is (a hostile endpoint's pacing headers, say). */
    headers?: (info: RequestInfo) => Record<string, string> | undefined;
}

/**
 * Rate limits as OpenAI enforces them: buckets of `tokens` (prompt + completion of the answer about to be given,
 * charged when the request arrives) and `requests`, each refilled continuously to its limit over `windowMs` (a
 * minute at OpenAI; shorter in tests so they run fast). A request that does not fit is answered 429. Every
 * response carries `x-ratelimit-limit|remaining|reset-requests|tokens` and 429s `retry-after-ms`, unless
 * `headers` is false (an endpoint that says nothing).
 */
export interface RateLimitOptions {
    tokens?: number;
    requests?: number;
    windowMs: number;
    headers?: boolean;
}

/** A chat request the rate limiter let through: when and how many tokens it charged. */
export interface Charge {
    at: number;
    tokens: number;
}

export interface ReceivedRequest {
    n: number;
    question: string;
    at: number;
    fault?: Fault;
    authorization?: string;
}

export interface TestServer {
    /** Base URL for the SDK, ending in /v1. */
    url: string;
    port: number;
    /** Chat requests received (every attempt counts). */
    readonly requests: number;
    /** Requests per question text. */
    readonly byQuestion: Map<string, number>;
    readonly log: ReceivedRequest[];
    /** Chat requests answered in full. */
    readonly completed: number;
    /** Texts embedded by `/v1/embeddings` (every input of every request). */
    readonly embedded: number;
    /** With `rateLimit`: the requests it let through, in order, and how many it answered 429. */
    readonly charges: Charge[];
    readonly rateLimited: number;
    reset(): void;
    close(): Promise<void>;
}

const words = (s: string) => (s.match(/\S+/g) ?? []).length;

/**
 * A deterministic embedding: each lower-cased word (accents dropped) hashed into one of 256 dimensions, the vector
 * normalised — texts sharing words are close ("FC Barcelona" / "Barcelona" ≈ 0.71), texts sharing none orthogonal
 * unless two words collide.
 */
export function bagOfWords(text: string): number[] {
    const v = new Array<number>(256).fill(0);
    for (const w of text
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .match(/[a-z0-9]+/g) ?? []) {
        let h = 2166136261;
        for (const ch of w) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
        h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
        v[((h ^ (h >>> 12)) >>> 0) % 256]! += 1;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map(x => x / norm);
}

function lastUser(body: ChatRequest): string {
    for (let i = (body.messages?.length ?? 0) - 1; i >= 0; i--)
        if (body.messages[i]!.role === 'user') return body.messages[i]!.content;
    return '';
}

export async function startOpenAIServer(options: ServerOptions = {}): Promise<TestServer> {
    let requests = 0;
    let completed = 0;
    const byQuestion = new Map<string, number>();
    const log: ReceivedRequest[] = [];
    const sockets = new Set<Socket>();
    const timers = new Set<NodeJS.Timeout>();
    const table = options.answers instanceof Map ? options.answers : new Map(Object.entries(options.answers ?? {}));

    let embedded = 0;
    const limiter = options.rateLimit && rateLimiter(options.rateLimit);
    const answerFor = (info: RequestInfo) => options.answer?.(info) ?? table.get(info.question) ?? 'Yes.';

    const embeddings = (req: http.IncomingMessage, res: http.ServerResponse) => {
        const chunks: Buffer[] = [];
        req.on('data', c => chunks.push(c as Buffer));
        req.on('end', () => {
            let body: { model?: string; input?: string | string[] };
            try {
                body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
            } catch {
                return json(res, 400, { error: { message: 'body is not JSON' } });
            }
            if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`)
                return json(res, 401, { error: { message: 'Incorrect API key provided' } });
            const inputs = Array.isArray(body.input) ? body.input : typeof body.input === 'string' ? [body.input] : undefined;
            if (!inputs) return json(res, 400, { error: { message: 'input must be a string or a list of strings' } });
            embedded += inputs.length;
            const data = inputs.map((t, index) => ({ object: 'embedding', index, embedding: (options.embed ?? bagOfWords)(t) }));
            json(res, 200, {
                object: 'list',
                data,
                model: body.model ?? 'test-embedding',
                usage: {
                    prompt_tokens: inputs.reduce((n, t) => n + words(t), 0),
                    total_tokens: inputs.reduce((n, t) => n + words(t), 0),
                },
            });
        });
    };

    const server = http.createServer((req, res) => {
        const url = req.url ?? '';
        if (req.method === 'GET' && url.startsWith('/v1/models')) {
            return json(res, 200, {
                object: 'list',
                data: [{ id: 'test-model', object: 'model', created: 0, owned_by: 'halluprobe-test' }],
            });
        }
        // Counts for a test or benchmark driving the server in another process.
        if (req.method === 'GET' && url === '/_stats')
            return json(res, 200, { requests, completed, byQuestion: Object.fromEntries(byQuestion) });
        if (req.method === 'POST' && url.startsWith('/v1/embeddings')) return embeddings(req, res);
        if (req.method !== 'POST' || !url.startsWith('/v1/chat/completions'))
            return json(res, 404, { error: { message: `no route ${req.method} ${url}` } });
        const chunks: Buffer[] = [];
        req.on('data', c => chunks.push(c as Buffer));
        req.on('end', () => {
            let body: ChatRequest;
            try {
                body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
            } catch {
                return json(res, 400, { error: { message: 'body is not JSON' } });
            }
            const question = lastUser(body);
            requests++;
            const attempt = (byQuestion.get(question) ?? 0) + 1;
            byQuestion.set(question, attempt);
            const info: RequestInfo = { n: requests, question, attempt, body };
            if (req.headers.authorization) info.authorization = req.headers.authorization;
            const fault = options.fault?.(info);
            const entry: ReceivedRequest = { n: requests, question, at: Date.now() };
            if (req.headers.authorization) entry.authorization = req.headers.authorization;
            if (fault) entry.fault = fault;
            log.push(entry);
            if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
                return json(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
            }
            for (const [name, value] of Object.entries(options.headers?.(info) ?? {})) res.setHeader(name, value);
            if (limiter && !limiter.admit(res, usageOf(body, answerFor(info)))) {
                return json(res, 429, {
                    error: { message: 'Rate limit reached for tokens per min', type: 'tokens', code: 'rate_limit_exceeded' },
                });
            }
            const held = options.hold?.(info);
            if (held) {
                // Answered once the test's event has happened (a store gone, a worker stopped), unless the client left.
                void held.then(() => {
                    if (!res.destroyed) handle(res, body, info, fault);
                });
                return;
            }
            const latency = typeof options.latencyMs === 'function' ? options.latencyMs(info) : (options.latencyMs ?? 0);
            if (latency <= 0) return handle(res, body, info, fault);
            // A client that gives up (timeout, cancellation) closes the connection: stop the pending answer.
            const timer = setTimeout(() => {
                timers.delete(timer);
                handle(res, body, info, fault);
            }, latency);
            timers.add(timer);
            res.on('close', () => {
                clearTimeout(timer);
                timers.delete(timer);
            });
        });
    });

    function handle(res: http.ServerResponse, body: ChatRequest, info: RequestInfo, fault: Fault | undefined): void {
        switch (fault) {
            case 'hang':
                return; // never answers; the client's timeout must fire
            case 'reset':
                res.socket?.destroy();
                return;
            case 'rate_limit':
                res.writeHead(429, {
                    'content-type': 'application/json',
                    'retry-after': String(options.retryAfterSeconds ?? 0.05),
                });
                res.end(JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_error' } }));
                return;
            case 'server_error':
                return json(res, 500, { error: { message: 'The server had an error', type: 'server_error' } });
            case 'malformed':
                res.writeHead(200, { 'content-type': 'application/json' });
                res.end('{"id":"chatcmpl-broken","choices":[{"message":{"content":"Ye');
                return;
            default:
        }
        const failure = options.error?.(info);
        if (failure) return json(res, failure.status, { error: { message: failure.message, type: 'invalid_request_error' } });
        const text = answerFor(info);
        const finish = options.finishReason?.(info) ?? 'stop';
        const usage = usageOf(body, text);
        const base = { id: `chatcmpl-${info.n}`, created: 0, model: body.model };
        if (fault === 'truncated' && !body.stream) {
            // The body promised is longer than the body sent: the connection drops mid-response.
            res.writeHead(200, { 'content-type': 'application/json', 'content-length': 400 });
            res.write('{"id":"chatcmpl-cut","choices":[');
            setImmediate(() => res.socket?.destroy());
            return;
        }
        if (options.dribble) return dribbled(res, body, text, finish, usage, base, options.dribble, () => completed++);
        if (!body.stream) {
            completed++;
            return json(res, 200, {
                ...base,
                object: 'chat.completion',
                choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish, logprobs: null }],
                usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
            });
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        const send = (o: unknown) => res.write(`data: ${JSON.stringify(o)}\n\n`);
        const pieces = text.match(/\S+\s*/g) ?? [text];
        const chunk = (delta: object, finish: string | null) => ({
            ...base,
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta, finish_reason: finish }],
        });
        send(chunk({ role: 'assistant', content: '' }, null));
        // A truncated stream stops half way, without a finish reason or [DONE].
        const upTo = fault === 'truncated' ? Math.max(1, Math.floor(pieces.length / 2)) : pieces.length;
        for (const p of pieces.slice(0, upTo)) send(chunk({ content: p }, null));
        if (fault === 'truncated') {
            res.end();
            return;
        }
        send(chunk({}, finish));
        if (body.stream_options?.include_usage)
            send({
                ...base,
                object: 'chat.completion.chunk',
                choices: [],
                usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
            });
        res.write('data: [DONE]\n\n');
        res.end();
        completed++;
    }

    server.on('connection', s => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>(resolve => server.listen(options.port ?? 0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return {
        url: `http://127.0.0.1:${port}/v1`,
        port,
        get requests() {
            return requests;
        },
        get completed() {
            return completed;
        },
        get embedded() {
            return embedded;
        },
        charges: limiter?.charges ?? [],
        get rateLimited() {
            return limiter?.rejected ?? 0;
        },
        byQuestion,
        log,
        reset() {
            requests = 0;
            completed = 0;
            embedded = 0;
            byQuestion.clear();
            log.length = 0;
        },
        close: () =>
            new Promise<void>(resolve => {
                for (const t of timers) clearTimeout(t);
                for (const s of sockets) s.destroy();
                server.close(() => resolve());
            }),
    };
}

function usageOf(body: ChatRequest, text: string): { prompt_tokens: number; completion_tokens: number } {
    return {
        prompt_tokens: body.messages.reduce((n, m) => n + words(m.content) + 4, 3),
        completion_tokens: Math.max(1, words(text)),
    };
}

/** OpenAI's way of writing a duration: "1.25s", "250ms". */
const duration = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${Math.ceil(ms)}ms`);

function rateLimiter(o: RateLimitOptions) {
    const buckets = (['requests', 'tokens'] as const)
        .filter(k => (o[k] ?? 0) > 0)
        .map(k => ({ kind: k, limit: o[k]!, level: o[k]!, at: performance.now() }));
    const charges: Charge[] = [];
    const state = { charges, rejected: 0, admit };
    return state;

    /** Charges the request, or answers why not; sets the rate-limit headers either way. */
    function admit(res: http.ServerResponse, usage: { prompt_tokens: number; completion_tokens: number }): boolean {
        const now = performance.now();
        const need = (k: 'requests' | 'tokens') => (k === 'requests' ? 1 : usage.prompt_tokens + usage.completion_tokens);
        for (const b of buckets) {
            b.level = Math.min(b.limit, b.level + ((now - b.at) * b.limit) / o.windowMs);
            b.at = now;
        }
        const short = buckets.filter(b => b.level < need(b.kind));
        if (short.length === 0) for (const b of buckets) b.level -= need(b.kind);
        if (o.headers !== false) {
            for (const b of buckets) {
                res.setHeader(`x-ratelimit-limit-${b.kind}`, String(b.limit));
                res.setHeader(`x-ratelimit-remaining-${b.kind}`, String(Math.max(0, Math.floor(b.level))));
                res.setHeader(`x-ratelimit-reset-${b.kind}`, duration(((b.limit - b.level) * o.windowMs) / b.limit));
            }
            if (short.length)
                res.setHeader(
                    'retry-after-ms',
                    String(Math.ceil(Math.max(...short.map(b => ((need(b.kind) - b.level) * o.windowMs) / b.limit)))),
                );
        }
        if (short.length) {
            state.rejected++;
            return false;
        }
        charges.push({ at: now, tokens: need('tokens') });
        return true;
    }
}

/** The most tokens charged within any `windowMs` (a sliding window over the charges, in ms of performance.now()). */
export function maxInWindow(charges: readonly Charge[], windowMs: number): number {
    let best = 0,
        sum = 0,
        from = 0;
    for (let i = 0; i < charges.length; i++) {
        sum += charges[i]!.tokens;
        while (charges[from]!.at <= charges[i]!.at - windowMs) sum -= charges[from++]!.tokens;
        best = Math.max(best, sum);
    }
    return best;
}

/** A whole answer (JSON or SSE) written in `pieces` parts, `gapMs` apart. */
function dribbled(
    res: http.ServerResponse,
    body: ChatRequest,
    text: string,
    finish: string,
    usage: { prompt_tokens: number; completion_tokens: number },
    base: object,
    d: { pieces: number; gapMs: number },
    done: () => void,
): void {
    const total = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    const whole = body.stream
        ? [
              {
                  ...base,
                  object: 'chat.completion.chunk',
                  choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }],
              },
              { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] },
              { ...base, object: 'chat.completion.chunk', choices: [], usage: total },
          ]
              .map(o => `data: ${JSON.stringify(o)}\n\n`)
              .join('') + 'data: [DONE]\n\n'
        : JSON.stringify({
              ...base,
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish, logprobs: null }],
              usage: total,
          });
    res.writeHead(200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' });
    let i = 0;
    const next = () => {
        if (res.destroyed) return;
        res.write(whole.slice(Math.floor((i * whole.length) / d.pieces), Math.floor(((i + 1) * whole.length) / d.pieces)));
        if (++i < d.pieces) setTimeout(next, d.gapMs);
        else {
            res.end();
            done();
        }
    };
    next();
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
}

/** Injects `kinds` in turn into the first attempt of each question; later attempts succeed. */
export function firstAttemptFaults(kinds: Fault[] = FAULTS): (info: RequestInfo) => Fault | undefined {
    const assigned = new Map<string, Fault>();
    return info => {
        if (info.attempt !== 1) return undefined;
        if (!assigned.has(info.question)) assigned.set(info.question, kinds[assigned.size % kinds.length]!);
        return assigned.get(info.question);
    };
}

/** Answers "from the data", as the offline simulator would give them, keyed by question text. */
export function offlineAnswers(questions: Question[], rates: OfflineRates): Map<string, string> {
    const sim = new OfflineClient('test server', rates);
    return new Map(questions.map(q => [q.messages.filter(m => m.role === 'user').at(-1)?.content ?? q.question, sim.answer(q)]));
}

/** A latency distribution: `meanMs` ± uniform `jitterMs`, with a share of slow outliers, seeded (same run, same delays). */
export function latencyDistribution(o: {
    meanMs: number;
    jitterMs?: number;
    slowShare?: number;
    slowMs?: number;
    seed?: number;
}): (info: RequestInfo) => number {
    let state = (o.seed ?? 1) >>> 0 || 1;
    const next = () => {
        // xorshift32: tiny, deterministic, good enough for delays.
        state ^= state << 13;
        state >>>= 0;
        state ^= state >>> 17;
        state ^= state << 5;
        state >>>= 0;
        return state / 0x1_0000_0000;
    };
    return () => {
        const base = o.meanMs + (next() * 2 - 1) * (o.jitterMs ?? 0);
        return Math.max(0, next() < (o.slowShare ?? 0) ? (o.slowMs ?? o.meanMs * 10) : base);
    };
}
