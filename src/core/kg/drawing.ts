/**
 * What the graph panel draws, computed here so that every face draws the same: element definitions for the
 * schema view, a question's view (its KG path coloured by hop verdict, conflicting values as their own nodes,
 * an open answer's claims over its context, the question's own entities marked) and a node's neighbourhood;
 * then collapsed, so a graph opens small enough to be read whole — beyond a node's first neighbours, and beyond
 * a total, the rest waits behind a "+N more" node that the panel expands on a click.
 */
import type {
    ClaimMark,
    DrawnGraph,
    ElementDef,
    FactGraph,
    KeywordStatus,
    NodeDef,
    QuestionGraph,
    SchemaGraph,
} from '../../protocol/webview.js';
import type { KgPath } from './path.js';

/** Neighbours of one node drawn before the rest go behind its "+N more" node. */
export const NEIGHBOURS_SHOWN = 6;
/** Nodes a graph opens with at most (fits a panel of about 500 × 600 px with labels at 11 px or more). */
export const NODES_SHOWN = 10;
/**
 * The smaller drawings a narrow panel falls back to, in turn: two neighbours a node and nine nodes in all, then one
 * neighbour a node and seven nodes ("+N more" nodes included). Each is kept only when it draws fewer elements.
 */
const COMPACT = [
    { perNode: 2, total: 9 },
    { perNode: 1, total: 7 },
] as const;

export function schemaElements(schema: SchemaGraph): ElementDef[] {
    const out: ElementDef[] = [];
    const names = new Set(schema.relations.map(r => r.name));
    for (const r of schema.relations) {
        const lines = [r.label && r.label !== r.name ? `${r.name} (${r.label})` : r.name];
        for (const k of r.keys) lines.push(`key (${k.join(', ')})`);
        for (const fd of r.fds) lines.push(`${fd.lhs.join(', ')} → ${fd.rhs.join(', ')}`);
        if (r.rows !== undefined) lines.push(`${r.rows} rows`);
        out.push({
            group: 'nodes',
            data: { id: `rel:${r.name}`, label: lines.join('\n'), kind: 'relation', relation: r.name },
            classes: 'relation',
        });
    }
    for (const fk of schema.fks) {
        if (!names.has(fk.from) || !names.has(fk.to)) continue;
        out.push({
            group: 'edges',
            data: {
                id: `fk:${fk.id}`,
                source: `rel:${fk.from}`,
                target: `rel:${fk.to}`,
                label: `${fk.fromAttributes.join(', ')} → ${fk.toAttributes.join(', ')}`,
            },
            classes: 'fk',
        });
    }
    return out;
}

/** The status a hop's node and its incoming edge are coloured with. */
function hopStatus(graph: QuestionGraph, hop: number): KeywordStatus | 'none' {
    return graph.hops.find(h => h.hop === hop)?.status ?? 'none';
}

/**
 * The question's own entities: those a family names (`graph.focus`), else the entities the path starts from
 * (hop 0: a binary question's movie, an open question's seeds, a rule question's derived fact).
 */
export function focusOf(graph: QuestionGraph): string[] {
    if (graph.focus?.length) return graph.focus.filter(id => graph.path.nodes.some(n => n.id === id));
    const start = graph.path.nodes.filter(n => n.hop === 0 && n.kind === 'entity');
    return (start.length ? start : graph.path.nodes.slice(0, 1)).map(n => n.id);
}

/**
 * The KG path of a question: start entity → each FK hop → the asked value; nodes and edges of hop i take
 * hop i's verdict; each contradicting value becomes its own node beside the node it contradicts; the
 * question's own entities carry the class `focus`.
 */
