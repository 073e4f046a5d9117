/**
 * Per-model request pacing: requests-per-minute and tokens-per-minute token buckets, plus a shared pause when the
 * endpoint says to slow down (429 with Retry-After), so one worker's back-off holds back all of them.
 */
export class TokenBucket {
    private level: number;
    private last: number;

    constructor(private readonly perMinute: number, private readonly now: () => number = () => performance.now()) {
        this.level = perMinute;
        this.last = this.now();
    }

    private refill(): void {
        const t = this.now();
        this.level = Math.min(this.perMinute, this.level + ((t - this.last) * this.perMinute) / 60_000);
        this.last = t;
    }

    /** How long until `n` (clamped to the capacity) can be taken; 0 = now. */
    wait(n: number): number {
        if (this.perMinute <= 0) return 0;
        this.refill();
        const need = Math.min(n, this.perMinute);
        return this.level >= need ? 0 : Math.ceil(((need - this.level) * 60_000) / this.perMinute);
    }

    take(n: number): void {
        if (this.perMinute > 0) this.level -= Math.min(n, this.perMinute);
    }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise(resolve => {
        if (ms <= 0 || signal?.aborted) return resolve();
        const done = () => { clearTimeout(timer); signal?.removeEventListener('abort', done); resolve(); };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
    });
}

export class Gate {
    private readonly requests: TokenBucket;
    private readonly tokens: TokenBucket;
    private pausedUntil = 0;

    constructor(rpm: number, tpm: number) {
        this.requests = new TokenBucket(rpm);
        this.tokens = new TokenBucket(tpm);
    }

    pause(ms: number): void {
        this.pausedUntil = Math.max(this.pausedUntil, performance.now() + ms);
    }

    /** Waits until a request of about `tokens` tokens may start; returns early (false) when aborted. */
    async acquire(tokens: number, signal?: AbortSignal): Promise<boolean> {
        for (;;) {
            if (signal?.aborted) return false;
            const paused = this.pausedUntil - performance.now();
            if (paused > 0) { await sleep(paused, signal); continue; }
            // Take from both buckets only when both allow it, so waiting on one does not drain the other.
            const wait = Math.max(this.requests.wait(1), this.tokens.wait(tokens));
            if (wait > 0) { await sleep(wait, signal); continue; }
            this.requests.take(1);
            this.tokens.take(tokens);
            return true;
        }
    }
}
