/**
 * A provider's Batch API through the official `openai` SDK: upload a JSONL of chat requests (`files.create`,
 * purpose "batch"), create the batch (`batches.create`, 24 h window, our id as metadata), read its state
 * (`batches.retrieve`), find it again by that metadata after a crash (`batches.list`), and read its output and
 * error files (`files.content`). Answers cost half the list price. Only providers that have one get one.
 */
import type OpenAI from 'openai';
import type { ResolvedModel } from './providers.js';
import { chatBody, endpointSdk, openaiSdk, toModelError } from './openai-client.js';
import { keyScrubber } from './key-scrubber.js';
import { ModelError, type Completion, type CompletionRequest } from './types.js';

/** Providers whose endpoint has a Batch API (files + batches, OpenAI's shape). */
export const BATCH_PROVIDERS: readonly string[] = ['openai'];

/** Batch answers cost this share of the list price (OpenAI: 50 %). */
export const BATCH_PRICE_SHARE = 0.5;

/** At most this many requests in one batch (OpenAI's limit: 50,000 and a 200 MB input file). */
export const BATCH_MAX_REQUESTS = 50_000;
export const BATCH_MAX_BYTES = 190 * 1024 * 1024;

type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';

/** A batch no longer changes once in one of these states. */
export const TERMINAL: ReadonlySet<string> = new Set(['failed', 'completed', 'expired', 'cancelled']);

export interface BatchState {
    id: string;
    status: BatchStatus;
    outputFile: string | null;
    errorFile: string | null;
    done: number;
    failed: number;
    errors: string[];
}

/** One line of a batch's output or error file: the answer of a request, or why there is none. */
export type BatchResult = { customId: string; completion: Completion } | { customId: string; error: string };

const state = (b: OpenAI.Batches.Batch): BatchState => ({
    id: b.id,
    status: b.status,
    outputFile: b.output_file_id ?? null,
    errorFile: b.error_file_id ?? null,
    done: b.request_counts?.completed ?? 0,
    failed: b.request_counts?.failed ?? 0,
    errors: (b.errors?.data ?? []).map(e => `${e.code ?? 'error'}: ${e.message ?? ''}`),
});

export class OpenAIBatchApi {
    private readonly sdk: OpenAI;
    /** Every text of an output or error line (answer, finish reason, error) loses the key here, as a call's does. */
    readonly scrub: (text: string) => string;

    constructor(
        private readonly model: ResolvedModel,
        private readonly key: string,
    ) {
        this.scrub = keyScrubber(key);
        // The chat client's SDK and fetch (redirects followed within the endpoint's origin only, on every route: uploads,
        // batches, the output files' downloads, as docs/models.md promises), with retries and a longer wait of its own.
        this.sdk = endpointSdk(model, key, { retries: 2, timeoutMs: Math.max(model.limits.timeoutMs, 120_000) });
    }

    /** One JSONL line: the chat request of a slot, under `customId`. */
    line(customId: string, request: CompletionRequest): string {
        return JSON.stringify({
            custom_id: customId,
            method: 'POST',
            url: '/v1/chat/completions',
            body: chatBody(this.model.id, request),
        });
    }

    async upload(jsonl: string, name: string): Promise<string> {
        return this.guard(
            async () =>
                (
                    await this.sdk.files.create({
                        file: await openaiSdk().toFile(Buffer.from(jsonl, 'utf8'), name),
                        purpose: 'batch',
                    })
                ).id,
        );
    }

    async create(inputFile: string, local: string): Promise<BatchState> {
        return this.guard(async () =>
            state(
                await this.sdk.batches.create({
                    input_file_id: inputFile,
                    endpoint: '/v1/chat/completions',
                    completion_window: '24h',
                    metadata: { halluprobe_batch: local },
                }),
            ),
        );
    }

    /** The batch created with our id `local`, if the provider has one (a run killed right after creating it). */
    async find(local: string): Promise<BatchState | undefined> {
        return this.guard(async () => {
            for await (const b of this.sdk.batches.list({ limit: 100 }))
                if (b.metadata?.halluprobe_batch === local) return state(b);
            return undefined;
        });
    }

