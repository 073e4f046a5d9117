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
export function namedAttributes(parsed: ParsedTemplate): Set<string> {
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
export function sameUnderAliases(spec: SpecModel, data: LoadedData | undefined, relation: string, attribute: string, a: CellValue, b: CellValue): boolean {
    const x = shown(a), y = shown(b);
    if (foldValue(x) === foldValue(y)) return true;
    const covers = (from: string, to: string) => {
        const forms = keywordForms(spec, data, relation, attribute, from);
        const folded = foldValue(to);
        if (forms.alternatives.some(f => foldValue(f.text) === folded)) return true;
        const n = Number(to);
        return to.trim() !== '' && Number.isFinite(n) && forms.numbers.some(r => r.matches(n));
    };
    return covers(x, y) || covers(y, x);
}

/**
 * The rows a template's subject could mean: the template rendered with the stated attribute left open, per row.
 * Rows that render the same subject cannot be told apart by a reader, so a value is false of the text only if
 * it is false of each of them.
 *
 * The rows that read alike are kept as a ring: per row, the next row of its group (a row alone points to itself),
 * one Int32Array of the table's length. Built once by hashing each row's subject text into an open-addressing
 * table of each group's first row (texts compared on equal hashes), then dropped but for the ring: 4 bytes a row
 * where a Map from every subject text to its rows cost a string and an array per row (1.8 GB for the nine
 * indexes of a three-stem, three-option choice probe on 1M rows). A lookup renders nothing.
 */
export class SubjectIndex {
    private ring?: Int32Array;
    /** The first row (ascending) whose subject an earlier row already rendered, and that earlier row. */
    private twin?: [number, number];
    private readonly bound = new Int32Array(1);
    private readonly open: ReturnType<Scope['lookup']>;
    private static readonly OPEN = '\u0001open\u0001';

    constructor(scope: Scope, private readonly table: RelationTable, private readonly template: ParsedTemplate, attribute: string) {
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
        const next = this.build()[row]!;
        return next === row || next < 0;
    }

    /** Every row whose subject reads like `row`'s (itself included), ascending. */
    rowsLike(row: number): number[] {
        const ring = this.build();
        if (ring[row]! < 0 || ring[row] === row) return [row];
        const out = [row];
        for (let r = ring[row]!; r !== row; r = ring[r]!) out.push(r);
        return out.sort((a, b) => a - b);
    }

    private build(): Int32Array {
        if (this.ring) return this.ring;
        const n = this.table.rowCount;
        const ring = new Int32Array(n);
        const hashes = new Int32Array(n);
        let capacity = 16;
        while (capacity < 2 * n) capacity *= 2;
        // Each group's first row + 1 (0: empty), linear probing.
        const firsts = new Int32Array(capacity), mask = capacity - 1;
        for (let r = 0; r < n; r++) {
            const text = this.subject(r);
            if (text === undefined) { ring[r] = -1; continue; }
            const h = hashText(text);
            let s = h & mask;
            for (; firsts[s] !== 0; s = (s + 1) & mask) {
                const first = firsts[s]! - 1;
                if (hashes[first] !== h || this.subject(first) !== text) continue;
                ring[r] = ring[first]!;
                ring[first] = r;
                this.twin ??= [first, r];
                break;
            }
            if (firsts[s] === 0) { firsts[s] = r + 1; hashes[r] = h; ring[r] = r; }
        }
        return (this.ring = ring);
    }
}

/** A 31-bit FNV-1a hash of a text's UTF-16 units. */
function hashText(text: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return (h ^ (h >>> 15)) & 0x7fffffff;
}

/**
 * One index per distinct subject: a template that does not name the stated attribute reads the same subject
 * whichever attribute is left open, so the options of one stem share its index (and its ring).
 */
export function subjectIndexes(scope: Scope, table: RelationTable): (template: ParsedTemplate, attribute: string) => SubjectIndex {
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
export function falseOfEveryMeaning(spec: SpecModel, data: LoadedData, relation: string, index: SubjectIndex | readonly SubjectIndex[], table: RelationTable, attribute: string, row: number, value: CellValue): boolean {
    const column = table.column(attribute);
    if (!column) return false;
    const indexes = Array.isArray(index) ? index as readonly SubjectIndex[] : [index as SubjectIndex];
    const rows = indexes.every(ix => ix.alone(row)) ? [row] : [...new Set(indexes.flatMap(ix => ix.rowsLike(row)))];
    for (const r of rows) {
        const code = column.codes[r]!;
        if (code < 0) return false;
        if (sameUnderAliases(spec, data, relation, attribute, column.values[code]!, value)) return false;
    }
    return true;
}
