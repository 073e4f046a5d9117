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
 */
export class SubjectIndex {
    private byText?: Map<string, number[]>;
    private static readonly OPEN = '\u0001open\u0001';

    constructor(private readonly scope: Scope, private readonly table: RelationTable, private readonly template: ParsedTemplate, private readonly attribute: string) {}

    /** The subject text of `row` (the template with the attribute left open); undefined when it cannot render. */
    subject(row: number): string | undefined {
        try {
            return render(this.template, this.scope.lookup(new Int32Array([row]), { slot: 0, attribute: this.attribute, value: SubjectIndex.OPEN }));
        } catch {
            return undefined;
        }
    }

    /** The first subject two rows render alike (the stated value shown as "…"), and those rows. */
    alike(): { text: string; rows: [number, number] } | undefined {
        const seen = new Map<string, number>();
        for (let r = 0; r < this.table.rowCount; r++) {
            const text = this.subject(r);
            if (text === undefined) continue;
            const first = seen.get(text);
            if (first === undefined) seen.set(text, r);
            else return { text: text.replaceAll(SubjectIndex.OPEN, '…'), rows: [first, r] };
        }
        return undefined;
    }

    /** Every row whose subject reads like `row`'s (itself included). */
    rowsLike(row: number): number[] {
        if (!this.byText) {
            this.byText = new Map();
            for (let r = 0; r < this.table.rowCount; r++) {
                const text = this.subject(r);
                if (text === undefined) continue;
                const list = this.byText.get(text);
                if (list) list.push(r); else this.byText.set(text, [r]);
            }
        }
        const text = this.subject(row);
        return text === undefined ? [row] : this.byText.get(text) ?? [row];
    }
}

/**
 * Is "the subject of `row` has `value` as its `attribute`" false of every row the text could mean? False when
 * a row it could mean holds that value (or an alias of it), or holds no value there at all (nothing makes it false).
 */
export function falseOfEveryMeaning(spec: SpecModel, data: LoadedData, relation: string, index: SubjectIndex, table: RelationTable, attribute: string, row: number, value: CellValue): boolean {
    const column = table.column(attribute);
    if (!column) return false;
    for (const r of index.rowsLike(row)) {
        const code = column.codes[r]!;
        if (code < 0) return false;
        if (sameUnderAliases(spec, data, relation, attribute, column.values[code]!, value)) return false;
    }
    return true;
}
