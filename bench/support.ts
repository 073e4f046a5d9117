/** Shared by every benchmark: the result row shape, timing and peak-memory sampling. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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
    // Linux: reset the kernel's high-water mark, so that it is this measurement's peak and not, say, the transient
    // of building the tables before it (writing 5 to clear_refs resets VmHWM, which getrusage's maxRSS reads).
    try {
        writeFileSync('/proc/self/clear_refs', '5');
    } catch {
        /* not Linux: the mark is the process's */
    }
    let peak = process.memoryUsage().rss;
    const timer = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const start = performance.now();
    try {
        const result = await fn();
        const ms = performance.now() - start;
        // A synchronous fn blocks the sampler, so also take the kernel's high-water mark (reset above on Linux;
        // elsewhere process-wide, so run a case in its own process when its peak must not include earlier cases).
        peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
        return { result, ms, peakMB: peak / (1 << 20) };
    } finally {
        clearInterval(timer);
    }
}

/** The median of trials (interleaved with a reference's, so that a swing of the machine's load hits both alike). */
export function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b),
        mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Prints the rows for bench/run.ts to collect. */
export function report(rows: BenchRow[]): void {
    console.log(`BENCH_RESULT ${JSON.stringify(rows)}`);
}

/**
 * Runs `self --case N` in a child process for each size (so each peak memory is its own) and returns what each
 * printed on its `CASE {json}` line.
 */
export function runCasesInChildren<T>(
    self: string,
    sizes: readonly number[],
    describe: (size: number, r: T) => string,
): Map<number, T> {
    const out = new Map<number, T>();
    for (const size of sizes) {
        const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--case', String(size)], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'inherit'],
        });
        const line = child.stdout.split('\n').find(l => l.startsWith('CASE '));
        if (child.status !== 0 || !line) throw new Error(`case ${size} failed (exit ${child.status})`);
        const r = JSON.parse(line.slice(5)) as T;
        out.set(size, r);
        console.error(describe(size, r));
    }
    return out;
}

/** Drains a stream, sampling RSS every 16k items: the count, RSS after the first item (indexes built) and the peak. */
export function drain(items: Iterator<unknown>): { n: number; firstMB: number; peakMB: number } {
    const rss = () => process.memoryUsage().rss / (1 << 20);
    let next = items.next();
    const firstMB = rss();
    let peakMB = firstMB;
    let n = 0;
    for (; !next.done; next = items.next()) if ((++n & 0x3fff) === 0) peakMB = Math.max(peakMB, rss());
    return { n, firstMB, peakMB };
}
