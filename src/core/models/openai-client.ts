/**
 * OpenAI-compatible chat completions through the official SDK (OpenAI, Azure OpenAI v1, Ollama, vLLM, LM Studio,
 * llama.cpp, OpenRouter). The SDK's own retries are off: the runner retries, so every attempt is counted.
 */
import { lazyPackage } from '../lazy-package.js';
import type OpenAI from 'openai';
import type { ResolvedModel } from './providers.js';
import { keyScrubber, redact } from './secrets.js';
import { idleTimeoutFetch } from './idle-fetch.js';
import { clampWait, parseRateLimits } from './rate-headers.js';
import { ModelError, type Completion, type CompletionRequest, type ModelClient } from './types.js';

/** The SDK at its first use: the language server reaches this module through the probe families but calls no model. */
export const openaiSdk = lazyPackage<typeof import('openai')>('openai', () => require('openai'));

/** How long a 429 or 5xx asks to wait, at most MAX_PACING_WAIT_MS (rate-headers.ts); undefined when it does not say. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
    return clampWait(retryAfter(headers, now));
}

function retryAfter(headers: Headers | undefined, now: number): number | undefined {
    if (!headers) return undefined;
    const ms = headers.get('retry-after-ms');
    if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
    const ra = headers.get('retry-after');
    if (!ra) return undefined;
    if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
    const at = Date.parse(ra);
    return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Maps whatever the SDK or the network threw to a ModelError with the key redacted. */
export function toModelError(
    e: unknown,
    key: string,
    signal?: AbortSignal,
    where?: { endpoint?: string; provider?: string },
): ModelError {
    const clean = (m: string) => redact(m, [key]);
    if (signal?.aborted) return new ModelError('cancelled', 'cancelled');
    if (e instanceof ModelError) return e;
    const OpenAI = openaiSdk().default;
    if (e instanceof OpenAI.APIUserAbortError) return new ModelError('cancelled', 'cancelled');
    if (e instanceof OpenAI.APIConnectionTimeoutError) return new ModelError('timeout', 'the request timed out');
    if (e instanceof OpenAI.APIConnectionError)
        return new ModelError(
            'connection',
            clean(`cannot reach ${where?.endpoint ?? 'the model server'}: ${causeOf(e)}${unreachableHint(where)}`),
        );
    if (e instanceof OpenAI.APIError) {
        const status = e.status ?? 0;
        const msg = clean(`HTTP ${status}: ${e.message}`);
        if (status === 429)
            return Object.assign(new ModelError('rate_limit', msg, parseRetryAfter(e.headers), status), {
                rateLimits: parseRateLimits(e.headers),
            });
        if (status === 408) return new ModelError('timeout', msg, undefined, status);
        if (status >= 500) return new ModelError('server', msg, parseRetryAfter(e.headers), status);
        if (status === 401 || status === 403) return new ModelError('auth', msg, undefined, status);
        if (status === 404) return new ModelError('not_found', msg, undefined, status);
        return new ModelError('request', msg, undefined, status);
    }
    // JSON that does not parse, a stream cut short: the endpoint answered, but not with an answer.
    const text = e instanceof Error ? e.message : String(e);
    if (e instanceof SyntaxError || /JSON|stream|terminated|premature/i.test(text))
        return new ModelError('bad_response', clean(`unreadable response: ${text}`));
    return new ModelError('connection', clean(text));
}

/** What to do when a model server does not answer at all: a local server is usually just not started. */
function unreachableHint(where?: { endpoint?: string; provider?: string }): string {
    if (where?.provider === 'ollama') return " — is Ollama running? Start it with `ollama serve` (or set the model's endpoint).";
    if (where?.endpoint && /\/\/(localhost|127\.|\[::1\])/.test(where.endpoint))
        return ' — is the server running on that address?';
    return " — check the network and the model's endpoint.";
}

function causeOf(e: Error): string {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error
        ? `${cause.message}${(cause as { code?: string }).code ? ` (${(cause as { code?: string }).code})` : ''}`
        : e.message;
}

