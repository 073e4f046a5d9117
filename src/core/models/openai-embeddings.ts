/**
 * OpenAI-compatible embeddings (`/v1/embeddings`) through the official SDK: the optional similarity oracle of rule
 * probes (`embeddings MODEL`, rules/embed-run.ts) and the question-aware prizes of open probes (run/aids.ts). The model is declared like a chat model (provider, id,
 * endpoint, key_env) and its key resolved the same way, so it only goes where it is bound.
 */
import type OpenAI from 'openai';
import type { ResolvedModel } from './providers.js';
import { endpointSdk, toModelError } from './openai-client.js';
import { ModelError } from './types.js';

export interface Embeddings {
    vectors: number[][];
    tokens: number;
    latencyMs: number;
}

export class OpenAIEmbeddingsClient {
    private readonly sdk: OpenAI;

    constructor(
        private readonly model: ResolvedModel,
        private readonly key: string,
    ) {
        this.sdk = endpointSdk(model, key);
    }

    async embed(texts: string[], signal?: AbortSignal): Promise<Embeddings> {
        const started = performance.now();
        try {
            const res = await this.sdk.embeddings.create(
                { model: this.model.id, input: texts, encoding_format: 'float' },
                { signal },
            );
            const vectors = texts.map((_, i) => res.data.find(d => d.index === i)?.embedding);
            if (vectors.some(v => !Array.isArray(v)))
                throw new ModelError('bad_response', 'the embeddings response lacks a vector for some input');
            return {
                vectors: vectors as number[][],
                tokens: res.usage?.prompt_tokens ?? 0,
                latencyMs: performance.now() - started,
            };
        } catch (e) {
            throw toModelError(e, this.key, signal, { endpoint: this.sdk.baseURL, provider: this.model.provider });
        }
    }
}

export { cosine } from './cosine.js';
