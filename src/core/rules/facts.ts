/**
 * The base facts of a spec's data, in the predicates `translate.ts` names:
 *   `R.a(key, value)` — one per row and non-null value (one per item of a list value);
 *   `fk:…(k1, k2)`    — one per row of the referencing relation and the row it references.
 * An entity is named by its key: the first declared key's values (composite keys joined by KEY_SEPARATOR), or,
 * for a relation without a key, every attribute's value.
 */
import type { LoadedData, RelationTable } from '../data/types.js';
import type { RelationDecl, SpecModel } from '../spec/model.js';
import { keyValues } from '../probes/scope.js';
import { cellKey } from '../data/table.js';
import { KEY_SEPARATOR, type FactBase, type Value } from './ir.js';
import { attributePredicate, fkPredicate } from './translate.js';

/** The value an entity is named by in facts. */
export function entityKey(relation: RelationDecl, table: RelationTable, row: number): string {
    return keyValues(relation, table, row).join(KEY_SEPARATOR);
}

export function baseFacts(spec: SpecModel, data: LoadedData): FactBase {
    const out = new Map<string, Value[][]>();
    const relations = new Map(spec.relations.map(r => [r.name, r]));
    const keys = new Map<string, string[]>();
    const keysOf = (relation: RelationDecl, table: RelationTable) => {
        let k = keys.get(relation.name);
        if (!k) {
            k = Array.from({ length: table.rowCount }, (_, row) => entityKey(relation, table, row));
            keys.set(relation.name, k);
        }
        return k;
    };
    for (const relation of spec.relations) {
        const table = data.tables.get(relation.name);
        if (!table) continue;
        const rowKeys = keysOf(relation, table);
        for (const column of table.columns) {
            const facts: Value[][] = [];
            for (let row = 0; row < table.rowCount; row++) {
                const code = column.codes[row]!;
                if (code < 0) continue;
                const value = column.values[code]!;
                for (const v of Array.isArray(value) ? value : [value])
                    if (v !== null && !Array.isArray(v)) facts.push([rowKeys[row]!, v]);
            }
            out.set(attributePredicate(relation.name, column.attribute), facts);
        }
    }
    for (const fk of spec.fks) {
        const from = relations.get(fk.from.relation),
            to = relations.get(fk.to.relation);
        const fromTable = data.tables.get(fk.from.relation),
            toTable = data.tables.get(fk.to.relation);
        if (!from || !to || !fromTable || !toTable) continue;
        out.set(
            fkPredicate(fk),
            fkEdges(fk.from.attributes, fk.to.attributes, keysOf(from, fromTable), fromTable, keysOf(to, toTable), toTable),
        );
    }
    return out;
}

/** Rows of `from` joined to the rows of `to` whose referenced attributes hold the same values (lists: any item). */
function fkEdges(
    fromAttrs: string[],
    toAttrs: string[],
    fromKeys: string[],
    fromTable: RelationTable,
    toKeys: string[],
    toTable: RelationTable,
): Value[][] {
    const target = new Map<string, number[]>();
    for (let row = 0; row < toTable.rowCount; row++) {
        const key = combination(toAttrs.map(a => toTable.value(row, a)));
        if (key === undefined) continue;
        const rows = target.get(key);
        if (rows) rows.push(row);
        else target.set(key, [row]);
    }
    const edges: Value[][] = [];
    const seen = new Set<string>();
    for (let row = 0; row < fromTable.rowCount; row++) {
        for (const values of expand(fromAttrs.map(a => fromTable.value(row, a)))) {
            const key = combination(values);
            for (const t of key === undefined ? [] : (target.get(key) ?? [])) {
                const edge = fromKeys[row]! + KEY_SEPARATOR + KEY_SEPARATOR + toKeys[t]!;
                if (seen.has(edge)) continue;
                seen.add(edge);
                edges.push([fromKeys[row]!, toKeys[t]!]);
            }
        }
    }
    return edges;
}

type Cell = ReturnType<RelationTable['value']>;

/** A list-valued referencing attribute references each of its items. */
function expand(values: Cell[]): Cell[][] {
    let out: Cell[][] = [[]];
    for (const v of values) out = out.flatMap(prefix => (Array.isArray(v) ? v : [v]).map(x => [...prefix, x]));
    return out;
}

function combination(values: Cell[]): string | undefined {
    if (values.some(v => v === null || v === undefined)) return undefined;
    return values.map(v => cellKey(v!)).join('\u0000');
}
