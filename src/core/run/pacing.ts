/**
 * Per-model pacing from what the endpoint says. Every response's `x-ratelimit-*` headers give the limit of
 * requests and tokens, what is left and when the window is full again; from these the pacer learns each limit and
 * its window, and sends as an even flow just under each limit (taken by estimate, corrected to the tokens the
 * endpoint counted once the answer arrives). Until the first response it sends one request at
 * a time; an endpoint that sends no headers is paced by AIMD on 429s (halve the requests in flight, add one back
 * per answered round). The spec's `rpm` / `tpm` stay as caps on top; `pacing "fixed"` uses only them (and no
 * learning), as before. A 429 with Retry-After pauses every worker of the model.
 */
import { MAX_PACING_WAIT_MS, type RateLimit, type RateLimitInfo } from '../models/rate-headers.js';
import { sleep, TokenBucket } from './limiter.js';

/** What pacing did for one model, for the run's report. */
export interface PacingStats {
    /** How the model was paced: the endpoint's headers, AIMD on 429s, or the spec's fixed rpm / tpm only. */
    mode: 'endpoint' | 'aimd' | 'fixed';
    /** Requests sent (every attempt). */
    requests: number;
    /** Of those, answered 429. */
    rateLimited: number;
    /** Wall time every worker was held by a 429's pause, ms. */
    pausedMs: number;
    /** Tokens the endpoint counted (input + output of answered requests). */
    tokens: number;
    /** From the first request sent to the last answer, ms. */
    activeMs: number;
    /** The endpoint's limits per minute, as learned from its headers. */
    limitTokensPerMinute?: number;
    limitRequestsPerMinute?: number;
    /** Set while the workers wait a second or more on the endpoint: until when (epoch ms), and on what. */
    waiting?: { until: number; on: 'retry-after' | 'window' };
}

/** A wait this long or longer is said on the progress line. */
const SAID_WAIT_MS = 1000;

/** Pace a learned limit at this share of it: arrival times jitter, and a limit is a limit. */
const MARGIN = 0.03;
/** The most sent at once, as a share of the limit: smooth sending, so no window gets more than the limit. */
const BURST = 0.02;

/**
 * One limit the endpoint reported (requests or tokens), paced as an even flow: a bucket refilled at
 * (1 − MARGIN) × limit per window, holding at most BURST × limit, so any window of the endpoint's length sees at
 * most about the limit even though requests reach it a little later than they leave. Taken by estimate,
 * corrected to what the endpoint counted when the answer arrives.
 */
export class LearnedLimit {
    limit = 0;
    windowMs = 60_000;
    private level = 0;
    private at: number;

    constructor(private readonly now: () => number = () => performance.now()) {
        this.at = now();
    }

    private get rate(): number {
        return (this.limit * (1 - MARGIN)) / this.windowMs;
    }
    private get capacity(): number {
        return Math.max(1, this.limit * BURST);
    }

    private refill(): void {
        const t = this.now();
        this.level = Math.min(this.capacity, this.level + (t - this.at) * this.rate);
        this.at = t;
    }

    /** How long until `n` may go (a request larger than the burst waits for a full bucket); 0 = now. */
    wait(n: number): number {
        if (this.limit <= 0) return 0;
        this.refill();
        const need = Math.min(n, this.capacity);
        return this.level >= need ? 0 : Math.max(1, Math.ceil((need - this.level) / this.rate));
    }

    take(n: number): void {
        if (this.limit > 0) this.level -= n;
    }

    /** The endpoint counted `counted` for a request taken as `taken` (its usage, or 0 when it refused it). */
    correct(taken: number, counted: number): void {
        if (this.limit <= 0) return;
        this.refill();
        this.level = Math.min(this.capacity, this.level + taken - counted);
    }

    /**
     * Learns the limit, and the window from how long the endpoint says it needs to refill what is used:
     * window = limit × reset / (limit − remaining). Until it can tell (nothing used yet), a minute.
     */
    learn(r: RateLimit): void {
        const first = this.limit <= 0;
        if (!first) this.refill();
        this.limit = r.limit;
        const used = r.limit - r.remaining;
        if (r.resetMs !== undefined && used >= Math.max(1, r.limit * 0.005)) {
            const w = (r.limit * r.resetMs) / used;
            // A window longer than the longest wait taken from a header is taken as that (OpenAI's are a minute).
            if (Number.isFinite(w) && w >= 50) this.windowMs = Math.min(w, MAX_PACING_WAIT_MS);
        }
        if (first) {
            this.at = this.now();
            this.level = Math.min(this.capacity, r.remaining);
        }
    }

    /** The limit per minute, once known. */
    perMinute(): number | undefined {
        return this.limit > 0 ? (this.limit * 60_000) / this.windowMs : undefined;
    }
}

/** A request let through; hand it back with `done`. */
export interface Ticket {
    tokens: number;
}

export interface PacerOptions {
    concurrency: number;
    /** Caps from the spec, per minute; 0 = none. */
    rpm: number;
    tpm: number;
    /** false: pace from rpm / tpm only (`pacing "fixed"`, or a local model that has no limits to learn). */
    learn: boolean;
    /** Called when the workers start or stop waiting on the endpoint (`stats.waiting`), so progress can say so. */
    onWait?: () => void;
}

