/**
 * The K-hop neighbourhood of a question's entities in the data graph: every node within K hops of a seed and
 * every edge on such a walk (the edges seen from nodes fewer than K hops out). A hub — a node of more than
 * `maxDegree` edges other than a seed, such as `Movie.year=2009` — is kept but not expanded, so two hops
 * never pull in every movie of a year; personalised PageRank then ranks what is left.
 */
import type { DataGraph } from './data-graph.js';

/** A small subgraph with local indices 0..n-1; `nodes[i]` / `edges[j]` are the data graph's indices. */
export interface LocalGraph {
    nodes: number[];
    /** Hops from the nearest seed, per local node. */
    hop: number[];
    edges: number[];
    /** Local head / tail of each local edge. */
    head: number[];
    tail: number[];
}

export interface KHopOptions {
    k?: number;
    maxDegree?: number;
}

export function kHop(graph: DataGraph, seeds: number[], options: KHopOptions = {}): LocalGraph {
    const k = options.k ?? 2;
    const maxDegree = options.maxDegree ?? 200;
    const local = new Map<number, number>();
    const out: LocalGraph = { nodes: [], hop: [], edges: [], head: [], tail: [] };
    const add = (v: number, hop: number) => {
        let i = local.get(v);
        if (i === undefined) {
            i = out.nodes.length;
            local.set(v, i);
            out.nodes.push(v);
            out.hop.push(hop);
        }
        return i;
    };
    for (const s of seeds) add(s, 0);
    const seenEdge = new Set<number>();
    let frontier = [...new Set(seeds)];
    for (let hop = 0; hop < k && frontier.length > 0; hop++) {
        const next: number[] = [];
        for (const u of frontier) {
            if (hop > 0 && graph.degree(u) > maxDegree) continue;
            for (let a = graph.offsets[u]!; a < graph.offsets[u + 1]!; a++) {
                const v = graph.adjNode[a]!,
                    e = graph.adjEdge[a]!;
                if (!local.has(v)) next.push(v);
                add(v, hop + 1);
                if (seenEdge.has(e)) continue;
                seenEdge.add(e);
                out.edges.push(e);
                out.head.push(local.get(graph.edgeHead[e]!)!);
                out.tail.push(local.get(graph.edgeTail[e]!)!);
            }
        }
        frontier = next;
    }
    return out;
}

/** The subgraph induced by the local nodes kept (`keep[i]`), reindexed; edges need both ends kept. */
export function restrict(g: LocalGraph, keep: boolean[]): { graph: LocalGraph; index: number[] } {
    const index = g.nodes.map(() => -1);
    const out: LocalGraph = { nodes: [], hop: [], edges: [], head: [], tail: [] };
    g.nodes.forEach((v, i) => {
        if (keep[i]) {
            index[i] = out.nodes.length;
            out.nodes.push(v);
            out.hop.push(g.hop[i]!);
        }
    });
    g.edges.forEach((e, j) => {
        const h = index[g.head[j]!]!,
            t = index[g.tail[j]!]!;
        if (h < 0 || t < 0) return;
        out.edges.push(e);
        out.head.push(h);
        out.tail.push(t);
    });
    return { graph: out, index };
}
