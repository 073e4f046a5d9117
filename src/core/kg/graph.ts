/**
 * The knowledge graph over the spec: entities are rows of relations (identified by their key), FDs give
 * attribute edges and FKs give entity-to-entity edges. Schema level: FK path resolution and enumeration
 * (with cycles reported, never followed). Data level: FK joins from a row to the row it references.
 */
import type { AttributeRef, FkDecl, SpecModel } from '../spec/model.js';
import type { RelationTable } from '../data/types.js';
import { format } from '../spec/template.js';

/** One hop of a path probe: the step as written, the FK it follows (all but the last) and its keyword attribute. */
interface PathHop {
    step: AttributeRef;
    /** The FK from `step` to the next relation; absent on the last hop (the end attribute). */
    fk?: FkDecl;
    /** Whose value the rationale must recall at this hop: the FK's target attribute, or the end attribute. */
    keyword: AttributeRef;
}

interface ResolvedPath {
    /** relations[i] is the relation of hop i (relations[0] the start). */
    relations: string[];
    hops: PathHop[];
    /** Set when a relation is visited twice: the 0-based hop that returns. */
    cycleAt?: number;
}

export type PathResolution = { path: ResolvedPath } | { error: string; step: number };

/** Matches `Movie.director -> Director.birth_year` steps to the FKs they follow. */
export function resolvePath(spec: SpecModel, steps: AttributeRef[]): PathResolution {
    if (steps.length < 2)
        return {
            error: 'A path needs at least one FK step and an end attribute, e.g. `along Movie.director -> Director.birth_year`.',
            step: 0,
        };
    const hops: PathHop[] = [];
    const relations: string[] = [];
    let cycleAt: number | undefined;
    for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        if (relations.includes(step.relation) && cycleAt === undefined) cycleAt = i;
        relations.push(step.relation);
        if (i === steps.length - 1) {
            hops.push({ step, keyword: step });
            break;
        }
        const next = steps[i + 1]!;
        const fk = spec.fks.find(
            f =>
                f.from.relation === step.relation &&
                f.from.attributes.includes(step.attribute) &&
                f.to.relation === next.relation,
        );
        if (!fk) {
            return {
                error: `No fk leads from ${step.relation}.${step.attribute} to ${next.relation}: declare \`fk ${step.relation}.${step.attribute} -> ${next.relation}.<key>\` or change the path.`,
                step: i,
            };
        }
        const at = fk.from.attributes.indexOf(step.attribute);
        hops.push({ step, fk, keyword: { relation: fk.to.relation, attribute: fk.to.attributes[at]! } });
    }
    const path: ResolvedPath = { relations, hops };
    if (cycleAt !== undefined) path.cycleAt = cycleAt;
    return { path };
}

/** Row of the referenced relation, or one of these markers. */
export const DANGLING = -1;
export const AMBIGUOUS = -2;

/**
 * An FK join on the data: from a row of `from` to the row of `to` whose FK target attributes hold the same
 * values (compared as formatted text, so an int 2009 matches a text "2009"). A target value held by several
 * rows is ambiguous (the target key is violated) and never resolved silently.
 */
export class FkJoin {
    private readonly byValue = new Map<string, number>();
    /** Single-attribute FKs: the target row per dictionary code of the source column (lazy). */
    private byCode: Int32Array | undefined;

    constructor(
        private readonly from: RelationTable,
        private readonly fromAttrs: string[],
        to: RelationTable,
        toAttrs: string[],
    ) {
        const cols = toAttrs.map(a => to.column(a));
        for (let row = 0; row < to.rowCount; row++) {
            const key = this.keyOf(
                to,
                row,
                toAttrs,
                cols.every(c => c !== undefined),
            );
            if (key === undefined) continue;
            const seen = this.byValue.get(key);
            this.byValue.set(key, seen === undefined ? row : AMBIGUOUS);
        }
    }

    private keyOf(table: RelationTable, row: number, attrs: string[], ok: boolean): string | undefined {
        if (!ok) return undefined;
        const parts: string[] = [];
        for (const a of attrs) {
            const v = table.value(row, a);
            if (v === null) return undefined;
            parts.push(format(v));
        }
        return parts.join('\u0000');
    }

    /** The referenced row, DANGLING (null or no such row) or AMBIGUOUS. */
    target(row: number): number {
        if (this.fromAttrs.length === 1) {
            const col = this.from.column(this.fromAttrs[0]!);
            if (!col) return DANGLING;
            const code = col.codes[row]!;
            if (code < 0) return DANGLING;
            if (!this.byCode) {
                this.byCode = new Int32Array(col.size);
                col.values.forEach((v, c) => {
                    this.byCode![c] = v === null ? DANGLING : (this.byValue.get(format(v)) ?? DANGLING);
                });
            }
            return this.byCode[code]!;
        }
        const key = this.keyOf(this.from, row, this.fromAttrs, true);
        return key === undefined ? DANGLING : (this.byValue.get(key) ?? DANGLING);
    }
}
