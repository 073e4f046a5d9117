import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBucket } from '../../../src/core/run/limiter.js';
import { backoffMs } from '../../../src/core/run/retry.js';
import { parseRetryAfter } from '../../../src/core/models/openai-client.js';

test('a token bucket allows a minute\'s budget, then paces at the refill rate', () => {
    let now = 0;
    const bucket = new TokenBucket(60, () => now);
    for (let i = 0; i < 60; i++) { assert.equal(bucket.wait(1), 0); bucket.take(1); }
    assert.equal(bucket.wait(1), 1000, 'one request per second once the burst is spent');
    now += 500;
    assert.equal(bucket.wait(1), 500);
    now += 500;
    assert.equal(bucket.wait(1), 0);
    assert.equal(new TokenBucket(0).wait(1e9), 0, '0 means no limit');
    assert.equal(new TokenBucket(100, () => 0).wait(1e6), 0, 'a request larger than the budget waits for a full bucket, not forever');
});

test('back-off doubles with full jitter and is capped; Retry-After wins', () => {
    const policy = { baseMs: 100, maxMs: 1000 };
    assert.equal(backoffMs(1, policy, undefined, () => 0), 50);
    assert.equal(backoffMs(1, policy, undefined, () => 1), 100);
    assert.equal(backoffMs(3, policy, undefined, () => 1), 400);
    assert.equal(backoffMs(10, policy, undefined, () => 1), 1000);
    assert.equal(backoffMs(1, policy, 2000, () => 0), 2000);
});

test('Retry-After in seconds, milliseconds or as a date', () => {
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': '2' })), 2000);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after-ms': '150', 'retry-after': '9' })), 150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now), 3000);
    assert.equal(parseRetryAfter(new Headers({})), undefined);
    assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'soon' })), undefined);
});
