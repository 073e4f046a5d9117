/**
 * What a call's record says of its answer, the same for a run's answers, side calls and generation steps: served from
 * the cache (nothing called, nothing paid) or made now at the model's price. Loads no store (the light doors reach it).
 */
import { costOf, priceOf } from '../models/cost.js';
import type { ResolvedModel } from '../models/providers.js';
import type { Completion } from '../models/types.js';
import type { CacheEntry } from '../store/types.js';

/** A call's record of an answer served from the cache: its text and tokens; nothing was called, nothing paid. */
export function cachedCall(hit: Pick<CacheEntry, 'text' | 'tokensIn' | 'tokensOut' | 'finishReason'>) {
    const { text, tokensIn, tokensOut, finishReason } = hit;
    return { text, tokensIn, tokensOut, latencyMs: 0, cost: 0, attempts: 0, finishReason, cached: true };
}

/** A call's record of a completion made now, at the model's price. */
export function madeCall(model: ResolvedModel, done: Completion) {
    return {
        text: done.text,
        tokensIn: done.tokens.input,
        tokensOut: done.tokens.output,
        latencyMs: done.latencyMs,
        cost: costOf(priceOf(model), done.tokens),
        attempts: 1,
        finishReason: done.finishReason,
        cached: false,
    };
}
