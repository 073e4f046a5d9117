/** Generated relations for benchmarks: a typed table built cell by cell and its relation declaration. */
import { ColumnBuilder, makeTable } from '../src/core/data/table.js';
import type { RelationTable } from '../src/core/data/types.js';
import type { AttrType, SpecLocation } from '../src/core/spec/model.js';

export const text: AttrType = { scalar: 'text', list: false };
export const int: AttrType = { scalar: 'int', list: false };
export const loc: SpecLocation = {
    file: '/bench.probe',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
};

export function table(
    name: string,
    attrs: [string, AttrType][],
    rows: number,
    cell: (row: number, col: number) => string | number,
): RelationTable {
    const builders = attrs.map(([a, t]) => new ColumnBuilder(a, t, rows));
    const lines = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
        for (let c = 0; c < builders.length; c++) builders[c]!.push(cell(r, c));
        lines[r] = r + 2;
    }
    return makeTable(
        name,
        `/${name}.csv`,
        builders.map(b => b.build()),
        lines,
    );
}

export const relation = (name: string, attrs: [string, AttrType][], key: string[]) => ({
    name,
    source: 'bench',
    distinct: false,
    attributes: attrs.map(([a, type]) => ({ name: a, type, column: a, loc })),
    keys: [key],
    loc,
});