export function questionElements(graph: QuestionGraph): ElementDef[] {
    const out: ElementDef[] = [];
    const focus = new Set(focusOf(graph));
    for (const n of graph.path.nodes) {
        const status = n.hop === 0 ? 'none' : hopStatus(graph, n.hop);
        const classes = [n.kind, n.given ? 'given' : 'hidden', `status-${status}`, ...(focus.has(n.id) ? ['focus'] : [])].join(
            ' ',
        );
        out.push({
            group: 'nodes',
            data: {
                id: n.id,
                label: n.label,
                kind: n.kind,
                status,
                hop: n.hop,
                given: n.given,
                ...(n.relation ? { relation: n.relation } : {}),
                ...(focus.has(n.id) ? { focus: true } : {}),
            },
            classes,
        });
    }
    graph.path.edges.forEach((e, i) => {
        const status = hopStatus(graph, e.hop);
        out.push({
            group: 'edges',
            data: { id: `e${i}:${e.from}->${e.to}`, source: e.from, target: e.to, label: e.label, status, hop: e.hop },
            classes: `path status-${status}`,
        });
    });
    if (graph.claims) overlayClaims(out, graph.claims);
    for (const h of graph.hops) {
        const anchor = graph.path.nodes.find(n => n.hop === h.hop && !n.given) ?? graph.path.nodes.find(n => n.hop === h.hop);
        h.keywords.forEach((k, j) => {
            if (k.status !== 'contradicted' || !k.conflict) return;
            const id = `conflict:${h.hop}:${j}`;
            out.push({
                group: 'nodes',
                data: { id, label: k.conflict, kind: 'conflict', status: 'contradicted', hop: h.hop },
                classes: 'conflict status-contradicted',
            });
            if (anchor)
                out.push({
                    group: 'edges',
                    data: {
                        id: `${id}:edge`,
                        source: anchor.id,
                        target: id,
                        label: `model said (not ${k.value})`,
                        status: 'contradicted',
                        hop: h.hop,
                    },
                    classes: 'conflict status-contradicted',
                });
        });
    }
    return out;
}

/** A node's neighbourhood read from the data (kg/view), as elements drawn dotted; the node itself is already drawn. */
export function neighbourhoodElements(nodeId: string, n: KgPath): ElementDef[] {
    const out: ElementDef[] = [];
    for (const node of n.nodes) {
        if (node.id === nodeId) continue;
        out.push({
            group: 'nodes',
            data: { id: node.id, label: node.label, kind: node.kind, ...(node.relation ? { relation: node.relation } : {}) },
            classes: `${node.kind} expanded`,
        });
    }
    for (const e of n.edges)
        out.push({
            group: 'edges',
            data: { id: `x:${e.from}->${e.to}:${e.label}`, source: e.from, target: e.to, label: e.label },
            classes: 'expanded',
        });
    return out;
}

const CLAIM_STATUS = { supported: 'found', contradicted: 'contradicted', unverifiable: 'missing' } as const;
const WORST: (KeywordStatus | 'none')[] = ['none', 'found', 'missing', 'contradicted'];

/**
 * An open answer's claims over its context: each context edge a claim rests on, and each node a claim
 * mentions, takes the claim's label against the data (the worst one when several claims meet there).
 */
function overlayClaims(out: ElementDef[], claims: readonly ClaimMark[]): void {
    const worse = (a: KeywordStatus | 'none' | undefined, b: KeywordStatus) =>
        WORST.indexOf(a ?? 'none') >= WORST.indexOf(b) ? a! : b;
    for (const c of claims) {
        const status = CLAIM_STATUS[c.data];
        for (const d of out) {
            const hit =
                d.group === 'nodes'
                    ? c.mentions.includes(d.data.id)
                    : !!c.contextEdge && d.data.source === c.contextEdge.head && d.data.target === c.contextEdge.tail;
            if (!hit) continue;
            d.data.status = worse(d.data.status === 'none' ? undefined : d.data.status, status);
            d.classes = `${(d.classes ?? '').replace(/\bstatus-\S+/g, '').trim()} status-${d.data.status}`.trim();
        }
    }
}

/** Which neighbours a node keeps in view first: what explains the verdict, then the path in hop order. */
function rank(n: NodeDef): number {
    if (n.data.kind === 'conflict') return 0;
    return 1 + WORST.length - WORST.indexOf(n.data.status ?? 'none') + (n.data.hop ?? 0) / 1000;
}

/**
 * Collapses a graph for drawing: from the focus outwards (breadth first), each node keeps its first
 * `perNode` neighbours (the ones that explain the verdict first) and the whole view at most `total` nodes;
 * the rest of a node's neighbours go behind one "+N more" node beside it. Expanding that node adds what it
 * stands for: those neighbours, the edges between them and what is drawn, and their own "+N more" nodes.
 * Nothing is dropped: every node is drawn or reachable through "+N more" nodes.
 */
