/**
 * What the data says about one FD, as the editor's hover shows it: how many distinct left-hand sides the rows
 * have and how many of those groups break the FD. Counted once per loaded table (tables are replaced, never
 * changed, when data reloads).
 */
import type { RelationTable } from './types.js';
import { checkFd } from './checks.js';
import { columnCodes, groupCodes } from './group.js';

export interface FdFacts {
    rows: number;
    groups: number;
    violated: number;
}

const memo = new WeakMap<RelationTable, Map<string, FdFacts>>();

/** The facts of `lhs -> rhs` on `table`; undefined when the table lacks one of the columns. */
export function fdFacts(table: RelationTable, lhs: readonly string[], rhs: readonly string[]): FdFacts | undefined {
    const columns = [...lhs, ...rhs].map(a => table.column(a));
    if (columns.some(c => c === undefined)) return undefined;
    let byFd = memo.get(table);
    if (!byFd) memo.set(table, (byFd = new Map()));
    const key = `${lhs.join(',')}->${rhs.join(',')}`;
    let facts = byFd.get(key);
    if (!facts) {
        const groups = distinctGroups(
            groupCodes(
                columns.slice(0, lhs.length).map(c => columnCodes(c!)),
                table.rowCount,
            ),
        );
        byFd.set(
            key,
            (facts = { rows: table.rowCount, groups, violated: checkFd(table, { lhs: [...lhs], rhs: [...rhs] }).length }),
        );
    }
    return facts;
}

/** Distinct non-null groups (`cardinality` is only an upper bound). */
function distinctGroups(g: { codes: Int32Array; cardinality: number }): number {
    const seen = new Uint8Array(g.cardinality);
    let n = 0;
    for (const code of g.codes)
        if (code >= 0 && !seen[code]) {
            seen[code] = 1;
            n++;
        }
    return n;
}
