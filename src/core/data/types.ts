/**
 * The data of a spec's relations, loaded and typed: the contract between the data layer and the rooms that
 * read rows (kg, probes, verify, the language server's hovers).
 */
import type { AttrType } from '../spec/model.js';
import type { SpecDiagnostic } from '../spec/model.js';

/** A typed cell: int/real → number, bool → boolean, text/date → string (dates as written), list → array, empty → null. */
export type CellValue = string | number | boolean | null | CellValue[];

/** One attribute of a loaded relation, dictionary-encoded: `codes[row]` indexes `values`; -1 is null. */
export interface Column {
    attribute: string;
    type: AttrType;
    codes: Int32Array;
    /**
     * The distinct values (`values.length`). Where only the count matters, read this: a column may turn its
     * values into JS strings on the first read of `values` (see ColumnBuilder.build).
     */
    size: number;
    values: CellValue[];
}

export interface RelationTable {
    relation: string;
    /** Absolute path of the source file (CSV or SQLite). */
    file: string;
    rowCount: number;
    /** In the relation's declaration order. */
    columns: Column[];
    /** 1-based line in the source file of each row (for a distinct projection: its first occurrence; SQLite: rowid). */
    lines: Int32Array;
    column(attribute: string): Column | undefined;
    value(row: number, attribute: string): CellValue;
}

export interface ColumnStats {
    attribute: string;
    rows: number;
    nulls: number;
    distinct: number;
    /** Up to five example values, most frequent first. */
    samples: CellValue[];
    min?: number;
    max?: number;
}

export interface LoadedData {
    tables: Map<string, RelationTable>;
    /** Coercion problems, missing files and columns, key / FD / FK violations — anchored in the spec. */
    diagnostics: SpecDiagnostic[];
    /** Relations not loaded because their declaration has errors: what depends on them waits for those errors' fix. */
    skipped?: ReadonlySet<string>;
}
