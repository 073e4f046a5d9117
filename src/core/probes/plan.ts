/**
 * A probe compiled against the loaded data: how to bind a row, what questions a bound row gives, and the
 * knowledge-graph path behind them. Each probe family's `compile` builds one.
 */
import { findFd, type FdDecl, type PhrasingDecl, type ProbeDecl, type RelationDecl, type SpecModel } from '../spec/model.js';
import type { LoadedData } from '../data/types.js';
import type { Gold, KgEdge, KgNode, KgPath, Keyword } from './question.js';
import { evaluate, format, render, truthy, type Expr, type TemplateValue } from '../spec/template.js';
import { keyValues, Scope, slotFor, type Compiled, type TemplateSlot } from './scope.js';
import type { Problem } from '../errors.js';
import type { Item } from './plan-types.js';
import { entityName } from './ids.js';

export type { Item, Plan, SkipReason } from './plan-types.js';

export interface CompiledPhrasing {
    decl: PhrasingDecl;
    template: Compiled;
    when?: Expr;
    /** Its role among the row's twins, made once per probe (not per row). */
    twin?: NonNullable<Item['group']>;
}

export function compilePhrasings(scope: Scope, phrasings: PhrasingDecl[]): CompiledPhrasing[] {
    return phrasings.map(decl => {
        const c: CompiledPhrasing = { decl, template: scope.template(decl.text) };
        if (decl.gold.kind === 'when') {
            const when = scope.condition(decl.gold.condition);
            if (when) c.when = when;
        }
        return c;
    });
}

/** Binary, path and knows questions: one per phrasing, gold from the phrasing (or its `when` condition). */
export function phrasedItems(
    scope: Scope,
    phrasings: CompiledPhrasing[],
    rows: Int32Array,
    keywords: Keyword[][],
    explain: string,
): Item[] | 'invalid' {
    const lookup = scope.lookup(rows);
    const items: Item[] = [];
    try {
        for (const p of phrasings) {
            const g = p.decl.gold;
            const gold: Gold = g.kind === 'when' ? (p.when && truthy(evaluate(p.when, lookup)) ? 'yes' : 'no') : g.kind;
            items.push({
                phrasing: p.decl.name,
                template: p.decl.text,
                question: render(p.template.parsed, lookup),
                gold,
                keywords,
                explain,
            });
        }
        // Phrasings of one row are twins: their answers must relate as their golds do.
        if (items.length > 1)
            items.forEach((item, i) => {
                const p = phrasings[i]!;
                item.group = p.twin ??= { key: 'phrasings', relation: 'twins', role: p.decl.name };
            });
    } catch {
        // A value that is not a number where arithmetic needs one, and the like: not a question.
        return 'invalid';
    }
    return items;
}

/** The sentence a demonstration gives for a hop: "The birth year is 1954." */
export function sentence(label: string, keywords: Keyword[]): string {
    return `The ${label} is ${keywords.map(k => k.value).join(', ')}.`;
}

/** Graph helpers: an entity node for a bound row and value nodes for its attributes. */
export function entityNode(
    scope: Scope,
    rows: Int32Array,
    slot: number,
    hop: number,
    given: boolean,
    rowKey?: readonly string[],
): KgNode {
    const { relation, table } = scope.slots[slot]!;
    const key = rowKey ?? keyValues(relation, table, rows[slot]!);
    const label = key.join(', ');
    return {
        id: entityName(relation.name, key, label),
        kind: 'entity',
        relation: relation.name,
        label,
        hop,
        given,
    };
}

export function valueNode(
    scope: Scope,
    rows: Int32Array,
    slot: number,
    attribute: string,
    hop: number,
    given: boolean,
    shown?: string,
): KgNode {
    const { relation, table } = scope.slots[slot]!;
    const label = shown ?? format(table.value(rows[slot]!, attribute) as TemplateValue);
    return { id: `${relation.name}.${attribute}=${label}`, kind: 'value', relation: relation.name, attribute, label, hop, given };
}

/** Entity → attribute values: given ones at hop 0, the asked ones at `hop`. */
export function starPath(scope: Scope, rows: Int32Array, given: string[], asked: string[], hop = 1): KgPath {
    const entity = entityNode(scope, rows, 0, 0, true);
    const nodes: KgNode[] = [entity];
    const edges: KgEdge[] = [];
    for (const a of given) {
        const n = valueNode(scope, rows, 0, a, 0, true);
        nodes.push(n);
        edges.push({ from: entity.id, to: n.id, label: a, hop: 0 });
    }
    for (const a of asked) {
        const n = valueNode(scope, rows, 0, a, hop, false);
        nodes.push(n);
        edges.push({ from: entity.id, to: n.id, label: a, hop });
    }
    return { nodes, edges };
}

/** A template written as a probe setting (`explain "…"`, its text as the family reads it), rendered per bound rows. */
export function settingTemplate(scope: Scope, v: string | undefined): ((rows: Int32Array) => string) | undefined {
    if (v === undefined) return undefined;
    const c = scope.template(v);
    return rows => render(c.parsed, scope.lookup(rows));
}

/** A plan's way to give up: records a located problem on the probe and returns undefined (no plan). */
export function planFailure(problems: Problem[], probe: ProbeDecl): (code: string, message: string) => undefined {
    return (code, message) => {
        problems.push({ location: probe.loc, severity: 'error', code, message });
        return undefined;
    };
}

/** The FD a probe names (`using <fd>`) and the loaded relation it is on; a located problem when either is missing. */
function fdTarget(
    spec: SpecModel,
    data: LoadedData,
    probe: ProbeDecl,
    problems: Problem[],
): { fd: FdDecl; slot: TemplateSlot } | undefined {
    const fd = probe.fd ? findFd(spec, probe.fd) : undefined;
    if (!fd) {
        problems.push({
            location: probe.loc,
            severity: 'error',
            code: 'probe-fd',
            message: `Probe ${probe.name} needs an FD: write \`using <fd name>\` with an FD declared \`as <name>\`.`,
        });
        return undefined;
    }
    const slot = slotFor(spec, data.tables, fd.relation);
    if (typeof slot === 'string') {
        problems.push({ location: probe.loc, severity: 'error', code: 'probe-data', message: slot });
        return undefined;
    }
    return { fd, slot };
}

/**
 * The start of a plan over one FD's relation (binary, choice, statement): the FD, its relation and slot, and a
 * scope over that one slot; undefined, with a located problem, when the FD or its loaded relation is missing.
 */
export function fdPlanStart(
    spec: SpecModel,
    data: LoadedData,
    probe: ProbeDecl,
    problems: Problem[],
): { fd: FdDecl; slot: TemplateSlot; rel: RelationDecl; scope: Scope } | undefined {
    const target = fdTarget(spec, data, probe, problems);
    if (!target) return undefined;
    return { ...target, rel: target.slot.relation, scope: new Scope([target.slot], [{ slot: 0 }]) };
}
