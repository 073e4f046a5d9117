/**
 * Prices and cost. The table is USD per 1M tokens, edited here or overridden per model with the price_input /
 * price_output settings. Input tokens are counted with gpt-tokenizer (o200k, exact for current OpenAI models, a
 * close estimate for others); output tokens come from the cache's average or a setting.
 */
import { lazyPackage } from '../lazy-package.js';
import type { ChatMessage } from '../probes/question.js';
import { providerFacts, type ResolvedModel } from './providers.js';

export interface Price {
    input: number;
    output: number;
}

/** USD per 1M tokens (public list prices; edit as they change). Matched by the longest prefix of the model id. */
const PRICES: Record<string, Price> = {
    'gpt-4o-mini': { input: 0.15, output: 0.6 },
    'gpt-4o': { input: 2.5, output: 10 },
    'gpt-4.1-nano': { input: 0.1, output: 0.4 },
    'gpt-4.1-mini': { input: 0.4, output: 1.6 },
    'gpt-4.1': { input: 2, output: 8 },
    'gpt-4-turbo': { input: 10, output: 30 },
    'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
    'gpt-5-nano': { input: 0.05, output: 0.4 },
    'gpt-5-mini': { input: 0.25, output: 2 },
    'gpt-5': { input: 1.25, output: 10 },
    'o3-mini': { input: 1.1, output: 4.4 },
    'o4-mini': { input: 1.1, output: 4.4 },
};

/** The price for a model, or undefined when unknown (the estimate then says so rather than guessing). */
export function priceOf(model: ResolvedModel): Price | undefined {
    const p = model.price;
    let base: Price | undefined;
    if (providerFacts(model.provider)?.free) base = { input: 0, output: 0 };
    else {
        // OpenRouter ids look like "openai/gpt-4o-mini".
        const id = model.id.toLowerCase().replace(/^[^/]+\//, '');
        const match = Object.keys(PRICES)
            .filter(k => id.startsWith(k))
            .sort((a, b) => b.length - a.length)[0];
        base = match ? PRICES[match] : undefined;
    }
    if (p?.input !== undefined || p?.output !== undefined)
        return { input: p?.input ?? base?.input ?? 0, output: p?.output ?? base?.output ?? 0 };
    return base;
}

export function costOf(price: Price | undefined, tokens: { input: number; output: number }): number {
    return price ? (tokens.input * price.input + tokens.output * price.output) / 1e6 : 0;
}

/**
 * gpt-tokenizer, loaded on first use: building its tables takes a few hundred milliseconds, which every command
 * that counts no tokens (check, report, runs, preview …) would otherwise pay at start-up.
 */
const tokens = lazyPackage<typeof import('gpt-tokenizer')>('gpt-tokenizer', () => require('gpt-tokenizer'));

/** Chat-format token count: the content plus the few tokens each message's framing costs. */
export function countMessageTokens(messages: ChatMessage[]): number {
    const { countTokens } = tokens();
    let n = 3;
    for (const m of messages) n += 4 + countTokens(m.content);
    return n;
}

/** What asking will cost, worked out before the calls (an estimate of a figure from a sample is `halluprobe estimate`'s). */
export interface CostForecast {
    model: string;
    requests: number;
    inputTokens: number;
    outputTokens: number;
    /** USD; undefined when the model's price is unknown. */
    usd?: number;
    /** Where the output estimate came from. */
    outputFrom: 'cache' | 'setting' | 'default';
    /** Priced as a provider batch (half the list price at OpenAI). */
    batch?: boolean;
}

export const DEFAULT_OUTPUT_TOKENS = 60;

/** The cost forecast for questions not asked yet: each is asked `model.samples` times. */
export function forecastCost(
    model: ResolvedModel,
    requests: Iterable<{ messages: ChatMessage[]; tokens?: number }>,
    averageOutputFromCache?: number,
): CostForecast {
    let inputTokens = 0;
    let count = 0;
    // `tokens`: the request's input tokens when the caller counted them already (the preview does, per row).
    for (const r of requests) {
        inputTokens += r.tokens ?? countMessageTokens(r.messages);
        count++;
    }
    return forecastFromCounts(model, count * model.samples, inputTokens * model.samples, averageOutputFromCache);
}

/** The cost forecast of `requests` requests holding `inputTokens` input tokens in all (counted as they streamed by). */
export function forecastFromCounts(
    model: ResolvedModel,
    requests: number,
    inputTokens: number,
    averageOutputFromCache?: number,
): CostForecast {
    const outputFrom =
        averageOutputFromCache !== undefined ? 'cache' : model.expectedOutputTokens !== undefined ? 'setting' : 'default';
    const perAnswer = averageOutputFromCache ?? model.expectedOutputTokens ?? DEFAULT_OUTPUT_TOKENS;
    const outputTokens = Math.round(perAnswer * requests);
    const price = priceOf(model);
    const est: CostForecast = { model: model.name, requests, inputTokens, outputTokens, outputFrom };
    if (price) est.usd = costOf(price, { input: inputTokens, output: outputTokens });
    return est;
}
