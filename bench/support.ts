/** Shared by every benchmark: the result row shape, timing and peak-memory sampling. */
export interface BenchRow {
    bench: string;
    case: string;
    value: number;
    unit: string;
    /** The same measurement of the reference named in the issue, taken in the same run. */
    reference?: number;
    referenceName?: string;
    /** value / reference, or whatever ratio the goal is stated in. */
    ratio?: number;
    goal?: string;
    met?: boolean;
    peakMB?: number;
}

/** Samples RSS every 5 ms while `fn` runs and returns its result, the elapsed ms and the peak RSS in MB. */
export async function measure<T>(fn: () => T | Promise<T>): Promise<{ result: T; ms: number; peakMB: number }> {
    (globalThis as { gc?: () => void }).gc?.();
    let peak = process.memoryUsage().rss;
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const start = performance.now();
    try {
        const result = await fn();
        const ms = performance.now() - start;
        // A synchronous fn blocks the sampler, so also take the kernel's high-water mark (process-wide, so
        // run a case in its own process when its peak must not include earlier cases).
        peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
        return { result, ms, peakMB: peak / (1 << 20) };
    } finally {
        clearInterval(timer);
    }
}

/** Prints the rows for bench/run.ts to collect. */
export function report(rows: BenchRow[]): void {
    console.log(`BENCH_RESULT ${JSON.stringify(rows)}`);
}