export class Pacer {
    readonly stats: PacingStats;
    private readonly requests: LearnedLimit;
    private readonly tokens: LearnedLimit;
    private readonly capRequests: TokenBucket;
    private readonly capTokens: TokenBucket;
    private heard = false;
    private inflight = 0;
    /** AIMD: how many requests may be in flight (fractional between rounds). */
    private allowed: number;
    private pausedUntil = 0;
    /** What the endpoint counts per token this process estimates (estimates are rough; answers tell). */
    private ratio = 1;
    private firstSent = 0;
    private waiting: (() => void)[] = [];

    constructor(
        private readonly o: PacerOptions,
        private readonly now: () => number = () => performance.now(),
    ) {
        this.requests = new LearnedLimit(now);
        this.tokens = new LearnedLimit(now);
        this.capRequests = new TokenBucket(o.rpm, now);
        this.capTokens = new TokenBucket(o.tpm, now);
        this.allowed = Math.max(1, o.concurrency);
        this.stats = { mode: o.learn ? 'aimd' : 'fixed', requests: 0, rateLimited: 0, pausedMs: 0, tokens: 0, activeMs: 0 };
    }

    private get inFlightLimit(): number {
        if (this.stats.mode === 'fixed') return Infinity;
        // Nothing heard yet: one request, whose answer tells the limits.
        if (!this.heard) return 1;
        return this.stats.mode === 'aimd' ? Math.max(1, Math.floor(this.allowed)) : Infinity;
    }

    /** Holds every worker for `ms` (a 429's Retry-After or back-off). */
    pause(ms: number): void {
        const t = this.now();
        const until = t + ms;
        if (until > this.pausedUntil) {
            this.stats.pausedMs += until - Math.max(t, this.pausedUntil);
            this.pausedUntil = until;
        }
    }

    /** Waits until a request of about `estimate` tokens may go; undefined when aborted. */
    async acquire(estimate: number, signal?: AbortSignal): Promise<Ticket | undefined> {
        const tokens = Math.max(1, Math.round(estimate * this.ratio));
        for (;;) {
            if (signal?.aborted) return undefined;
            const paused = this.pausedUntil - this.now();
            if (paused > 0) {
                await this.waitOn('retry-after', paused, signal);
                continue;
            }
            if (this.inflight >= this.inFlightLimit) {
                await this.released(signal);
                continue;
            }
            // Take from every limit only when all allow it, so waiting on one does not drain the others.
            const endpoint = Math.max(this.requests.wait(1), this.tokens.wait(tokens));
            const wait = Math.max(this.capRequests.wait(1), this.capTokens.wait(tokens), endpoint);
            if (wait > 0) {
                await (endpoint === wait ? this.waitOn('window', wait, signal) : sleep(wait, signal));
                continue;
            }
            this.capRequests.take(1);
            this.capTokens.take(tokens);
            this.inflight++;
            this.stats.requests++;
            if (this.stats.requests === 1) this.firstSent = this.now();
            this.requests.take(1);
            this.tokens.take(tokens);
            return { tokens };
        }
    }

    /** The request is over: what the endpoint said (headers, tokens counted, a 429) teaches the pacer. */
    done(t: Ticket, outcome: { rateLimits?: RateLimitInfo; tokens?: number; rateLimited?: boolean }): void {
        this.inflight--;
        this.stats.activeMs = this.now() - this.firstSent;
        const learnt = this.o.learn && outcome.rateLimits;
        if (this.o.learn) this.heard = true;
        if (learnt) {
            this.stats.mode = 'endpoint';
            if (outcome.rateLimits!.requests) this.requests.learn(outcome.rateLimits!.requests);
            if (outcome.rateLimits!.tokens) this.tokens.learn(outcome.rateLimits!.tokens);
            this.stats.limitRequestsPerMinute = this.requests.perMinute();
            this.stats.limitTokensPerMinute = this.tokens.perMinute();
        }
        if (outcome.tokens !== undefined) {
            this.ratio = 0.8 * this.ratio + 0.2 * Math.min(4, Math.max(0.1, (outcome.tokens * this.ratio) / t.tokens));
            this.tokens.correct(t.tokens, outcome.tokens);
            this.stats.tokens += outcome.tokens;
        } else if (outcome.rateLimited) {
            // Refused, so not counted by the endpoint.
            this.tokens.correct(t.tokens, 0);
        }
        if (outcome.rateLimited) {
            this.stats.rateLimited++;
            if (this.stats.mode === 'aimd') this.allowed = Math.max(1, this.allowed / 2);
        } else if (this.stats.mode === 'aimd') {
            this.allowed = Math.min(Math.max(1, this.o.concurrency), this.allowed + 1 / this.allowed);
        }
        const waiting = this.waiting;
        this.waiting = [];
        for (const w of waiting) w();
    }

    /** Sleeps `ms` on the endpoint's say; a wait of a second or more is set in `stats.waiting` while it lasts. */
    private async waitOn(on: 'retry-after' | 'window', ms: number, signal?: AbortSignal): Promise<void> {
        if (ms < SAID_WAIT_MS) return sleep(ms, signal);
        const until = Date.now() + ms;
        const mine = { until, on };
        if (!this.stats.waiting || this.stats.waiting.until < until) {
            this.stats.waiting = mine;
            this.o.onWait?.();
        }
        try {
            await sleep(ms, signal);
        } finally {
            if (this.stats.waiting === mine) {
                delete this.stats.waiting;
                this.o.onWait?.();
            }
        }
    }

    private released(signal?: AbortSignal): Promise<void> {
        return new Promise(resolve => {
            const done = () => {
                signal?.removeEventListener('abort', done);
                resolve();
            };
            this.waiting.push(done);
            signal?.addEventListener('abort', done, { once: true });
        });
    }
}
