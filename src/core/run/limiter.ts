/**
 * The spec's fixed caps: requests-per-minute and tokens-per-minute token buckets (pacing.ts combines them with the
 * limits the endpoint reports), and an abortable sleep.
 */
export class TokenBucket {
    private level: number;
    private last: number;

    constructor(
        private readonly perMinute: number,
        private readonly now: () => number = () => performance.now(),
    ) {
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
        const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
    });
}
