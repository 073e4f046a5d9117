/**
 * One JSON-mode call a step makes after verification (the model reader, rule claim extraction): answered from the
 * cache when the same request was made before, else asked; recorded with the run either way, like every call.
 */
import type { Store } from '../store/index.js';
import type { ChatMessage } from '../probes/question.js';
import type { ModelClient } from '../models/types.js';
import type { ResolvedModel } from '../models/providers.js';
import { requestHash } from '../run/hash.js';

export interface SideCallCounts { calls: number; cached: number }

/** The answer's text, or why the call failed; `label` names the step's calls in the store (`read:reader`). */
export async function jsonSideCall(store: Store, at: { run: string; question: string; sample: number; label: string }, c: { model: ResolvedModel; client: ModelClient }, messages: ChatMessage[], counts: SideCallCounts, signal?: AbortSignal): Promise<{ text: string } | { error: string }> {
    const params = { temperature: 0, response_format: 'json_object' };
    const hash = requestHash(c.model.endpoint, c.model.id, params, messages);
    const slot = { run: at.run, question: at.question, model: at.label, sample: at.sample, hash, params };
    const hit = c.client.cacheable ? store.cached(hash) : undefined;
    if (hit) {
        counts.cached++;
        store.recordSideCall({ ...slot, text: hit.text, tokensIn: hit.tokensIn, tokensOut: hit.tokensOut, latencyMs: 0, cost: 0, attempts: 0, finishReason: hit.finishReason, cached: true });
        return { text: hit.text };
    }
    try {
        const done = await c.client.complete({ messages, params: { temperature: 0, json: true }, sample: 0 }, signal);
        counts.calls++;
        if (c.client.cacheable) store.recordSideCall({ ...slot, text: done.text, tokensIn: done.tokens.input, tokensOut: done.tokens.output, latencyMs: done.latencyMs, cost: 0, attempts: 1, finishReason: done.finishReason, cached: false });
        return { text: done.text };
    } catch (e) {
        return { error: `the call failed: ${e instanceof Error ? e.message : String(e)}` };
    }
}
