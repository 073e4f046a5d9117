/**
 * Context retrieval for an open question (METHODS §5, OKGQA): the K-hop neighbourhood of the question's
 * entities, ranked by personalised PageRank and pruned (score < 1e-5 dropped, at most `maxNodes` kept),
 * prizes on the best-ranked nodes and edges, then one of three context forms:
 *   - triplets: the edges with the highest prizes;
 *   - paths: greedy best paths from the question's entities (score = node prizes + edge prizes − edge costs);
 *   - subgraph: a prize-collecting Steiner tree (steiner.ts) rooted at the first entity.
 * Prizes follow G-Retriever: the i-th best of the top `topPrizes` nodes (edges) gets (topPrizes − i) / topPrizes,
 * the question's entities 1; every edge costs `edgeCost`. "Best" reads the question (`prizes question`, the default
 * when there is one): the question's similarity to each node's text (label and type) and each edge's (head, relation
 * words, tail) — the cosine of their embeddings when an embeddings model gives them (`similarity`), else BM25
 * (kg/lexical.ts) — PageRank breaking ties; `prizes ppr` ranks by PageRank alone.
 */
import { lazyPackage } from '../../lazy-package.js';
import type { UndirectedGraph } from 'graphology';
import type { DataGraph } from '../../kg/data-graph.js';
import { kHop, restrict, type LocalGraph } from '../../kg/khop.js';
import { personalisedPageRank, PPR_DEFAULTS } from './ppr.js';
import { lexicalScores } from '../../kg/lexical.js';
import { prizeCollectingSteiner } from './steiner.js';
import type { ContextEdge, ContextGraph, ContextNode, RetrievalForm } from './types.js';

export interface RetrievalSettings {
    form: RetrievalForm;
    k: number;
    maxDegree: number;
    alpha: number;
    tolerance: number;
    maxIterations: number;
    minScore: number;
    maxNodes: number;
    topPrizes: number;
    edgeCost: number;
    /** triplets: how many; paths: at most this many paths. */
    triplets: number;
    paths: number;
    /** The question asked: prizes read it unless `prizes` is 'ppr'. */
    question?: string;
    prizes: PrizeSource;
    /**
     * The question's similarity to node and edge texts from embeddings (the open family's `embeddings MODEL`), or
     * undefined when the vectors are not at hand: BM25 then.
     */
    similarity?: QuestionSimilarity;
}

/** The question's similarity to each text (e.g. cosine of embeddings), or undefined when it cannot be had. */
export type QuestionSimilarity = (question: string, texts: readonly string[]) => Float64Array | undefined;

/** Where a retrieval's prizes came from. */
export type PrizesFrom = 'embeddings' | 'bm25' | 'ppr';

export const PRIZE_SOURCES = ['question', 'ppr'] as const;
type PrizeSource = (typeof PRIZE_SOURCES)[number];

export const RETRIEVAL_DEFAULTS: RetrievalSettings = {
    form: 'triplets',
    k: 2,
    maxDegree: 200,
    alpha: PPR_DEFAULTS.alpha,
    tolerance: PPR_DEFAULTS.tolerance,
    maxIterations: PPR_DEFAULTS.maxIterations,
    minScore: PPR_DEFAULTS.minScore,
    maxNodes: 300,
    topPrizes: 20,
    edgeCost: 0.5,
    triplets: 30,
    paths: 5,
    prizes: 'question',
};

/** What retrieval saw, for `preview --format jsonl` and the graph panel: the pruned, scored graph and the context. */
export interface Retrieval {
    seeds: string[];
    neighbourhood: { nodes: number; edges: number };
    pprIterations: number;
    /** The pruned neighbourhood with PPR scores and prizes (the candidates of every form). */
    scored: ContextGraph;
    context: ContextGraph;
    /** The data graph's node of each scored node id (claim checking reads the data through it). */
    index: Map<string, number>;
    prizesFrom: PrizesFrom;
}

export function retrieve(graph: DataGraph, seeds: number[], settings: Partial<RetrievalSettings> = {}): Retrieval {
    const s = { ...RETRIEVAL_DEFAULTS, ...settings };
    const unique = [...new Set(seeds)];
    const hood = kHop(graph, unique, { k: s.k, maxDegree: s.maxDegree });
    const teleport = hood.nodes.map((_, i) => (i < unique.length ? 1 : 0));
    const ppr = personalisedPageRank(hood.nodes.length, hood.head, hood.tail, teleport, s);
    const byScore = hood.nodes.map((_, i) => i).sort((a, b) => ppr.scores[b]! - ppr.scores[a]! || a - b);
    const keep = hood.nodes.map(() => false);
    byScore.forEach((i, rank) => {
        keep[i] = i < unique.length || (rank < s.maxNodes && ppr.scores[i]! >= s.minScore);
    });
    const { graph: sub, index } = restrict(hood, keep);
    const score = sub.nodes.map(() => 0);
    hood.nodes.forEach((_, i) => {
        if (index[i]! >= 0) score[index[i]!] = ppr.scores[i]!;
    });
    const { scored, prizesFrom } = scoredGraph(graph, sub, score, unique.length, s);
    const context =
        s.form === 'triplets'
            ? topTriplets(scored, s.triplets)
            : s.form === 'paths'
              ? bestPaths(scored, unique.length, s.paths)
              : steinerSubgraph(scored, unique.length);
    const ids = new Map(scored.nodes.map((n, i) => [n.id, sub.nodes[i]!]));
    return {
        seeds: unique.map(v => graph.id(v)),
        neighbourhood: { nodes: hood.nodes.length, edges: hood.edges.length },
        pprIterations: ppr.iterations,
        scored,
        context,
        index: ids,
        prizesFrom,
    };
}

