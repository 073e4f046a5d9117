/**
 * Sound golds for questions that state a value (statements, multiple-choice options): which attributes a
 * template names, whether two values are one value written two ways under the spec's aliases, and which rows a
 * rendered subject could mean. A "false" text is only kept when it is false of every row its text could mean.
 */
import type { CellValue, LoadedData, RelationTable } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import { format, namesIn, render, type ParsedTemplate, type TemplateValue } from '../spec/template.js';
import { keywordForms } from '../verify/aliases.js';
import { foldValue } from '../verify/normalise.js';
import type { Scope } from './scope.js';

/** The attributes a template's placeholders read (inside functions too). */
function namedAttributes(parsed: ParsedTemplate): Set<string> {
    const out = new Set<string>();
    for (const part of parsed.parts) if (part.kind === 'placeholder') for (const n of namesIn(part.expr)) out.add(n.name);
    return out;
}

/** The attributes of `lhs` that none of the templates names. */
export function missingAttributes(templates: readonly ParsedTemplate[], lhs: readonly string[]): string[] {
    const named = new Set<string>();
    for (const t of templates) for (const n of namedAttributes(t)) named.add(n);
    return lhs.filter(a => !named.has(a));
}

const shown = (v: CellValue) => format(v as TemplateValue);

/** Are `a` and `b` one value of `relation.attribute` (equal when folded, or an alias of one another under the spec's aliases)? */
export function sameUnderAliases(
    spec: SpecModel,
    data: LoadedData | undefined,
    relation: string,
    attribute: string,
    a: CellValue,
    b: CellValue,
): boolean {
    const x = shown(a),
        y = shown(b);
    if (foldValue(x) === foldValue(y)) return true;
    // Without an alias rule on the attribute a value has no other form (keywordForms gives none): folding decides.
    if (!hasAliasRules(spec, relation, attribute)) return false;
    return covers(spec, data, relation, attribute, x, y) || covers(spec, data, relation, attribute, y, x);
}

/** Does a form of `from` (its aliases, number rules) read as `to`? */
function covers(
    spec: SpecModel,
    data: LoadedData | undefined,
    relation: string,
    attribute: string,
    from: string,
    to: string,
): boolean {
    const forms = keywordForms(spec, data, relation, attribute, from);
    const folded = foldValue(to);
    for (const f of forms.alternatives) if (foldValue(f.text) === folded) return true;
    const n = Number(to);
    if (to.trim() === '' || !Number.isFinite(n)) return false;
    for (const r of forms.numbers) if (r.matches(n)) return true;
    return false;
}

function hasAliasRules(spec: SpecModel, relation: string, attribute: string): boolean {
    for (const a of spec.aliases)
        if (a.target.relation === relation && a.target.attribute === attribute && a.rules.length > 0) return true;
    return false;
}

/**
 * The rows a template's subject could mean: the template rendered with the stated attribute left open, per row.
 * Rows that render the same subject cannot be told apart by a reader, so a value is false of the text only if
 * it is false of each of them.
 *
 * The rows that read alike are kept as rings (per row of a group, the next row of the group) in a Map that holds
 * only rows some other row reads like: most subjects name their row alone, and those cost nothing once built.
 * Built by hashing each row's subject text into one Int32Array, sorting a copy to find the hashes several rows
 * share, and grouping only those rows by their text: 8 bytes a row while building, where a Map from every
 * subject text to its rows cost a string and an array per row, for good (1.8 GB for the nine indexes of a
 * three-stem, three-option choice probe on 1M rows). A lookup renders nothing.
 */
export class SubjectIndex {
    private ring?: Map<number, number>;
    /** The first row (ascending) whose subject an earlier row already rendered, and that earlier row. */
    private twin?: [number, number];
    private readonly bound = new Int32Array(1);
    private readonly open: ReturnType<Scope['lookup']>;
    private static readonly OPEN = '\u0001open\u0001';

    constructor(
        scope: Scope,
        private readonly table: RelationTable,
        private readonly template: ParsedTemplate,
        attribute: string,
    ) {
        this.open = scope.lookup(this.bound, { slot: 0, attribute, value: SubjectIndex.OPEN });
    }

