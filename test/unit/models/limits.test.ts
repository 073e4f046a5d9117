import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBucket } from '../../../src/core/run/limiter.js';
import { backoffMs } from '../../../src/core/run/retry.js';
import { parseRetryAfter } from '../../../src/core/models/openai-client.js';
import { parseDuration, parseRateLimits } from '../../../src/core/models/rate-headers.js';
import { LearnedLimit } from '../../../src/core/run/pacing.js';

test("a token bucket allows a minute's budget, then paces at the refill rate", () => {
    let now = 0;
    const bucket = new TokenBucket(60, () => now);
    for (let i = 0; i < 60; i++) {
        assert.equal(bucket.wait(1), 0);
        bucket.take(1);
    }
    assert.equal(bucket.wait(1), 1000, 'one request per second once the burst is spent');
    now += 500;
    assert.equal(bucket.wait(1), 500);
    now += 500;
    assert.equal(bucket.wait(1), 0);
    assert.equal(new TokenBucket(0).wait(1e9), 0, '0 means no limit');
    assert.equal(
        new TokenBucket(100, () => 0).wait(1e6),
        0,
        'a request larger than the budget waits for a full bucket, not forever',
    );
});

test('back-off doubles with full jitter and is capped; Retry-After wins', () => {
    const policy = { baseMs: 100, maxMs: 1000 };
    assert.equal(
        backoffMs(1, policy, undefined, () => 0),
        50,
    );
    assert.equal(
        backoffMs(1, policy, undefined, () => 1),
        100,
    );
    assert.equal(
        backoffMs(3, policy, undefined, () => 1),
        400,
    );
    assert.equal(
        backoffMs(10, policy, undefined, () => 1),
        1000,
    );
    assert.equal(
        backoffMs(1, policy, 2000, () => 0),
        2000,
    );
});

test('Retry-After in seconds, milliseconds or as a date', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': '2' })), 2000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' })), 150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now), 3000);
    assert.equal(parseRetryAfter(new Headers({})), undefined);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'soon' })), undefined);
});

test('rate-limit headers: OpenAI durations and the limit, remaining and reset of requests and tokens', () => {
    assert.equal(parseDuration('6m0s'), 360_000);
    assert.equal(parseDuration('1h2m3.5s'), 3_723_500);
    assert.equal(parseDuration('250ms'), 250);
    assert.equal(parseDuration('1.25s'), 1250);
    assert.equal(parseDuration('2'), 2000);
    assert.equal(parseDuration('soon'), undefined);
    assert.equal(parseDuration('5s later'), undefined);
    const h = new Headers({
        'x-ratelimit-limit-requests': '500',
        'x-ratelimit-remaining-requests': '499',
        'x-ratelimit-reset-requests': '120ms',
        'x-ratelimit-limit-tokens': '60000',
        'x-ratelimit-remaining-tokens': '59000',
        'x-ratelimit-reset-tokens': '1s',
    });
    assert.deepEqual(parseRateLimits(h), {
        requests: { limit: 500, remaining: 499, resetMs: 120 },
        tokens: { limit: 60000, remaining: 59000, resetMs: 1000 },
    });
    assert.equal(parseRateLimits(new Headers({ 'content-type': 'application/json' })), undefined);
});

test('a learned limit infers its window from the reset time and paces just under the limit, evenly', () => {
    let now = 0;
    const l = new LearnedLimit(() => now);
    assert.equal(l.wait(1e9), 0, 'nothing learned: no pacing');
    // 60,000 tokens per window, 1,000 used, 1 s to refill them: the window is a minute.
    l.learn({ limit: 60_000, remaining: 59_000, resetMs: 1000 });
    assert.equal(l.windowMs, 60_000);
    assert.equal(l.perMinute(), 60_000);
    // The burst is 2 % of the limit; then it refills at 97 % of the limit per window.
    assert.equal(l.wait(1200), 0);
    l.take(1200);
    const wait = l.wait(970);
    assert.equal(wait, 1000, `970 tokens at 970 per second: ${wait}`);
    now += 1000;
    assert.equal(l.wait(970), 0);
    // The endpoint counted less than estimated: the difference comes back.
    l.take(970);
    l.correct(970, 470);
    assert.equal(l.wait(470), 0);
});
