/**
 * What an endpoint says about its rate limits on every response: `x-ratelimit-limit-requests|tokens`,
 * `x-ratelimit-remaining-requests|tokens` and `x-ratelimit-reset-requests|tokens` (OpenAI's names; durations like
 * "6m0s", "1.5s", "120ms"). The runner paces from these; an endpoint that sends none leaves them undefined.
 */

import type { RateLimit, RateLimitInfo } from './types.js';

export type { RateLimit, RateLimitInfo } from './types.js';

/**
 * The longest an endpoint's pacing header is taken at its word (docs/models.md): a `Retry-After` /
 * `retry-after-ms`, an `x-ratelimit-reset-*`, and the window learned from them. The openai SDK ignores a
 * Retry-After outside 0–60 s; a hostile or broken endpoint ("years", `1e15`, `6h20m`, a unit-less `9999999`) would
 * otherwise hold every worker for as long as it likes. Longer values count as this.
 */
export const MAX_PACING_WAIT_MS = 60_000;

/** A pacing delay from a header, within 0 … MAX_PACING_WAIT_MS; undefined when unreadable. */
export function clampWait(ms: number | undefined): number | undefined {
    return ms === undefined || Number.isNaN(ms) ? undefined : Math.min(MAX_PACING_WAIT_MS, Math.max(0, ms));
}

/** "6m0s", "1h2m3.5s", "250ms", "2s", or a bare number of seconds → ms; undefined when unreadable. */
export function parseDuration(text: string | null | undefined): number | undefined {
    if (!text) return undefined;
    const t = text.trim();
    if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
    const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
    let ms = 0;
    let rest = t;
    for (;;) {
        const m = /^(\d+(?:\.\d+)?)(ms|h|m|s)/.exec(rest);
        if (!m) break;
        ms += Number(m[1]) * unit[m[2]!]!;
        rest = rest.slice(m[0].length);
    }
    return rest === '' && rest !== t ? ms : undefined;
}

function one(headers: Headers, what: 'requests' | 'tokens'): RateLimit | undefined {
    const limit = Number(headers.get(`x-ratelimit-limit-${what}`) ?? NaN);
    const remaining = Number(headers.get(`x-ratelimit-remaining-${what}`) ?? NaN);
    if (!Number.isFinite(limit) || limit <= 0 || !Number.isFinite(remaining)) return undefined;
    const out: RateLimit = { limit, remaining: Math.max(0, remaining) };
    const resetMs = clampWait(parseDuration(headers.get(`x-ratelimit-reset-${what}`)));
    if (resetMs !== undefined) out.resetMs = resetMs;
    return out;
}

/** The rate-limit headers of a response; undefined when it has none. */
export function parseRateLimits(headers: Headers | undefined): RateLimitInfo | undefined {
    if (!headers) return undefined;
    const requests = one(headers, 'requests');
    const tokens = one(headers, 'tokens');
    if (!requests && !tokens) return undefined;
    const out: RateLimitInfo = {};
    if (requests) out.requests = requests;
    if (tokens) out.tokens = tokens;
    return out;
}