    /**
     * The batch's state. One the provider no longer knows (404: deleted, or the endpoint now points at another
     * provider) is a failed batch: its requests are sent again, as any failed batch's.
     */
    async retrieve(id: string): Promise<BatchState> {
        try {
            return await this.guard(async () => state(await this.sdk.batches.retrieve(id)));
        } catch (e) {
            if (!(e instanceof ModelError) || e.kind !== 'not_found') throw e;
            return {
                id,
                status: 'failed',
                outputFile: null,
                errorFile: null,
                done: 0,
                failed: 0,
                errors: [`the provider no longer knows batch ${id} (HTTP 404)`],
            };
        }
    }

    /**
     * The lines of an output or error file, read as they arrive (a file of hundreds of MB is never held whole). A
     * line that is not the JSON of a result (cut short, garbled) is an error of its request when its custom_id can
     * still be read — the request is sent again — and is skipped otherwise (its request then has no result, and is
     * sent again too); either way the other lines are kept.
     */
    async *results(fileId: string): AsyncGenerator<BatchResult> {
        const response = await this.guard(() => this.sdk.files.content(fileId));
        let n = 0;
        try {
            for await (const raw of lines(response.body)) {
                n++;
                if (raw.trim() === '') continue;
                let parsed: ResultLine;
                try {
                    parsed = JSON.parse(raw) as ResultLine;
                    if (typeof parsed?.custom_id !== 'string') throw new Error('no custom_id');
                } catch (e) {
                    const customId = /"custom_id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw)?.[1];
                    if (customId)
                        yield {
                            customId,
                            error: this.scrub(
                                `unreadable line ${n} of the output file ${fileId}: ${e instanceof Error ? e.message : String(e)}`,
                            ),
                        };
                    continue;
                }
                yield this.clean(parseLine(parsed));
            }
        } catch (e) {
            throw toModelError(e, this.key, undefined, { endpoint: this.model.endpoint, provider: this.model.provider });
        }
    }

    private clean(r: BatchResult): BatchResult {
        if ('error' in r) return { customId: r.customId, error: this.scrub(r.error) };
        return {
            customId: r.customId,
            completion: {
                ...r.completion,
                text: this.scrub(r.completion.text),
                finishReason: this.scrub(r.completion.finishReason),
            },
        };
    }

    private async guard<T>(fn: () => Promise<T>): Promise<T> {
        try {
            return await fn();
        } catch (e) {
            throw toModelError(e, this.key, undefined, { endpoint: this.model.endpoint, provider: this.model.provider });
        }
    }
}

/** The lines of a byte stream, decoded as UTF-8 as they arrive. */
async function* lines(body: ReadableStream<Uint8Array> | null): AsyncGenerator<string> {
    if (!body) return;
    const decoder = new TextDecoder();
    let rest = '';
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        rest += decoder.decode(chunk, { stream: true });
        let at: number;
        while ((at = rest.indexOf('\n')) >= 0) {
            yield rest.slice(0, at);
            rest = rest.slice(at + 1);
        }
    }
    rest += decoder.decode();
    if (rest) yield rest;
}

interface ResultLine {
    custom_id: string;
    response?: { status_code: number; body?: OpenAI.Chat.ChatCompletion & { error?: { message?: string } } } | null;
    error?: { code?: string; message?: string } | null;
}

function parseLine(l: ResultLine): BatchResult {
    const customId = l.custom_id;
    if (l.error) return { customId, error: `${l.error.code ?? 'error'}: ${l.error.message ?? ''}` };
    const r = l.response;
    if (!r || r.status_code !== 200 || !r.body)
        return { customId, error: `HTTP ${r?.status_code ?? 0}: ${r?.body?.error?.message ?? 'no answer'}` };
    const choice = r.body.choices?.[0];
    if (!choice || typeof choice.message?.content !== 'string')
        return { customId, error: 'bad_response: the response has no message content' };
    return {
        customId,
        completion: {
            text: choice.message.content,
            latencyMs: 0,
            finishReason: choice.finish_reason ?? 'unknown',
            tokens: { input: r.body.usage?.prompt_tokens ?? 0, output: r.body.usage?.completion_tokens ?? 0 },
        },
    };
}

/** The model's Batch API, or undefined when its provider has none. */
export function batchApiFor(model: ResolvedModel, key: string): OpenAIBatchApi | undefined {
    return BATCH_PROVIDERS.includes(model.provider) ? new OpenAIBatchApi(model, key) : undefined;
}