/** The chat completions body of a request (a call, or one line of a batch). */
export function chatBody(modelId: string, request: CompletionRequest): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
    const { params } = request;
    const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
        model: modelId,
        messages: request.messages,
        temperature: params.temperature,
    };
    if (params.maxTokens !== undefined) body.max_tokens = params.maxTokens;
    if (params.topP !== undefined) body.top_p = params.topP;
    if (params.seed !== undefined) body.seed = params.seed;
    if (params.json) body.response_format = { type: 'json_object' };
    return body;
}

/**
 * The SDK for one model's endpoint: by default no retries of its own (the runner retries), `timeout_ms` bounding the
 * wait for an answer to start and each gap in its body, never the whole transfer (the fetch follows redirects within
 * the endpoint's origin only, on every route).
 */
export function endpointSdk(
    model: ResolvedModel,
    key: string,
    { retries = 0, timeoutMs = model.limits.timeoutMs }: { retries?: number; timeoutMs?: number } = {},
): OpenAI {
    return new (openaiSdk().default)({
        apiKey: key || 'not-needed',
        baseURL: model.endpoint,
        maxRetries: retries,
        timeout: timeoutMs,
        fetch: idleTimeoutFetch(timeoutMs),
    });
}

export class OpenAIChatClient implements ModelClient {
    readonly cacheable = true;
    readonly displayName: string;
    private readonly sdk: OpenAI;
    /** Every text the endpoint sends back loses the key's forms here, before anything stores, parses or shows it. */
    readonly scrub: (text: string) => string;

    constructor(
        private readonly model: ResolvedModel,
        private readonly key: string,
    ) {
        this.scrub = keyScrubber(key);
        this.displayName = `${model.id} (${model.provider})`;
        this.sdk = endpointSdk(model, key);
    }

    async complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
        const { params } = request;
        const body = chatBody(this.model.id, request);
        const started = performance.now();
        try {
            if (params.stream) return await this.streamed(body, started, signal);
            // withResponse: the headers carry the endpoint's rate limits, which the runner paces by.
            const { data: res, response } = await this.sdk.chat.completions
                .create(body, { signal, timeout: this.model.limits.timeoutMs })
                .withResponse();
            const choice = res.choices?.[0];
            if (!choice || typeof choice.message?.content !== 'string')
                throw new ModelError('bad_response', 'the response has no message content');
            return {
                text: this.scrub(choice.message.content),
                tokens: { input: res.usage?.prompt_tokens ?? 0, output: res.usage?.completion_tokens ?? 0 },
                latencyMs: performance.now() - started,
                finishReason: this.scrub(String(choice.finish_reason ?? 'unknown')),
                rateLimits: parseRateLimits(response.headers),
            };
        } catch (e) {
            throw toModelError(e, this.key, signal, { endpoint: this.sdk.baseURL, provider: this.model.provider });
        }
    }

    private async streamed(
        body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
        started: number,
        signal?: AbortSignal,
    ): Promise<Completion> {
        const { data: stream, response } = await this.sdk.chat.completions
            .create(
                { ...body, stream: true, stream_options: { include_usage: true } },
                { signal, timeout: this.model.limits.timeoutMs },
            )
            .withResponse();
        let text = '';
        let finishReason: string | undefined;
        let tokens = { input: 0, output: 0 };
        for await (const chunk of stream) {
            const choice = chunk.choices?.[0];
            if (choice?.delta?.content) text += choice.delta.content;
            if (choice?.finish_reason) finishReason = choice.finish_reason;
            if (chunk.usage) tokens = { input: chunk.usage.prompt_tokens ?? 0, output: chunk.usage.completion_tokens ?? 0 };
        }
        // A stream that ends without a finish reason was cut off: the text may be partial.
        if (!finishReason) throw new ModelError('bad_response', 'the stream ended before the answer was complete');
        return {
            text: this.scrub(text),
            tokens,
            latencyMs: performance.now() - started,
            finishReason: this.scrub(finishReason),
            rateLimits: parseRateLimits(response.headers),
        };
    }
}
