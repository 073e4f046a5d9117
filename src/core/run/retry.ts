/** Exponential back-off with jitter; the endpoint's Retry-After wins when it gives one. */
export interface RetryPolicy {
    baseMs: number;
    maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 500, maxMs: 30_000 };

/** Delay before retry number `attempt` (1 = the first retry). Full jitter keeps parallel workers apart. */
export function backoffMs(
    attempt: number,
    policy: RetryPolicy,
    retryAfterMs?: number,
    random: () => number = Math.random,
): number {
    if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxMs * 4) + random() * Math.min(250, policy.baseMs);
    const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
    return cap / 2 + random() * (cap / 2);
}
