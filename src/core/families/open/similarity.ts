/**
 * How far a perturbed context is from the retrieved one (METHODS §5, OKGQA App. B.5): SC2D over local clustering
 * coefficients and SD2 over degrees. For each relation r, x^r is a |V|-vector: every node's clustering coefficient
 * (SC2D) or degree (SD2) in the undirected simple graph of the r-edges (0 for a node without r-edges). The graph's
 * vector is their average over its relations, x = (1/|R|)·Σ_r x^r (averaged, not concatenated: a relation swap
 * keeps every node's averaged degree). A node missing on one side counts 0 there.
 * similarity = 1 − ‖x_o − x_p‖₂ / (‖x_o − x_p‖₂ + 1): 1 for the same graph, towards 0 as they drift apart.
 */
import type { ContextEdge, ContextGraph } from './types.js';

type Vector = Map<string, number>;

/** Neighbour sets per relation and node (self-loops and parallel edges dropped). */
function relationNeighbours(edges: ContextEdge[]): Map<string, Map<string, Set<string>>> {
    const out = new Map<string, Map<string, Set<string>>>();
    const link = (r: string, a: string, b: string) => {
        if (!out.has(r)) out.set(r, new Map());
        const m = out.get(r)!;
        if (!m.has(a)) m.set(a, new Set());
        m.get(a)!.add(b);
    };
    for (const e of edges) {
        if (e.head === e.tail) continue;
        link(e.relation, e.head, e.tail);
        link(e.relation, e.tail, e.head);
    }
    return out;
}

/** (1/|R|)·Σ_r x^r, where `measure` gives a node's value in relation r's graph. */
function averaged(g: ContextGraph, measure: (nodes: Map<string, Set<string>>, neighbours: Set<string>) => number): Vector {
    const v: Vector = new Map();
    const byRelation = relationNeighbours(g.edges);
    for (const [, nodes] of byRelation) for (const [n, nb] of nodes) v.set(n, (v.get(n) ?? 0) + measure(nodes, nb));
    for (const [n, x] of v) v.set(n, x / byRelation.size);
    return v;
}

export function degreeVector(g: ContextGraph): Vector {
    return averaged(g, (_, nb) => nb.size);
}

export function clusteringVector(g: ContextGraph): Vector {
    return averaged(g, (nodes, nb) => {
        const list = [...nb];
        let links = 0;
        for (let i = 0; i < list.length; i++)
            for (let j = i + 1; j < list.length; j++) if (nodes.get(list[i]!)!.has(list[j]!)) links++;
        const pairs = (list.length * (list.length - 1)) / 2;
        return pairs > 0 ? links / pairs : 0;
    });
}

function distance(a: Vector, b: Vector): number {
    let sum = 0;
    for (const k of new Set([...a.keys(), ...b.keys()])) sum += ((a.get(k) ?? 0) - (b.get(k) ?? 0)) ** 2;
    return Math.sqrt(sum);
}

const similarity = (d: number) => 1 - d / (d + 1);

export function sc2d(original: ContextGraph, perturbed: ContextGraph): number {
    return similarity(distance(clusteringVector(original), clusteringVector(perturbed)));
}

export function sd2(original: ContextGraph, perturbed: ContextGraph): number {
    return similarity(distance(degreeVector(original), degreeVector(perturbed)));
}
