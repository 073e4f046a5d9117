/**
 * Sound golds for questions that state a value (statements, multiple-choice options): which attributes a
 * template names, whether two values are one value written two ways under the spec's aliases, and which rows a
 * rendered subject could mean. A "false" text is only kept when it is false of every row its text could mean.
 */
import type { CellValue, Column, LoadedData, RelationTable } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import { evaluate, format, namesIn, render, type Expr, type ParsedTemplate, type TemplateValue } from '../spec/template.js';
import { Int32Builder } from '../data/table.js';
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
 * Built in two passes over the rows' subject texts: a 2-bit count per bucket of their hashes (a quarter of a byte
 * per bucket, 4 to 8 buckets a row), then the hashes of the rows whose bucket holds several, sorted to find the
 * hashes several rows share; only those rows are grouped by their text. Under 2 bytes a row while building (a
 * hash per row and its sorted copy were 8; a Map from every subject text to its rows cost a string and an array
 * per row, for good: 1.8 GB for the nine indexes of a three-stem, three-option choice probe on 1M rows). A second
 * rendering of each subject (and a third of the few in a shared bucket) is the price. A lookup renders nothing.
 */
export class SubjectIndex {
    private ring?: Map<number, number>;
    /** The first row (ascending) whose subject an earlier row already rendered, and that earlier row. */
    private twin?: [number, number];
    private readonly bound = new Int32Array(1);
    private readonly open: ReturnType<Scope['lookup']>;
    private static readonly OPEN = '\u0001open\u0001';

    /**
     * The template's parts as the build hashes them: a text; the column of a plain placeholder of the row's own scalar
     * attribute, read directly (what the lookup would return, without evaluating); or an expression, evaluated.
     */
    private readonly hashParts: (string | Column | Expr)[];

