/**
 * Perturbation of a retrieved context at a level (METHODS §5): k = round(level × edges) edges, drawn with a
 * seeded generator (the same seed, kind and level always give the same graph), are corrupted by
 *   - swap: the relations of two edges with different relations are exchanged (⌈k/2⌉ swaps; edge count kept);
 *   - replace: the relation becomes the least plausible one of the right type — among the relations of the same
 *     head type, the one whose triple's text is least similar to the edge's own by embeddings (ATS-style, when an
 *     embeddings model gives `plausibility`), else a random one with a tail type unlike the edge's tail (edge count kept);
 *   - rewire: the tail moves to a node outside the head's 1-hop neighbourhood, of the tail's type where
 *     possible (edge count kept);
 *   - delete: the edge is removed (edge count reduced by k).
 * Every changed edge carries a mark with what it was, so claims can be traced to a corrupted edge.
 */
import { hashSeed, pick, prng } from '../../probes/sampling.js';
import type { EdgeRelation } from '../../kg/data-graph.js';
import type { ContextEdge, ContextGraph, ContextNode, PerturbationKind } from './types.js';

export const PERTURBATION_KINDS: PerturbationKind[] = ['swap', 'replace', 'rewire', 'delete'];

export interface PerturbOptions {
    kind: PerturbationKind;
    /** Share of edges, 0..1. */
    level: number;
    seed: number;
    /** Every edge relation of the data (replace draws from it). */
    relations: EdgeRelation[];
    /**
     * The scored neighbourhood the context came from: its nodes are where a rewired tail may move (the
     * context's own nodes always count) and its edges count towards the head's 1-hop neighbourhood.
     */
    pool?: ContextGraph;
    /** ATS-style plausibility of candidate triples by embeddings; undefined (or its answer undefined): the type heuristic. */
    plausibility?: TriplePlausibility;
}

/**
 * The plausibility of each candidate triple's text against the edge's own (the cosine of their embeddings), or
 * undefined when the vectors are not at hand.
 */
export type TriplePlausibility = (original: string, candidates: readonly string[]) => Float64Array | undefined;

