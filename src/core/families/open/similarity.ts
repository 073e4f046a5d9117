/**
 * How far a perturbed context is from the retrieved one (METHODS §5): SC2D over local clustering
 * coefficients and SD2 over degrees, both per (node, relation): x_{v,r} is v's clustering coefficient
 * (SC2D) or degree (SD2) in the undirected simple graph of the r-edges. A node or relation missing on one
 * side counts 0 there. similarity = 1 − ‖x_o − x_p‖₂ / (‖x_o − x_p‖₂ + 1): 1 for the same graph, towards 0
 * as they drift apart.
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

export function degreeVector(g: ContextGraph): Vector {
    const v: Vector = new Map();
    for (const [r, nodes] of relationNeighbours(g.edges)) for (const [n, nb] of nodes) v.set(`${n}\u0000${r}`, nb.size);
    return v;
}

export function clusteringVector(g: ContextGraph): Vector {
    const v: Vector = new Map();
    for (const [r, nodes] of relationNeighbours(g.edges)) {
        for (const [n, nb] of nodes) {
            const list = [...nb];
            let links = 0;
            for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) if (nodes.get(list[i]!)!.has(list[j]!)) links++;
            const pairs = (list.length * (list.length - 1)) / 2;
            v.set(`${n}\u0000${r}`, pairs > 0 ? links / pairs : 0);
        }
    }
    return v;
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