    constructor(
        scope: Scope,
        private readonly table: RelationTable,
        private readonly template: ParsedTemplate,
        attribute: string,
    ) {
        this.open = scope.lookup(this.bound, { slot: 0, attribute, value: SubjectIndex.OPEN });
        this.hashParts = template.parts.map(p => {
            if (p.kind === 'text') return p.text;
            const r = p.expr.kind === 'name' ? scope.resolve(p.expr.name, p.expr.qualifier) : null;
            const column = r && r.slot === 0 && r.attribute.name !== attribute && !r.attribute.type.list;
            return (column && scope.slots[0]!.table.column(r.attribute.name)) || p.expr;
        });
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

    /**
     * The hash of `row`'s subject text (32-bit FNV-1a of its UTF-16 units, never 0), made part by part without building the text (the build hashes
     * every row's subject twice); undefined when it cannot render.
     */
    private hash(row: number): number | undefined {
        this.bound[0] = row;
        let h = FNV_OFFSET;
        try {
            for (const p of this.hashParts) {
                if (typeof p === 'string') h = fnv(h, p);
                else if ('codes' in p) {
                    const code = p.codes[row]!;
                    h = fnv(h, code < 0 ? '' : format(p.values[code] as TemplateValue));
                } else h = fnv(h, format(evaluate(p, this.open)));
            }
        } catch {
            return undefined;
        }
        return finish(h);
    }

    /** The first subject two rows render alike (the stated value shown as "…"), and those rows. */
    alike(): { text: string; rows: [number, number] } | undefined {
        this.build();
        if (!this.twin) return undefined;
        return { text: this.subject(this.twin[1])!.replaceAll(SubjectIndex.OPEN, '…'), rows: this.twin };
    }

    /** True when no other row's subject reads like `row`'s. */
    alone(row: number): boolean {
        // Most indexes hold no row (every subject names its row alone): asked for every row, checked before the lookup.
        const ring = this.build();
        return ring.size === 0 || !ring.has(row);
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
        // 1. A count per bucket of subject hashes that stops at 2 (2 bits, four buckets a byte; at least 4 buckets a
        // row, so about a fifth of the rows share a bucket by chance).
        let bits = 4;
        while (2 ** bits < 4 * n && bits < 30) bits++;
        const mask = 2 ** bits - 1;
        const counts = new Uint8Array(2 ** (bits - 2));
        for (let r = 0; r < n; r++) {
            const h = this.hash(r);
            if (h === undefined) continue;
            const b = h & mask,
                shift = (b & 3) << 1;
            if (((counts[b >>> 2]! >>> shift) & 3) < 2) counts[b >>> 2]! += 1 << shift;
        }
        // 2. The rows in a bucket of two or more (one bit a row) and their hashes (rendered again: a hash per row would
        // be 4 bytes a row, and its sorted copy 4 more); sorted, their hashes show which several rows share.
        const candidate = new Uint8Array((n >>> 3) + 1);
        const hashes = new Int32Builder();
        for (let r = 0; r < n; r++) {
            const h = this.hash(r);
            if (h === undefined) continue;
            const b = h & mask;
            if (((counts[b >>> 2]! >>> ((b & 3) << 1)) & 3) < 2) continue;
            candidate[r >>> 3]! |= 1 << (r & 7);
            hashes.push(h);
        }
        const sorted = hashes.build().sort();
        const shared = new Set<number>();
        for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) shared.add(sorted[i]!);
        // 3. The rows of a shared hash, grouped by their text (a hash two texts share is told apart here).
        const ring = new Map<number, number>();
        const firsts = new Map<string, number>();
        for (let r = 0; r < n && shared.size > 0; r++) {
            if (!(candidate[r >>> 3]! & (1 << (r & 7))) || !shared.has(this.hash(r)!)) continue;
            // Rendered only now: the hash (of the text, made part by part) already says it is shared.
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

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over a text's UTF-16 units, continued from `h`: over a text's parts in turn it equals over the text. */
function fnv(h: number, text: string): number {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h;
}

/** The hash as kept: never 0 (its top bit set). */
function finish(h: number): number {
    return (h ^ (h >>> 15)) | 0x80000000;
}

/**
 * One index per distinct subject: a template that does not name the stated attribute reads the same subject
 * whichever attribute is left open, so the options of one stem share its index (and its ring). And a template's
 * text before its first placeholder and after its last is the same for every row, so two rows render one template
 * alike exactly when they render its middle alike: stems that differ only there ("What's the inaccurate option about
 * {subject}?", "What is the false option about {subject}?") share one index, built once over the middle.
 */
export function subjectIndexes(
    scope: Scope,
    table: RelationTable,
): (template: ParsedTemplate, attribute: string) => SubjectIndex {
    const made = new Map<string, SubjectIndex>();
    return (template, attribute) => {
        const open = namedAttributes(template).has(attribute) ? attribute : '';
        const core = middle(template);
        const key = `${open}\u0001${core.key}`;
        let index = made.get(key);
        if (!index) made.set(key, (index = new SubjectIndex(scope, table, core.template, attribute)));
        return index;
    };
}

/** The template from its first placeholder to its last, and a key that two templates share when those parts are equal. */
function middle(template: ParsedTemplate): { key: string; template: ParsedTemplate } {
    const parts = template.parts;
    let first = 0,
        last = parts.length - 1;
    while (first <= last && parts[first]!.kind === 'text') first++;
    while (last >= first && parts[last]!.kind === 'text') last--;
    const kept = parts.slice(first, last + 1);
    let key = '';
    for (const p of kept) key += p.kind === 'text' ? `t${p.text}\u0000` : `p${p.source}\u0000`;
    return { key, template: { parts: kept, errors: template.errors } };
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
    // The usual case, a subject that names its row alone, without the array of one row.
    if (alone) return falseOf(spec, data, relation, attribute, column, row, value);
    for (const r of new Set(indexes.flatMap(ix => ix.rowsLike(row))))
        if (!falseOf(spec, data, relation, attribute, column, r, value)) return false;
    return true;
}

/** Is `value` false of row `r`'s value in `column` (which it holds, and which is not `value` under the aliases)? */
function falseOf(
    spec: SpecModel,
    data: LoadedData,
    relation: string,
    attribute: string,
    column: Column,
    r: number,
    value: CellValue,
): boolean {
    const code = column.codes[r]!;
    return code >= 0 && !sameUnderAliases(spec, data, relation, attribute, column.values[code]!, value);
}
