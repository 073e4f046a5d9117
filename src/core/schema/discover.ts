/**
 * Functional-dependency discovery by TANE's level-wise partition refinement (Huhtala, Kärkkäinen, Porkka,
 * Toivonen 1999). Level l holds attribute sets X of size l; X \ A → A is tested from the stripped partition
 * of X \ A and A's codes. The candidate sets C+(X) prune the lattice: an attribute leaves C+(X) once a subset
 * of X is known to determine it, so only minimal dependencies are reported; a set whose C+ is empty has no
 * descendant worth visiting. Pure over a loaded RelationTable; NULL semantics in partition.ts.
 *
 * Approximate dependencies use g3 (Kivinen & Mannila): the share of rows to delete for X → A to hold.
 * With `maxError` > 0 a dependency is reported when its g3 is at most that share — still minimal: no proper
 * subset of its left-hand side reaches the threshold.
 */
import type { RelationTable } from '../data/types.js';
import {
    Refiner,
    coveredRows,
    g3Removals,
    groupCount,
    keyError,
    nullAsValue,
    partitionOfCodes,
    wholePartition,
    type Partition,
} from './partition.js';

export interface FdDiscoveryOptions {
    /** Largest left-hand side (default 3). */
    maxLhs?: number;
    /** g3 threshold as a share of rows, 0 ≤ maxError < 1 (default 0: exact dependencies only). */
    maxError?: number;
    /** Stop after this many milliseconds and report what was found (`complete: false`); default 10 s, Infinity for none. */
    budgetMs?: number;
    /** A left-hand side is a near-key when deleting at most this share of rows makes it a key (default 0.01). */
    nearKeyShare?: number;
    /** Only these attributes (default: every column). */
    attributes?: string[];
}

export interface DiscoveredFd {
    lhs: string[];
    rhs: string;
    /** Holds on every row. */
    exact: boolean;
    /** g3: rows to delete for the dependency to hold, and that count as a share of all rows. */
    removals: number;
    error: number;
    /** Groups of two or more rows sharing the left-hand side, and the rows in them (the ranking). */
    groups: number;
    coveredRows: number;
    /** The left-hand side is a key: every group is one row, so questions built on it are trivial. */
    keyLike: boolean;
    /** Almost a key (within `nearKeyShare`): few rows share a left-hand side. */
    nearKey: boolean;
}

export interface FdDiscovery {
    relation: string;
    rowCount: number;
    /** Ranked: most covered rows first, then exact before approximate, shorter left-hand sides first. */
    fds: DiscoveredFd[];
    /** False when the time budget ran out before the lattice was finished. */
    complete: boolean;
    /** The deepest lattice level whose tests were all run. */
    levels: number;
    elapsedMs: number;
}

interface LatticeNode {
    attrs: number[];
    /** Only kept while a later level still needs it. */
    partition?: Partition;
    cplus: Set<number>;
}

const setKey = (attrs: number[]) => attrs.join(',');
const without = (attrs: number[], a: number) => attrs.filter(x => x !== a);

class OutOfTime extends Error {}

/**
 * The process's computing time so far (ms). The budget is counted in it, not in wall time: on a busy machine a
 * discovery that waits for the processor is not cut short, and a slow machine still answers in bounded work.
 */
function cpuMs(): number {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
}

/** A caller that names no budget (an editor, a script) gets an answer in seconds, marked incomplete if cut. */
const DEFAULT_BUDGET_MS = 10_000;

/** Every minimal, non-trivial FD X → A of a table with |X| ≤ maxLhs (and g3 ≤ maxError). */
export function discoverFds(table: RelationTable, options: FdDiscoveryOptions = {}): FdDiscovery {
    const started = cpuMs();
    const run = search(table, options, () => cpuMs() - started);
    for (;;) {
        const step = run.next();
        if (step.done) return step.value;
    }
}

/** How long the async discovery computes before it lets other work run (ms). */
const SLICE_MS = 15;

/**
 * The same search in slices of about 15 ms, so a language server stays responsive (hovers, diagnostics) while
 * the first FD suggestions of a large table are worked out. The budget counts this search's computing time
 * only: waiting for other work, or for the processor, does not make the result incomplete. An aborted signal rejects with its reason.
 */
export async function discoverFdsAsync(
    table: RelationTable,
    options: FdDiscoveryOptions = {},
    signal?: AbortSignal,
): Promise<FdDiscovery> {
    let computed = 0,
        sliceStart = Date.now(),
        sliceCpu = cpuMs();
    const run = search(table, options, () => computed + cpuMs() - sliceCpu);
    for (;;) {
        signal?.throwIfAborted();
        const step = run.next();
        if (step.done) return step.value;
        if (Date.now() - sliceStart >= SLICE_MS) {
            computed += cpuMs() - sliceCpu;
            await new Promise(resolve => setImmediate(resolve));
            sliceStart = Date.now();
            sliceCpu = cpuMs();
        }
    }
}

/**
 * TANE's search as a generator: it pauses (yields) before each dependency test and each partition product, the
 * points where a caller may let other work run; `elapsed` is the computing time so far, checked at each pause.
 */
