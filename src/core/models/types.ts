/**
 * What every model face (OpenAI-compatible HTTP, replay, offline simulator) offers the runner, and a model as the
 * runner uses it. A leaf: it imports types of other leaves only (the family contract names a client and a model).
 */
import type { ChatMessage, Question } from '../probes/question.js';
import type { Settings } from '../spec/model.js';

/** One limit (requests or tokens) as the endpoint reported it (src/core/models/rate-headers.ts reads them). */
export interface RateLimit {
    /** The most the window allows. */
    limit: number;
    /** What is left of it now. */
    remaining: number;
    /** Until the window is back to `limit`, in ms (undefined when not sent). */
    resetMs?: number;
}

export interface RateLimitInfo {
    requests?: RateLimit;
    tokens?: RateLimit;
}

export interface CompletionParams {
    /** 0 unless the spec says otherwise: ERBench measures the model's single most likely answer. */
    temperature: number;
    maxTokens?: number;
    /** Nucleus sampling (`top_p`); the provider's default when unset. */
    topP?: number;
    seed?: number;
    /** Ask for a streamed answer and collect the deltas. */
    stream?: boolean;
    /** JSON mode (`response_format: { type: "json_object" }`): the answer is one JSON object (claim extraction). */
    json?: boolean;
}

/** One request: what is sent plus the question it comes from (replay and offline answer from it). */
export interface CompletionRequest {
    messages: ChatMessage[];
    params: CompletionParams;
    question?: Question;
    /** 0-based sample index when k samples per question are asked. */
    sample: number;
}

export interface Completion {
    text: string;
    tokens: { input: number; output: number };
    latencyMs: number;
    finishReason: string;
    /** The endpoint's rate-limit headers on this response, when it sent any. */
    rateLimits?: RateLimitInfo;
}

export interface ModelClient {
    /** Shown in progress, summaries and reports; the offline model's always contains "offline simulator". */
    readonly displayName: string;
    /** Answers from a network model are cached by request; local answers (replay, offline) are not. */
    readonly cacheable: boolean;
    complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion>;
    /**
     * Removes this client's key from a text read out of its answers — again after each parse or unescape step (a
     * JSON string value is one escape level less than the answer it was parsed from). Clients without a key have none.
     */
    readonly scrub?: (text: string) => string;
    /** A replayed model: how many of its recorded answers no question of this run asked for (so none is silently unused). */
    unmatched?(): { unmatched: number; records: number };
}

export interface Limits {
    concurrency: number;
    /** Requests per minute; 0 = no limit. */
    rpm: number;
    /** Tokens per minute (input + expected output); 0 = no limit. */
    tpm: number;
    timeoutMs: number;
    /** Attempts after the first. */
    retries: number;
    /** 'endpoint' (default): pace from the endpoint's rate-limit headers, rpm / tpm as caps; 'fixed': rpm / tpm only. */
    pacing: 'endpoint' | 'fixed';
}

export interface ResolvedModel {
    /** The name results are stored under: the spec's model name or the `--model` text. */
    name: string;
    provider: string;
    /** The model id sent to the endpoint (`gpt-4o-mini`). */
    id: string;
    /** Base URL for HTTP providers; '' for replay / offline. */
    endpoint: string;
    params: CompletionParams;
    samples: number;
    limits: Limits;
    keyEnv?: string;
    /** Per 1M tokens, from the model's settings; undefined → the price table. */
    price?: { input?: number; output?: number };
    /** Expected output tokens per answer for estimates when the cache has none. */
    expectedOutputTokens?: number;
    settings: Settings;
}

/** Why a call failed, as the runner needs to know it: retry or record. */
export type ModelErrorKind =
    | 'rate_limit'
    | 'server'
    | 'timeout'
    | 'connection'
    | 'bad_response'
    | 'auth'
    | 'request'
    | 'not_found'
    | 'cancelled'
    | 'no_answer'
    /** Replay: the log records a failed call for the question ("RESPONSE ERROR"). */
    | 'recorded_error';

const RETRYABLE = new Set<ModelErrorKind>(['rate_limit', 'server', 'timeout', 'connection', 'bad_response']);

export class ModelError extends Error {
    constructor(
        readonly kind: ModelErrorKind,
        message: string,
        /** From a Retry-After header, in ms. */
        readonly retryAfterMs?: number,
        readonly status?: number,
    ) {
        super(message);
    }

    /** The endpoint's rate-limit headers on the failed response (a 429), when it sent any. */
    rateLimits?: RateLimitInfo;

    get retryable(): boolean {
        return RETRYABLE.has(this.kind);
    }
}