export function collapse(
    elements: readonly ElementDef[],
    focus: readonly string[],
    perNode = NEIGHBOURS_SHOWN,
    total = NODES_SHOWN,
): DrawnGraph {
    const nodes = elements.filter((e): e is NodeDef => e.group === 'nodes');
    const edges = elements.filter(e => e.group === 'edges');
    const byId = new Map(nodes.map(n => [n.data.id, n]));
    const neighbours = new Map<string, string[]>(nodes.map(n => [n.data.id, []]));
    for (const e of edges) {
        if (e.group !== 'edges' || !byId.has(e.data.source) || !byId.has(e.data.target) || e.data.source === e.data.target)
            continue;
        neighbours.get(e.data.source)!.push(e.data.target);
        neighbours.get(e.data.target)!.push(e.data.source);
    }
    // Breadth first from all of the focus at once (then from each node not reached, in order): every node gets a
    // parent, and each focus node is a root of its own, so none hangs below a node that may not be shown.
    const parent = new Map<string, string | undefined>();
    const children = new Map<string, string[]>();
    const order: string[] = [];
    const starts = [focus.filter(id => byId.has(id)), ...nodes.map(n => [n.data.id])];
    for (const roots of starts) {
        const queue = roots.filter(id => !parent.has(id));
        for (const root of queue) parent.set(root, undefined);
        while (queue.length) {
            const u = queue.shift()!;
            order.push(u);
            const next = [...new Set(neighbours.get(u)!)]
                .filter(v => !parent.has(v))
                .sort((a, b) => rank(byId.get(a)!) - rank(byId.get(b)!));
            for (const v of next) {
                parent.set(v, u);
                queue.push(v);
            }
            children.set(u, next);
        }
    }
    // Shown: the focus and other roots while the total allows, then each node's first children.
    const shown = new Set<string>();
    const focusSet = new Set(focus);
    for (const id of order) {
        const p = parent.get(id);
        const fits = shown.size < total || focusSet.has(id);
        const place = p === undefined ? true : shown.has(p) && children.get(p)!.indexOf(id) < perNode;
        if (fits && place) shown.add(id);
    }
    // The "+N more" nodes count too: the last shown nodes go behind them while the view holds more than the total.
    const hasHidden = (id: string) => children.get(id)!.some(c => !shown.has(c));
    const drawnCount = () =>
        shown.size +
        [...shown].filter(hasHidden).length +
        (order.some(id => parent.get(id) === undefined && !shown.has(id)) ? 1 : 0);
    for (let i = order.length - 1; i >= 0 && drawnCount() > total; i--) {
        const id = order[i]!;
        if (shown.has(id) && !focusSet.has(id) && !children.get(id)!.some(c => shown.has(c))) shown.delete(id);
    }
    // The hidden neighbours of a node (or, under '', the unconnected rest) in pages of `perNode`: the "+N more"
    // node of page k stands for that page and, when there are more, the next page's "+N more" node.
    const hidden = new Map<string, string[]>();
    for (const id of order) {
        const under = parent.get(id) ?? '';
        if (shown.has(id)) continue;
        if (!hidden.has(under)) hidden.set(under, []);
        hidden.get(under)!.push(id);
    }
    const pageId = (of: string, k: number) => (k ? `more${k + 1}:${of}` : `more:${of}`);
    const moreOf = (of: string, k: number): ElementDef[] => {
        const left = hidden.get(of)!.length - k * perNode;
        const id = pageId(of, k);
        const node: ElementDef = {
            group: 'nodes',
            data: {
                id,
                label: of === '' ? `+${left} more, not linked` : `+${left} more`,
                kind: 'more',
                ...(byId.get(of)?.data.relation ? { relation: byId.get(of)!.data.relation } : {}),
            },
            classes: 'more',
        };
        return of === ''
            ? [node]
            : [node, { group: 'edges', data: { id: `${id}:edge`, source: of, target: id, label: '' }, classes: 'more' }];
    };
    const moreFor = (ids: Iterable<string>) => [...ids].flatMap(id => (hidden.get(id)?.length ? moreOf(id, 0) : []));
    const drawn: DrawnGraph = {
        elements: [
            ...nodes.filter(n => shown.has(n.data.id)),
            ...edges.filter(e => e.group === 'edges' && shown.has(e.data.source) && shown.has(e.data.target)),
            ...moreFor(shown),
        ],
        more: {},
        focus: focus.filter(id => byId.has(id)),
    };
    if (hidden.get('')?.length) drawn.elements.push(...moreOf('', 0));
    for (const [of, ids] of hidden) {
        for (let k = 0; k * perNode < ids.length; k++) {
            const page = new Set(ids.slice(k * perNode, (k + 1) * perNode));
            drawn.more[pageId(of, k)] = [
                ...nodes.filter(n => page.has(n.data.id)),
                ...edges.filter(e => e.group === 'edges' && (page.has(e.data.source) || page.has(e.data.target))),
                ...moreFor(page),
                ...((k + 1) * perNode < ids.length ? moreOf(of, k + 1) : []),
            ];
        }
    }
    return drawn;
}

