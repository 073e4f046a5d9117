/**
 * What a probe's templates may name, and how a name reads a value from the rows a question is built from.
 * A question binds one row per slot (binary / choice / knows: one slot; path: one per hop's relation).
 */
import type { AttributeDecl, RelationDecl, SpecLocation, SpecModel } from '../spec/model.js';
import type { Problem } from '../errors.js';
import type { CellValue, RelationTable } from '../data/types.js';
import type { Keyword, RowRef } from './question.js';
import {
    format,
    namesIn,
    parseExpression,
    parseTemplate,
    type Expr,
    type NameLookup,
    type ParsedTemplate,
    type TemplateValue,
} from '../spec/template.js';

export interface TemplateSlot {
    relation: RelationDecl;
    table: RelationTable;
}

export interface Resolved {
    slot: number;
    attribute: AttributeDecl;
}

export interface Compiled {
    text: string;
    parsed: ParsedTemplate;
}

/** The conditions a template or condition can break, each its code (docs/language.md, "Diagnostics"). */
type TemplateCode = 'template-syntax' | 'condition-syntax' | 'unknown-attribute' | 'list-attribute' | 'hidden-hop-stated';

export class Scope {
    /** The problems of the probe's templates, each with the template text that locates it. */
    private readonly found: { text: string; problem: Problem }[] = [];
    /** Every attribute some template or condition reads, per slot (null checks use it). */
    readonly used = new Map<string, Resolved>();
    private readonly resolved = new Map<string, Resolved | null>();
    /** hasNull's checks (the scalar used attributes' codes), made for `size` used attributes. */
    private nullable?: { size: number; checks: { slot: number; codes: Int32Array | undefined }[] };

    /**
     * `unqualified` lists, in order, the slots whose attributes a bare name may mean (for paths: the start
     * relation, then the end attribute only — see `only`).
     */
    constructor(
        readonly slots: TemplateSlot[],
        private readonly unqualified: { slot: number; only?: string }[],
        private readonly hidden: Set<string> = new Set(),
    ) {}

    resolve(name: string, qualifier?: string): Resolved | null {
        const id = qualifier ? `${qualifier}.${name}` : name;
        const known = this.resolved.get(id);
        if (known !== undefined) return known;
        let found: Resolved | null = null;
        if (qualifier) {
            const slot = this.slots.findIndex(s => s.relation.name === qualifier);
            const attribute = slot >= 0 ? this.slots[slot]!.relation.attributes.find(a => a.name === name) : undefined;
            if (attribute) found = { slot, attribute };
        } else {
            for (const u of this.unqualified) {
                if (u.only !== undefined && u.only !== name) continue;
                const attribute = this.slots[u.slot]!.relation.attributes.find(a => a.name === name);
                if (attribute) {
                    found = { slot: u.slot, attribute };
                    break;
                }
            }
        }
        this.resolved.set(id, found);
        return found;
    }

    /** True when a template cannot be rendered (the probe gives no questions). */
    get failed(): boolean {
        return this.found.some(f => f.problem.severity === 'error');
    }

    /** The templates' problems, once each, located by `locate(text)`: the member that holds the text. */
    problems(locate: (text: string) => SpecLocation): Problem[] {
        const seen = new Set<string>();
        return this.found
            .filter(f => !seen.has(f.problem.message) && seen.add(f.problem.message))
            .map(f => ({ ...f.problem, location: locate(f.text) }));
    }

    /** A problem of one template or condition, with the code of its condition (the spec check's code where it has one). */
    private report(text: string, severity: Problem['severity'], code: TemplateCode, message: string): void {
        this.found.push({ text, problem: { severity, code, message: `In "${text}": ${message}` } });
    }

    /** Parses a template, checks its names, and records the attributes it needs. */
    template(text: string): Compiled {
        const parsed = parseTemplate(text);
        for (const e of parsed.errors) this.report(text, 'error', 'template-syntax', e.message);
        for (const part of parsed.parts) {
            if (part.kind !== 'placeholder') continue;
            this.checkNames(text, part.expr);
            if (part.expr.kind === 'name') {
                const r = this.resolve(part.expr.name, part.expr.qualifier);
                if (r?.attribute.type.list) {
                    this.report(
                        text,
                        'warning',
                        'list-attribute',
                        `{${part.source}} is list-valued: show it with {join(${part.source})}, {first(${part.source})} or {count(${part.source})}.`,
                    );
                }
            }
        }
        return { text, parsed };
    }

    /** Parses a `when` condition (an expression without braces). */
    condition(text: string): Expr | undefined {
        const r = parseExpression(text);
        if ('error' in r) {
            this.report(text, 'error', 'condition-syntax', r.error.message);
            return undefined;
        }
        this.checkNames(text, r.expr);
        return r.expr;
    }