/** Rank-based prizes (see the header), as a ContextGraph whose first `seedCount` nodes are the seeds. */
function scoredGraph(
    graph: DataGraph,
    sub: LocalGraph,
    score: number[],
    seedCount: number,
    s: RetrievalSettings,
): { scored: ContextGraph; prizesFrom: PrizesFrom } {
    const rankPrize = (order: number[]) => {
        const prize = order.map(() => 0);
        order.slice(0, s.topPrizes).forEach((i, rank) => {
            prize[i] = (s.topPrizes - rank) / s.topPrizes;
        });
        return prize;
    };
    const edgeScore = sub.edges.map((_, j) => score[sub.head[j]!]! + score[sub.tail[j]!]!);
    const similar = s.prizes === 'question' && s.question ? questionSimilarity(graph, sub, s.question, s.similarity) : undefined;
    const [nodeSimilarity, edgeSimilarity] = similar?.scores ?? [undefined, undefined];
    const nodeOrder = sub.nodes
        .map((_, i) => i)
        .sort((a, b) => (nodeSimilarity ? nodeSimilarity[b]! - nodeSimilarity[a]! : 0) || score[b]! - score[a]! || a - b);
    const nodePrize = rankPrize(nodeOrder).map((p, i) => (i < seedCount ? 1 : p));
    const edgeOrder = sub.edges
        .map((_, j) => j)
        .sort((a, b) => (edgeSimilarity ? edgeSimilarity[b]! - edgeSimilarity[a]! : 0) || edgeScore[b]! - edgeScore[a]! || a - b);
    const edgePrize = rankPrize(edgeOrder);
    const nodes: ContextNode[] = sub.nodes.map((v, i) => ({
        id: graph.id(v),
        label: graph.label(v),
        display: graph.display(v),
        type: graph.typeOf(v),
        entity: graph.isEntity(v),
        ppr: score[i]!,
        prize: nodePrize[i]!,
        seed: i < seedCount,
    }));
    const edges: ContextEdge[] = sub.edges.map((e, j) => {
        const rel = graph.relations[graph.edgeRel[e]!]!;
        return {
            head: nodes[sub.head[j]!]!.id,
            relation: rel.name,
            label: rel.label,
            tail: nodes[sub.tail[j]!]!.id,
            prize: edgePrize[j]!,
            cost: s.edgeCost,
        };
    });
    return { scored: { form: 'scored', nodes, edges }, prizesFrom: similar?.from ?? 'ppr' };
}

/**
 * The question's similarity to each node's words (label, type) and each edge's (head, relation words, tail): from
 * embeddings when `similarity` gives them for every text, else BM25.
 */
function questionSimilarity(
    graph: DataGraph,
    sub: LocalGraph,
    question: string,
    similarity?: QuestionSimilarity,
): { scores: [Float64Array, Float64Array]; from: PrizesFrom } {
    const nodeText = sub.nodes.map(v => `${graph.label(v)} ${graph.typeOf(v).replace(/[._]/g, ' ')}`);
    const edgeText = sub.edges.map((e, j) => {
        const rel = graph.relations[graph.edgeRel[e]!]!;
        return `${nodeText[sub.head[j]!]} ${rel.label} ${rel.words.join(' ')} ${nodeText[sub.tail[j]!]}`;
    });
    const embedded = similarity?.(question, [...nodeText, ...edgeText]);
    if (embedded)
        return { scores: [embedded.subarray(0, nodeText.length), embedded.subarray(nodeText.length)], from: 'embeddings' };
    const [nodes] = lexicalScores(nodeText, [question]);
    const [edges] = lexicalScores(edgeText, [question]);
    return { scores: [nodes!, edges!], from: 'bm25' };
}

/** Only the nodes the chosen edges touch (seeds always), in the scored graph's order. */
function pick(scored: ContextGraph, form: RetrievalForm, edges: number[], paths?: number[][]): ContextGraph {
    const used = new Set<string>();
    for (const j of edges) {
        used.add(scored.edges[j]!.head);
        used.add(scored.edges[j]!.tail);
    }
    const out: ContextGraph = {
        form,
        nodes: scored.nodes.filter(n => n.seed || used.has(n.id)),
        edges: edges.map(j => scored.edges[j]!),
    };
    if (paths) out.paths = paths.map(p => p.map(j => edges.indexOf(j)));
    return out;
}