function* search(table: RelationTable, options: FdDiscoveryOptions, elapsed: () => number): Generator<void, FdDiscovery> {
    const maxLhs = Math.max(0, options.maxLhs ?? 3);
    const n = table.rowCount;
    const allowed = Math.floor((options.maxError ?? 0) * n + 1e-9);
    const nearKeyRows = (options.nearKeyShare ?? 0.01) * n;
    const columns = options.attributes
        ? options.attributes.map(a => {
              const c = table.column(a);
              if (!c) throw new Error(`discoverFds: no column '${a}' in ${table.relation}`);
              return c;
          })
        : table.columns;
    const codes = columns.map(c => nullAsValue(c.codes, c.size));
    const scratch = columns.map(c => new Int32Array(c.size + 1));
    const refiner = new Refiner(n);
    const all = columns.map((_, i) => i);
    const found: DiscoveredFd[] = [];
    const budget = options.budgetMs ?? DEFAULT_BUDGET_MS;
    const due = () => {
        if (elapsed() > budget) throw new OutOfTime();
    };

    let previous = new Map<string, LatticeNode>([['', { attrs: [], partition: wholePartition(n), cplus: new Set(all) }]]);
    let level = new Map<string, LatticeNode>(
        all.map(i => [
            String(i),
            {
                attrs: [i],
                partition: maxLhs >= 1 ? partitionOfCodes(codes[i]!, columns[i]!.size + 1) : undefined,
                cplus: new Set<number>(),
            },
        ]),
    );
    let levels = 0,
        complete = true;

    /** Tests X \ A → A for each A in X ∩ C+(X) and prunes C+(X) (TANE's COMPUTE_DEPENDENCIES). */
    const computeDependencies = (node: LatticeNode) => {
        node.cplus = intersectCandidates(node.attrs, previous);
        for (const a of node.attrs) {
            if (!node.cplus.has(a)) continue;
            const lhs = without(node.attrs, a);
            const partition = previous.get(setKey(lhs))!.partition!;
            const removals = g3Removals(partition, codes[a]!, scratch[a]!, allowed);
            if (removals > allowed) continue;
            found.push(describe(lhs, a, partition, removals));
            node.cplus.delete(a);
            // X \ A → A exactly: any Y ⊇ X has Y \ B → B for B ∉ X only if Y \ {A, B} → B, so drop them.
            if (removals === 0) for (const b of all) if (!node.attrs.includes(b)) node.cplus.delete(b);
        }
    };
    const describe = (lhs: number[], a: number, partition: Partition, removals: number): DiscoveredFd => {
        const nonKey = keyError(partition);
        return {
            lhs: lhs.map(i => columns[i]!.attribute),
            rhs: columns[a]!.attribute,
            exact: removals === 0,
            removals,
            error: n === 0 ? 0 : removals / n,
            groups: groupCount(partition),
            coveredRows: coveredRows(partition),
            keyLike: nonKey === 0,
            nearKey: nonKey > 0 && nonKey <= nearKeyRows,
        };
    };

    try {
        for (let size = 1; size <= maxLhs + 1 && level.size > 0; size++) {
            for (const node of level.values()) {
                yield;
                due();
                computeDependencies(node);
            }
            levels = size;
            for (const [key, node] of level) if (node.cplus.size === 0) level.delete(key);
            if (size === maxLhs + 1) break;
            const next = yield* nextLevel(
                level,
                size + 1 <= maxLhs
                    ? (p, q) => {
                          due();
                          return refiner.product(p, q);
                      }
                    : undefined,
            );
            for (const node of previous.values()) node.partition = undefined;
            previous = level;
            level = next;
        }
    } catch (e) {
        if (!(e instanceof OutOfTime)) throw e;
        complete = false;
    }
    found.sort(
        (x, y) =>
            y.coveredRows - x.coveredRows ||
            Number(y.exact) - Number(x.exact) ||
            x.lhs.length - y.lhs.length ||
            x.removals - y.removals ||
            `${x.lhs}>${x.rhs}`.localeCompare(`${y.lhs}>${y.rhs}`),
    );
    return { relation: table.relation, rowCount: n, fds: found, complete, levels, elapsedMs: elapsed() };
}

/** C+(X) = ∩ C+(X \ B) over B ∈ X; a pruned subset means an empty candidate set. */
function intersectCandidates(attrs: number[], previous: Map<string, LatticeNode>): Set<number> {
    let result: Set<number> | undefined;
    for (const b of attrs) {
        const parent = previous.get(setKey(without(attrs, b)));
        if (!parent) return new Set();
        result = result ? new Set([...result].filter(x => parent.cplus.has(x))) : new Set(parent.cplus);
    }
    return result ?? new Set();
}

/**
 * TANE's GENERATE_NEXT_LEVEL: join sets that share all but their last attribute, keep a union only when every
 * one of its subsets survived pruning, and refine the partition when the next level still needs one.
 */
function* nextLevel(
    level: Map<string, LatticeNode>,
    product?: (p: Partition, q: Partition) => Partition,
): Generator<void, Map<string, LatticeNode>> {
    const blocks = new Map<string, LatticeNode[]>();
    for (const node of level.values()) {
        const prefix = setKey(node.attrs.slice(0, -1));
        const block = blocks.get(prefix);
        if (block) block.push(node);
        else blocks.set(prefix, [node]);
    }
    const next = new Map<string, LatticeNode>();
    for (const block of blocks.values()) {
        block.sort((x, y) => x.attrs[x.attrs.length - 1]! - y.attrs[y.attrs.length - 1]!);
        for (let i = 0; i < block.length; i++) {
            for (let j = i + 1; j < block.length; j++) {
                const attrs = [...block[i]!.attrs, block[j]!.attrs[block[j]!.attrs.length - 1]!];
                if (!attrs.every(a => level.has(setKey(without(attrs, a))))) continue;
                if (product) yield;
                const partition = product ? product(block[i]!.partition!, block[j]!.partition!) : undefined;
                next.set(setKey(attrs), { attrs, partition, cplus: new Set() });
            }
        }
    }
    return next;
}
