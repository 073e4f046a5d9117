/**
 * The cache key of a request: sha256 of its canonical JSON (sorted keys). Everything that can change the answer
 * is in it (endpoint, model id, parameters, messages, the sample index when k > 1); the key and transport
 * details (streaming, timeouts) are not.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../probes/question.js';
import type { CompletionParams } from '../models/types.js';

export function canonicalJson(value: unknown): string {
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
    const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The parameters that define an answer (stored with each call; never includes a key). */
export function answerParams(params: CompletionParams, sample: number): Record<string, unknown> {
    const out: Record<string, unknown> = { temperature: params.temperature };
    if (params.maxTokens !== undefined) out.max_tokens = params.maxTokens;
    if (params.seed !== undefined) out.seed = params.seed;
    // Sample 0 is the plain request, so asking for k samples later reuses the answers already cached.
    if (sample > 0) out.sample = sample;
    return out;
}

export function requestHash(endpoint: string, model: string, params: Record<string, unknown>, messages: ChatMessage[]): string {
    // Same text as canonicalJson of the whole request (keys in sorted order), built without sorting each message.
    let text = `{"endpoint":${JSON.stringify(endpoint)},"messages":[`;
    for (let i = 0; i < messages.length; i++)
        text += `${i ? ',' : ''}{"content":${JSON.stringify(messages[i]!.content)},"role":${JSON.stringify(messages[i]!.role)}}`;
    text += `],"model":${JSON.stringify(model)},"params":${canonicalJson(params)}}`;
    return createHash('sha256').update(text).digest('hex');
}
