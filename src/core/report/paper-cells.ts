/** The cells of the ERBench paper's tables as families write them (report/paper.ts lays them out). */
import type { GroupMetrics } from '../verify/figures.js';
import type { PaperColumn } from '../probes/contract/report.js';

/** A figure as the paper writes it: two decimals without the leading zero (".74", "1.00"), or n/a. */
export function paperFigure(x: number | null | undefined): string {
    if (x === null || x === undefined) return 'n/a';
    const t = x.toFixed(2);
    return t.startsWith('0.') ? t.slice(1) : t.startsWith('-0.') ? `-${t.slice(2)}` : t;
}

/** Cells A / R / AR / H of a group (n/a when it is not reported). */
export function plainCells(g: GroupMetrics): PaperColumn['cells'] {
    const f = (x: number | null) => (g.na ? 'n/a' : paperFigure(x));
    return [
        { label: 'A', text: f(g.A) },
        { label: 'R', text: f(g.R) },
        { label: 'AR', text: f(g.AR) },
        { label: 'H', text: f(g.H) },
    ];
}

/** BN(Y) for the basic phrasing, BN(N) for the negated one, the phrasing's own name otherwise. */
export function binaryColumn(phrasing: string): string {
    return phrasing === 'basic' ? 'BN(Y)' : phrasing === 'negated' ? 'BN(N)' : phrasing;
}

/** The paper's order: BN(Y), BN(N), then any other phrasing in the order given. */
export function paperOrder<T extends { phrasing: string }>(groups: readonly T[]): T[] {
    const rank = (p: string) => (p === 'basic' ? 0 : p === 'negated' ? 1 : 2);
    return [...groups].sort((a, b) => rank(a.phrasing) - rank(b.phrasing));
}