/** A seeded shuffle of 0..n-1 (Fisher–Yates). */
function shuffled(n: number, random: () => number): number[] {
    const a = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
        const j = pick(random, i + 1);
        [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
}

export function perturbedCount(edges: number, level: number): number {
    return Math.round(Math.min(1, Math.max(0, level)) * edges);
}

export function perturb(ctx: ContextGraph, options: PerturbOptions): ContextGraph {
    const random = prng(hashSeed(`${options.kind}:${options.level}`, options.seed));
    const edges = ctx.edges.map(e => ({ ...e }));
    const k = perturbedCount(edges.length, options.level);
    const order = shuffled(edges.length, random);
    const nodes = [...ctx.nodes];
    if (options.kind === 'swap') swapRelations(edges, order, k);
    else if (options.kind === 'replace')
        replaceRelations(edges, order.slice(0, k), ctx, options.relations, random, options.plausibility);
    else if (options.kind === 'rewire') rewireTails(edges, order.slice(0, k), ctx, nodes, options.pool, random);
    else return deleteEdges(ctx, order.slice(0, k));
    const out: ContextGraph = { form: ctx.form, nodes, edges };
    if (ctx.paths) out.paths = ctx.paths.map(p => [...p]);
    return out;
}

function swapRelations(edges: ContextEdge[], order: number[], k: number): void {
    let swaps = Math.ceil(k / 2);
    const waiting: number[] = [];
    for (const i of order) {
        if (swaps === 0) break;
        const partner = waiting.findIndex(w => edges[w]!.relation !== edges[i]!.relation);
        if (partner < 0) {
            waiting.push(i);
            continue;
        }
        const j = waiting.splice(partner, 1)[0]!;
        const a = edges[i]!,
            b = edges[j]!;
        a.perturbed = { kind: 'swap', relation: a.relation };
        b.perturbed = { kind: 'swap', relation: b.relation };
        [a.relation, b.relation] = [b.relation, a.relation];
        [a.label, b.label] = [b.label, a.label];
        swaps--;
    }
}

function typeOf(ctx: ContextGraph, id: string): string | undefined {
    return ctx.nodes.find(n => n.id === id)?.type;
}

function labelOf(ctx: ContextGraph, id: string): string {
    return ctx.nodes.find(n => n.id === id)?.label ?? id;
}

function replaceRelations(
    edges: ContextEdge[],
    chosen: number[],
    ctx: ContextGraph,
    relations: EdgeRelation[],
    random: () => number,
    plausibility?: TriplePlausibility,
): void {
    for (const i of chosen) {
        const e = edges[i]!;
        const headType = typeOf(ctx, e.head),
            tailType = typeOf(ctx, e.tail);
        const others = relations.filter(r => r.name !== e.relation);
        const sameHead = others.filter(r => r.headType === headType);
        const pool = sameHead.length ? sameHead : others;
        if (!pool.length) continue;
        // ATS-style: the candidate whose triple reads least like the edge's own (embeddings), first of equals.
        const head = labelOf(ctx, e.head),
            tail = labelOf(ctx, e.tail);
        const scores = plausibility?.(
            `${head} ${e.label} ${tail}`,
            pool.map(r => `${head} ${r.label} ${tail}`),
        );
        let r: EdgeRelation, plausible: number | undefined;
        if (scores) {
            let best = 0;
            for (let j = 1; j < pool.length; j++) if (scores[j]! < scores[best]!) best = j;
            r = pool[best]!;
            plausible = scores[best]!;
        } else {
            // Least plausible by type: a relation whose tails are of another type than this edge's tail, if any.
            const unlike = pool.filter(x => x.tailType !== tailType);
            const from = unlike.length ? unlike : pool;
            r = from[pick(random, from.length)]!;
        }
        e.perturbed = { kind: 'replace', relation: e.relation, ...(plausible === undefined ? {} : { plausibility: plausible }) };
        e.relation = r.name;
        e.label = r.label;
    }
}

/** Ids one hop from each node (undirected). */
function oneHop(edges: ContextEdge[]): Map<string, Set<string>> {
    const n = new Map<string, Set<string>>();
    const link = (a: string, b: string) => {
        if (!n.has(a)) n.set(a, new Set());
        n.get(a)!.add(b);
    };
    for (const e of edges) {
        link(e.head, e.tail);
        link(e.tail, e.head);
    }
    return n;
}

function rewireTails(
    edges: ContextEdge[],
    chosen: number[],
    ctx: ContextGraph,
    nodes: ContextNode[],
    pool: ContextGraph | undefined,
    random: () => number,
): void {
    const near = oneHop([...ctx.edges, ...(pool?.edges ?? [])]);
    const candidates = [...new Map([...ctx.nodes, ...(pool?.nodes ?? [])].map(n => [n.id, n])).values()];
    for (const i of chosen) {
        const e = edges[i]!;
        const hop = near.get(e.head) ?? new Set<string>();
        const outside = candidates.filter(c => c.id !== e.head && !hop.has(c.id));
        const tailType = typeOf(ctx, e.tail);
        const alike = outside.filter(c => c.type === tailType);
        const from = alike.length ? alike : outside;
        if (!from.length) continue;
        const to = from[pick(random, from.length)]!;
        e.perturbed = { kind: 'rewire', tail: e.tail };
        e.tail = to.id;
        if (!nodes.some(n => n.id === to.id)) nodes.push(to);
    }
}

function deleteEdges(ctx: ContextGraph, chosen: number[]): ContextGraph {
    const gone = new Set(chosen);
    const index: number[] = [];
    const edges: ContextEdge[] = [];
    ctx.edges.forEach((e, j) => {
        index.push(gone.has(j) ? -1 : edges.length);
        if (!gone.has(j)) edges.push(e);
    });
    const out: ContextGraph = {
        form: ctx.form,
        nodes: ctx.nodes,
        edges,
        deleted: chosen.map(j => ({ ...ctx.edges[j]!, perturbed: { kind: 'delete' } })),
    };
    if (ctx.paths) out.paths = ctx.paths.map(p => p.map(j => (j >= 0 ? index[j]! : -1)));
    return out;
}