/** A drawing and, where smaller, the compact ones a panel too narrow for it falls back to (each the next's `compact`). */
function drawing(elements: readonly ElementDef[], focus: readonly string[]): DrawnGraph {
    const drawn = collapse(elements, focus);
    let last = drawn;
    for (const { perNode, total } of COMPACT) {
        const compact = collapse(elements, focus, perNode, total);
        if (compact.elements.length >= last.elements.length) continue;
        last.compact = compact;
        last = compact;
    }
    return drawn;
}

/** A question's view, collapsed around its own entities. */
export function questionDrawing(graph: QuestionGraph): DrawnGraph {
    return drawing(questionElements(graph), focusOf(graph));
}

/** The schema's view (relations are few; the same collapse keeps a large schema readable). */
export function schemaDrawing(schema: SchemaGraph): DrawnGraph {
    return drawing(schemaElements(schema), []);
}

/** A node's neighbourhood, collapsed around that node (a popular director's many movies behind "+N more"). */
export function neighbourhoodDrawing(nodeId: string, n: KgPath): DrawnGraph {
    const own: ElementDef = { group: 'nodes', data: { id: nodeId, label: '', kind: 'entity' } };
    const drawn = collapse([own, ...neighbourhoodElements(nodeId, n)], [nodeId], NEIGHBOURS_SHOWN, NEIGHBOURS_SHOWN + 1);
    drawn.elements = drawn.elements.filter(e => e !== own);
    return drawn;
}

/**
 * The fact view (docs/facts.md): the fact's edge in the middle (its row's entity, the attribute, the data's value), each
 * family's answer around it — every other one before the entity, the rest after the value — coloured by its verdict
 * (right: found, wrong: contradicted, abstained: missing) and naming the wrong value given; each carries the question
 * whose graph it opens. Never collapsed: a fact is asked in at most as many families as there are.
 */
export function factDrawing(fact: FactGraph): DrawnGraph {
    const entity = 'fact:entity',
        value = 'fact:value';
    const out: ElementDef[] = [
        {
            group: 'nodes',
            data: {
                id: entity,
                label: `${fact.relation}(${fact.key.join(', ')})`,
                kind: 'entity',
                status: 'none',
                relation: fact.relation,
                given: true,
                focus: true,
            },
            classes: 'entity given status-none focus',
        },
        {
            group: 'nodes',
            data: { id: value, label: fact.value, kind: 'value', status: 'none', given: true },
            classes: 'value given status-none',
        },
        {
            group: 'edges',
            data: { id: 'fact:edge', source: entity, target: value, label: fact.attribute, status: 'none' },
            classes: 'path status-none',
        },
    ];
    fact.answers.forEach((a, i) => {
        const status: KeywordStatus = a.verdict === 'right' ? 'found' : a.verdict === 'wrong' ? 'contradicted' : 'missing';
        const id = `answer:${a.kind}`;
        const said = a.verdict === 'wrong' && a.value !== undefined ? `wrong: ${a.value}` : a.verdict;
        out.push({
            group: 'nodes',
            data: { id, label: `${a.kind}\n${said}`, kind: 'answer', status, questionId: a.questionId },
            classes: `answer status-${status}`,
        });
        out.push({
            group: 'edges',
            data:
                i % 2 === 0
                    ? { id: `${id}:edge`, source: id, target: entity, label: '', status }
                    : { id: `${id}:edge`, source: value, target: id, label: '', status },
            classes: `answer status-${status}`,
        });
    });
    return { elements: out, more: {}, focus: [entity] };
}
