/**
 * The facts a question tests (docs/facts.md), as every family records them on its items: a relation's row named by
 * its key, one attribute, the data's value. A shared building block (families import it; it imports no family).
 */
import type { FactRef } from './question.js';
import { entityName, factName } from './ids.js';
import { keyAttributes, keyValues, type Scope } from './scope.js';
import { format, type TemplateValue } from '../spec/template.js';

/** A fact from its parts (the rule family's premises, open answers' data facts). */
export function factRef(
    relation: string,
    key: readonly string[],
    attribute: string,
    value: string,
    role: FactRef['role'],
    extra: Partial<FactRef> = {},
    entity?: string,
): FactRef {
    const { id, label } = factName(relation, key, attribute, entity);
    // Object.assign, not spreads: the same fields in the same order (extra's last), without the intermediate objects.
    return Object.assign({ id, label, relation, key: [...key], attribute, value, role }, extra);
}

/** A row's key values and the name its facts give the row, `Movie(Avatar, 2009)`: read and joined once for its facts. */
export interface RowName {
    key: readonly string[];
    entity: string;
}

export function rowName(relation: string, key: readonly string[]): RowName {
    return { key, entity: entityName(relation, key) };
}

/**
 * The fact of a bound row's attribute (slot `slot` of `rows`); undefined when the row holds no value there. The row is
 * named by its relation's key, which determines every attribute; an attribute of the key itself (an FD `director, year
 * -> title` over a relation keyed by title and year) is named by the FD's left-hand side `by` instead, as
 * `attribute=value` parts: `Movie(director=James Cameron, year=2009).title`. `named`: the row's key values
 * (keyValues) and its name (rowName) when the caller has them already, so that a row's facts read and join them once.
 */
export function rowFact(
    scope: Scope,
    rows: Int32Array,
    slot: number,
    attribute: string,
    role: FactRef['role'],
    extra: Partial<FactRef> = {},
    by?: readonly string[],
    named?: RowName,
): FactRef | undefined {
    const { relation, table } = scope.slots[slot]!;
    const row = rows[slot]!;
    const v = table.value(row, attribute);
    if (v === null || v === undefined) return undefined;
    const ofKey = by && !by.includes(attribute) && keyAttributes(relation).includes(attribute);
    if (ofKey) {
        const key = by.map(a => `${a}=${format(table.value(row, a) as TemplateValue)}`);
        return factRef(relation.name, key, attribute, format(v as TemplateValue), role, extra);
    }
    if (named) return factRef(relation.name, named.key, attribute, format(v as TemplateValue), role, extra, named.entity);
    return factRef(relation.name, keyValues(relation, table, row), attribute, format(v as TemplateValue), role, extra);
}

/** The facts of several attributes of one bound row (those that hold a value); `by` as for rowFact. */
export function rowFacts(
    scope: Scope,
    rows: Int32Array,
    slot: number,
    attributes: readonly string[],
    role: FactRef['role'],
    extra: Partial<FactRef> = {},
    by?: readonly string[],
): FactRef[] {
    return attributes.flatMap(a => rowFact(scope, rows, slot, a, role, extra, by) ?? []);
}
