/**
 * What every model face (OpenAI-compatible HTTP, replay, offline simulator) offers the runner.
 */
import type { ChatMessage, Question } from '../probes/question.js';
import type { RateLimitInfo } from './rate-headers.js';

export interface CompletionParams {
    /** 0 unless the spec says otherwise: ERBench measures the model's single most likely answer. */
    temperature: number;
    maxTokens?: number;
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
}

/** Why a call failed, as the runner needs to know it: retry or record. */
export type ModelErrorKind =
    | 'rate_limit' | 'server' | 'timeout' | 'connection' | 'bad_response'
    | 'auth' | 'request' | 'not_found' | 'cancelled' | 'no_answer';

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

    get retryable(): boolean { return RETRYABLE.has(this.kind); }
}