    /** The subject text of `row` (the template with the attribute left open); undefined when it cannot render. */
    subject(row: number): string | undefined {
        this.bound[0] = row;
        try {
            return render(this.template, this.open);
        } catch {
            return undefined;
        }
    }

    /** The first subject two rows render alike (the stated value shown as "…"), and those rows. */
    alike(): { text: string; rows: [number, number] } | undefined {
        this.build();
        if (!this.twin) return undefined;
        return { text: this.subject(this.twin[1])!.replaceAll(SubjectIndex.OPEN, '…'), rows: this.twin };
    }

    /** True when no other row's subject reads like `row`'s. */
    alone(row: number): boolean {
        return !this.build().has(row);
    }

    /** Every row whose subject reads like `row`'s (itself included), ascending. */
    rowsLike(row: number): number[] {
        const ring = this.build();
        const next = ring.get(row);
        if (next === undefined) return [row];
        const out = [row];
        for (let r = next; r !== row; r = ring.get(r)!) out.push(r);
        return out.sort((a, b) => a - b);
    }

    private build(): Map<number, number> {
        if (this.ring) return this.ring;
        const n = this.table.rowCount;
        // 0 stands for "cannot render" (a text's hash is never 0: hashText sets the top bit).
        const hashes = new Int32Array(n);
        for (let r = 0; r < n; r++) {
            const text = this.subject(r);
            if (text !== undefined) hashes[r] = hashText(text);
        }
        const sorted = hashes.slice().sort();
        const shared = new Set<number>();
        for (let i = 1; i < n; i++) if (sorted[i] === sorted[i - 1] && sorted[i] !== 0) shared.add(sorted[i]!);
        const ring = new Map<number, number>();
        // The rows of a shared hash, grouped by their text (a hash two texts share is told apart here).
        const firsts = new Map<string, number>();
        for (let r = 0; r < n && shared.size > 0; r++) {
            if (!shared.has(hashes[r]!)) continue;
            const text = this.subject(r)!;
            const first = firsts.get(text);
            if (first === undefined) {
                firsts.set(text, r);
                continue;
            }
            this.twin ??= [first, r];
            ring.set(r, ring.get(first) ?? first);
            ring.set(first, r);
        }
        return (this.ring = ring);
    }
}

/** A 32-bit FNV-1a hash of a text's UTF-16 units, never 0 (its top bit set). */
function hashText(text: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return (h ^ (h >>> 15)) | 0x80000000;
}

/**
 * One index per distinct subject: a template that does not name the stated attribute reads the same subject
 * whichever attribute is left open, so the options of one stem share its index (and its ring).
 */
export function subjectIndexes(
    scope: Scope,
    table: RelationTable,
): (template: ParsedTemplate, attribute: string) => SubjectIndex {
    const made = new Map<ParsedTemplate, Map<string, SubjectIndex>>();
    return (template, attribute) => {
        const key = namedAttributes(template).has(attribute) ? attribute : '';
        let byAttribute = made.get(template);
        if (!byAttribute) made.set(template, (byAttribute = new Map()));
        let index = byAttribute.get(key);
        if (!index) byAttribute.set(key, (index = new SubjectIndex(scope, table, template, attribute)));
        return index;
    };
}

/**
 * Is "the subject of `row` has `value` as its `attribute`" false of every row the text could mean? False when
 * a row it could mean holds that value (or an alias of it), or holds no value there at all (nothing makes it false).
 * With several indexes (the stems of one question), every row any of them could mean is checked, each once.
 */
export function falseOfEveryMeaning(
    spec: SpecModel,
    data: LoadedData,
    relation: string,
    index: SubjectIndex | readonly SubjectIndex[],
    table: RelationTable,
    attribute: string,
    row: number,
    value: CellValue,
): boolean {
    const column = table.column(attribute);
    if (!column) return false;
    const indexes = Array.isArray(index) ? (index as readonly SubjectIndex[]) : [index as SubjectIndex];
    let alone = true;
    for (const ix of indexes) if (!ix.alone(row)) alone = false;
    const rows = alone ? [row] : [...new Set(indexes.flatMap(ix => ix.rowsLike(row)))];
    for (const r of rows) {
        const code = column.codes[r]!;
        if (code < 0) return false;
        if (sameUnderAliases(spec, data, relation, attribute, column.values[code]!, value)) return false;
    }
    return true;
}