    /** Records that an attribute is needed even if no template shows it (keywords, passages). */
    need(slot: number, attribute: string): Resolved | null {
        const a = this.slots[slot]?.relation.attributes.find(x => x.name === attribute);
        if (!a) return null;
        const r = { slot, attribute: a };
        this.used.set(`${slot}.${attribute}`, r);
        return r;
    }

    private checkNames(text: string, expr: Expr): void {
        for (const n of namesIn(expr)) {
            const shown = n.qualifier ? `${n.qualifier}.${n.name}` : n.name;
            const r = this.resolve(n.name, n.qualifier);
            if (!r) {
                const where = this.slots.map(s => s.relation.name).join(', ');
                this.report(
                    text,
                    'error',
                    'unknown-attribute',
                    `{${shown}} names no attribute this probe can show (${where}); check the spelling or qualify it as Relation.attribute.`,
                );
                continue;
            }
            if (this.hidden.has(`${r.slot}.${r.attribute.name}`)) {
                this.report(
                    text,
                    'warning',
                    'hidden-hop-stated',
                    `{${shown}} reveals a hidden hop of the path: the model must recall it, so the question must not state it.`,
                );
            }
            this.used.set(`${r.slot}.${r.attribute.name}`, r);
        }
    }

    /** A lookup over the bound rows; a null list reads as an empty list. */
    lookup(rows: Int32Array, override?: { slot: number; attribute: string; value: CellValue }): NameLookup {
        return (name, qualifier) => {
            const r = this.resolve(name, qualifier);
            if (!r) return null;
            if (override && override.slot === r.slot && override.attribute === r.attribute.name)
                return override.value as TemplateValue;
            const v = this.slots[r.slot]!.table.value(rows[r.slot]!, r.attribute.name);
            return (v === null && r.attribute.type.list ? [] : v) as TemplateValue;
        };
    }

    /** True when a scalar attribute that a template or keyword needs is null in the bound rows. */
    hasNull(rows: Int32Array): boolean {
        // Asked for every row: the scalar attributes' codes are looked up once per set of used attributes (it only grows).
        if (this.nullable?.size !== this.used.size) this.nullable = { size: this.used.size, checks: this.nullChecks() };
        for (const c of this.nullable.checks) if (!c.codes || c.codes[rows[c.slot]!]! < 0) return true;
        return false;
    }

    private nullChecks(): { slot: number; codes: Int32Array | undefined }[] {
        const checks: { slot: number; codes: Int32Array | undefined }[] = [];
        for (const r of this.used.values()) {
            if (r.attribute.type.list) continue;
            const codes = this.slots[r.slot]!.table.column(r.attribute.name)?.codes;
            checks.push({ slot: r.slot, codes });
            // A missing column reads as null for every row: nothing after it is looked at.
            if (!codes) break;
        }
        return checks;
    }

    /** The keyword(s) of one attribute: a list value gives one keyword per item, a null list none. */
    keywords(rows: Int32Array, slot: number, attribute: string, as: { relation: string; attribute: string }): Keyword[] {
        const v = this.slots[slot]!.table.value(rows[slot]!, attribute);
        if (v === null) return [];
        const values = Array.isArray(v) ? v : [v];
        return values.map(x => ({ relation: as.relation, attribute: as.attribute, value: format(x as TemplateValue) }));
    }

    rowRef(rows: Int32Array, slot: number, key?: string[]): RowRef {
        const { relation, table } = this.slots[slot]!;
        const row = rows[slot]!;
        return {
            relation: relation.name,
            key: key ?? keyValues(relation, table, row),
            file: table.file,
            line: table.lines[row]!,
        };
    }
}

/** The attributes that identify a row: the first declared key, else every attribute. */
export function keyAttributes(relation: RelationDecl): string[] {
    return relation.keys[0] ?? relation.attributes.map(a => a.name);
}

export function keyValues(relation: RelationDecl, table: RelationTable, row: number): string[] {
    return keyAttributes(relation).map(a => format(table.value(row, a) as TemplateValue));
}

/** The natural-language name of an attribute: its label, else its name with underscores as spaces. */
export function labelOf(relation: RelationDecl, attribute: string): string {
    const a = relation.attributes.find(x => x.name === attribute);
    return a?.label ?? attribute.replace(/_/g, ' ');
}

export function relationLabel(relation: RelationDecl): string {
    return relation.label ?? relation.name.toLowerCase();
}

/** Why a probe cannot use a relation whose table is missing. */
export const notLoaded = (name: string) => `The data of ${name} is not loaded (see the data diagnostics).`;

export function slotFor(spec: SpecModel, tables: Map<string, RelationTable>, name: string): TemplateSlot | string {
    const relation = spec.relations.find(r => r.name === name);
    if (!relation) return `No relation named ${name}.`;
    const table = tables.get(name);
    if (!table) return notLoaded(name);
    return { relation, table };
}

/** "whose director is {director}, star is {star} and release year is {year}" */
export function describeBy(relation: RelationDecl, attrs: string[]): string {
    const parts = attrs.map(a => `${labelOf(relation, a)} is {${a}}`);
    return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