function topTriplets(scored: ContextGraph, count: number): ContextGraph {
    const order = scored.edges.map((_, j) => j).sort((a, b) => scored.edges[b]!.prize - scored.edges[a]!.prize || a - b);
    return pick(scored, 'triplets', order.slice(0, count));
}

/** graphology and its Dijkstra at the first path search: every face loads the probe families and few runs search paths. */
const graphology = lazyPackage<typeof import('graphology')>('graphology', () => require('graphology'));
const dijkstra = lazyPackage<typeof import('graphology-shortest-path/dijkstra.js')>('graphology-shortest-path/dijkstra.js', () =>
    require('graphology-shortest-path/dijkstra.js'),
);

/** Local node index per id, and an undirected graphology graph keeping the cheapest edge per pair. */
function pathGraph(scored: ContextGraph): UndirectedGraph {
    const g = new (graphology().UndirectedGraph)();
    for (const n of scored.nodes) g.addNode(n.id);
    scored.edges.forEach((e, j) => {
        if (e.head === e.tail) return;
        const w = Math.max(1e-6, e.cost - e.prize);
        const existing = g.edge(e.head, e.tail);
        if (existing === undefined) g.addEdge(e.head, e.tail, { w, j });
        else if ((g.getEdgeAttribute(existing, 'w') as number) > w) g.mergeEdgeAttributes(existing, { w, j });
    });
    return g;
}

/**
 * Greedy best paths: the cheapest path from a seed to every node (edge weight cost − prize), each scored by
 * what it adds (prizes of new nodes and edges minus the costs of new edges); paths between seeds first, then
 * the best-scoring path while it adds something positive.
 */
function bestPaths(scored: ContextGraph, seedCount: number, maxPaths: number): ContextGraph {
    const g = pathGraph(scored);
    const nodePrize = new Map(scored.nodes.map(n => [n.id, n.prize]));
    const candidates: number[][] = [];
    const forced: number[][] = [];
    for (let i = 0; i < seedCount; i++) {
        const seed = scored.nodes[i]!.id;
        const routes = dijkstra().singleSource(g, seed, 'w');
        for (const [target, route] of Object.entries(routes)) {
            if (route.length < 2) continue;
            const edges = route.slice(1).map((v, k) => g.getEdgeAttribute(g.edge(route[k]!, v)!, 'j') as number);
            const isSeed = scored.nodes.findIndex(n => n.id === target) < seedCount;
            (isSeed ? (target > seed ? forced : []) : candidates).push(edges);
        }
    }
    const chosen: number[][] = [...forced];
    const coveredEdges = new Set(forced.flat());
    const coveredNodes = new Set(scored.nodes.slice(0, seedCount).map(n => n.id));
    for (const p of forced)
        for (const j of p) {
            coveredNodes.add(scored.edges[j]!.head);
            coveredNodes.add(scored.edges[j]!.tail);
        }
    const gain = (p: number[]) => {
        let total = 0;
        const nodes = new Set<string>();
        for (const j of p) {
            const e = scored.edges[j]!;
            if (coveredEdges.has(j)) continue;
            total += e.prize - e.cost;
            for (const v of [e.head, e.tail])
                if (!coveredNodes.has(v) && !nodes.has(v)) {
                    nodes.add(v);
                    total += nodePrize.get(v)!;
                }
        }
        return total;
    };
    while (chosen.length < maxPaths) {
        let best = -1,
            bestGain = 0;
        candidates.forEach((p, i) => {
            const v = gain(p);
            if (v > bestGain + 1e-12) {
                best = i;
                bestGain = v;
            }
        });
        if (best < 0) break;
        const p = candidates.splice(best, 1)[0]!;
        chosen.push(p);
        for (const j of p) {
            coveredEdges.add(j);
            coveredNodes.add(scored.edges[j]!.head);
            coveredNodes.add(scored.edges[j]!.tail);
        }
    }
    return pick(scored, 'paths', [...new Set(chosen.flat())], chosen);
}

/** The prize-collecting Steiner tree rooted at the first seed; the other seeds carry prizes no tree may skip. */
function steinerSubgraph(scored: ContextGraph, seedCount: number): ContextGraph {
    const index = new Map(scored.nodes.map((n, i) => [n.id, i]));
    const cost = scored.edges.map(e => Math.max(0, e.cost - e.prize));
    const must = 1 + scored.nodes.reduce((a, n) => a + n.prize, 0) + cost.reduce((a, c) => a + c, 0);
    const tree = prizeCollectingSteiner({
        n: scored.nodes.length,
        head: scored.edges.map(e => index.get(e.head)!),
        tail: scored.edges.map(e => index.get(e.tail)!),
        cost,
        prize: scored.nodes.map((n, i) => (i > 0 && i < seedCount ? must : n.prize)),
        root: 0,
    });
    return pick(scored, 'subgraph', tree.edges);
}
