/**
 * The graph panel's view-model, pure: cytoscape element definitions for the schema view and the question
 * view, and the rationale cut into plain-text segments for highlighting (rendered with textContent only).
 */
import type { SchemaGraph, QuestionGraph, RationaleSpan, GraphNeighbourhood, KeywordStatus, ClaimMark } from '../../src/protocol/webview.js';

export interface NodeDef { group: 'nodes'; data: { id: string; label: string; kind: string; status?: KeywordStatus | 'none'; relation?: string; hop?: number; given?: boolean } ; classes?: string }
export interface EdgeDef { group: 'edges'; data: { id: string; source: string; target: string; label: string; status?: KeywordStatus | 'none'; hop?: number }; classes?: string }
export type ElementDef = NodeDef | EdgeDef;

export function schemaElements(schema: SchemaGraph): ElementDef[] {
    const out: ElementDef[] = [];
    const names = new Set(schema.relations.map(r => r.name));
    for (const r of schema.relations) {
        const lines = [r.label && r.label !== r.name ? `${r.name} (${r.label})` : r.name];
        for (const k of r.keys) lines.push(`key (${k.join(', ')})`);
        for (const fd of r.fds) lines.push(`${fd.lhs.join(', ')} → ${fd.rhs.join(', ')}`);
        if (r.rows !== undefined) lines.push(`${r.rows} rows`);
        out.push({ group: 'nodes', data: { id: `rel:${r.name}`, label: lines.join('\n'), kind: 'relation', relation: r.name }, classes: 'relation' });
    }
    for (const fk of schema.fks) {
        if (!names.has(fk.from) || !names.has(fk.to)) continue;
        out.push({ group: 'edges', data: { id: `fk:${fk.id}`, source: `rel:${fk.from}`, target: `rel:${fk.to}`, label: `${fk.fromAttributes.join(', ')} → ${fk.toAttributes.join(', ')}` }, classes: 'fk' });
    }
    return out;
}

/** The status a hop's node and its incoming edge are coloured with. */
function hopStatus(graph: QuestionGraph, hop: number): KeywordStatus | 'none' {
    return graph.hops.find(h => h.hop === hop)?.status ?? 'none';
}

/**
 * The KG path of a question: start entity → each FK hop → the asked value; nodes and edges of hop i take
 * hop i's verdict; each contradicting value becomes its own node beside the node it contradicts.
 */
export function questionElements(graph: QuestionGraph): ElementDef[] {
    const out: ElementDef[] = [];
    for (const n of graph.path.nodes) {
        const status = n.hop === 0 ? 'none' : hopStatus(graph, n.hop);
        const classes = [n.kind, n.given ? 'given' : 'hidden', `status-${status}`].join(' ');
        out.push({ group: 'nodes', data: { id: n.id, label: n.label, kind: n.kind, status, hop: n.hop, given: n.given, ...(n.relation ? { relation: n.relation } : {}) }, classes });
    }
    graph.path.edges.forEach((e, i) => {
        const status = hopStatus(graph, e.hop);
        out.push({ group: 'edges', data: { id: `e${i}:${e.from}->${e.to}`, source: e.from, target: e.to, label: e.label, status, hop: e.hop }, classes: `path status-${status}` });
    });
    if (graph.claims) overlayClaims(out, graph.claims);
    for (const h of graph.hops) {
        const anchor = graph.path.nodes.find(n => n.hop === h.hop && !n.given) ?? graph.path.nodes.find(n => n.hop === h.hop);
        h.keywords.forEach((k, j) => {
            if (k.status !== 'contradicted' || !k.conflict) return;
            const id = `conflict:${h.hop}:${j}`;
            out.push({ group: 'nodes', data: { id, label: k.conflict, kind: 'conflict', status: 'contradicted', hop: h.hop }, classes: 'conflict status-contradicted' });
            if (anchor) out.push({ group: 'edges', data: { id: `${id}:edge`, source: anchor.id, target: id, label: `model said (not ${k.value})`, status: 'contradicted', hop: h.hop }, classes: 'conflict status-contradicted' });
        });
    }
    return out;
}

/** New elements for a node's neighbourhood, skipping those already drawn. */
export function neighbourhoodElements(n: GraphNeighbourhood, existing: ReadonlySet<string>): ElementDef[] {
    const out: ElementDef[] = [];
    for (const node of n.nodes) {
        if (existing.has(node.id)) continue;
        out.push({ group: 'nodes', data: { id: node.id, label: node.label, kind: node.kind, ...(node.relation ? { relation: node.relation } : {}) }, classes: `${node.kind} expanded` });
    }
    n.edges.forEach(e => {
        const id = `x:${e.from}->${e.to}:${e.label}`;
        if (!existing.has(id)) out.push({ group: 'edges', data: { id, source: e.from, target: e.to, label: e.label }, classes: 'expanded' });
    });
    return out;
}

export interface Segment { text: string; status?: KeywordStatus; keyword?: string }

/**
 * Cuts the rationale into segments; a span marks its characters with its status. Overlaps resolve to the
 * earlier span (spans are sorted by start); spans outside the text are clipped, so untrusted offsets
 * cannot break the rendering.
 */
export function rationaleSegments(text: string, spans: readonly RationaleSpan[]): Segment[] {
    const sorted = spans
        .map(s => ({ ...s, start: Math.max(0, Math.min(text.length, s.start)), end: Math.max(0, Math.min(text.length, s.end)) }))
        .filter(s => s.end > s.start)
        .sort((a, b) => a.start - b.start || b.end - a.end);
    const out: Segment[] = [];
    let at = 0;
    for (const s of sorted) {
        if (s.end <= at) continue;
        const start = Math.max(s.start, at);
        if (start > at) out.push({ text: text.slice(at, start) });
        out.push({ text: text.slice(start, s.end), status: s.status, keyword: s.keyword });
        at = s.end;
    }
    if (at < text.length || out.length === 0) out.push({ text: text.slice(at) });
    return out;
}

const CLAIM_STATUS = { supported: 'found', contradicted: 'contradicted', unverifiable: 'missing' } as const;
const WORST: (KeywordStatus | 'none')[] = ['none', 'found', 'missing', 'contradicted'];

/**
 * An open answer's claims over its context: each context edge a claim rests on, and each node a claim
 * mentions, takes the claim's label against the data (the worst one when several claims meet there).
 */
function overlayClaims(out: ElementDef[], claims: readonly ClaimMark[]): void {
    const worse = (a: KeywordStatus | 'none' | undefined, b: KeywordStatus) => (WORST.indexOf(a ?? 'none') >= WORST.indexOf(b) ? a! : b);
    for (const c of claims) {
        const status = CLAIM_STATUS[c.data];
        for (const d of out) {
            const hit = d.group === 'nodes' ? c.mentions.includes(d.data.id)
                : !!c.contextEdge && d.data.source === c.contextEdge.head && d.data.target === c.contextEdge.tail;
            if (!hit) continue;
            d.data.status = worse(d.data.status === 'none' ? undefined : d.data.status, status);
            d.classes = `${(d.classes ?? '').replace(/\bstatus-\S+/g, '').trim()} status-${d.data.status}`.trim();
        }
    }
}

/** The claims as list entries: the claim, its labels, and where the model's claim came from. */
export function claimSummary(c: ClaimMark): string {
    const why = c.cause === 'followed-corrupted' ? 'followed a corrupted context edge' : c.cause === 'invented' ? 'invented' : c.cause === 'grounded' ? 'supported by the data' : 'unverifiable';
    return `${c.text} — ${why}${c.dataEdge && c.data === 'contradicted' ? ` (data: ${c.dataEdge.head} ${c.dataEdge.relation} ${c.dataEdge.tail})` : ''}`;
}

/**
 * A one-line summary of the verdict, e.g. `hop 1 found · hop 2 missing (1954)`; an open question's by its claims
 * (`2 claims: 1 contradicted — followed a corrupted context edge, 1 supported`); "not run yet" only without an answer.
 */
export function hopSummary(graph: QuestionGraph): string {
    if (graph.claims?.length) {
        const bad = graph.claims.filter(c => c.data === 'contradicted' || c.cause === 'followed-corrupted' || c.cause === 'invented');
        const counts = new Map<string, number>();
        for (const c of graph.claims) counts.set(c.data, (counts.get(c.data) ?? 0) + 1);
        const n = graph.claims.length;
        return `${n} claim${n === 1 ? '' : 's'}: ${[...counts].map(([k, v]) => `${v} ${k}`).join(', ')}${bad[0] ? ` — "${bad[0].text}" ${claimSummary(bad[0]).slice(bad[0].text.length + 3)}` : ''}`;
    }
    if (graph.hops.length === 0) return graph.answer ? `answered ${graph.answer}${graph.correct ? ' ✓' : ' ✗'} (no hops to check)` : 'not run yet';
    return graph.hops.map(h => {
        const bad = h.keywords.filter(k => k.status !== 'found').map(k => k.value);
        return `hop ${h.hop} ${h.status}${bad.length ? ` (${bad.join(', ')})` : ''}`;
    }).join(' · ');
}

export interface Placed { id: string; label: string; x: number; y: number; w: number; h: number; colour: string; border: string }
export interface PlacedEdge { source: string; target: string; label: string; colour: string }

const xml = (s: string) => s.replace(/[<>&"']/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A standalone SVG of the drawn graph (cytoscape exports only PNG); every label is XML-escaped. */
export function toSvg(nodes: readonly Placed[], edges: readonly PlacedEdge[], background: string, text: string): string {
    if (nodes.length === 0) return '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
    const pad = 40;
    const minX = Math.min(...nodes.map(n => n.x - n.w / 2)) - pad, minY = Math.min(...nodes.map(n => n.y - n.h / 2)) - pad;
    const maxX = Math.max(...nodes.map(n => n.x + n.w / 2)) + pad, maxY = Math.max(...nodes.map(n => n.y + n.h / 2)) + pad;
    const at = new Map(nodes.map(n => [n.id, n]));
    const parts = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="${minX} ${minY} ${maxX - minX} ${maxY - minY}" width="${Math.round(maxX - minX)}" height="${Math.round(maxY - minY)}" font-family="sans-serif" font-size="12">`,
        `<rect x="${minX}" y="${minY}" width="${maxX - minX}" height="${maxY - minY}" fill="${xml(background)}"/>`];
    for (const e of edges) {
        const a = at.get(e.source), b = at.get(e.target);
        if (!a || !b) continue;
        parts.push(`<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" stroke="${xml(e.colour)}" stroke-width="2"/>`);
        if (e.label) parts.push(`<text x="${(a.x + b.x) / 2}" y="${(a.y + b.y) / 2 - 4}" fill="${xml(text)}" text-anchor="middle">${xml(e.label)}</text>`);
    }
    for (const n of nodes) {
        parts.push(`<rect x="${n.x - n.w / 2}" y="${n.y - n.h / 2}" width="${n.w}" height="${n.h}" rx="6" fill="${xml(n.colour)}" stroke="${xml(n.border)}" stroke-width="2"/>`);
        n.label.split('\n').forEach((line, i, all) => {
            parts.push(`<text x="${n.x}" y="${n.y + (i - (all.length - 1) / 2) * 14 + 4}" fill="${xml(text)}" text-anchor="middle">${xml(line)}</text>`);
        });
    }
    parts.push('</svg>');
    return parts.join('\n');
}

/** The smallest text the graph draws (edge labels), in CSS px at zoom 1. */
export const SMALLEST_FONT_PX = 11;
/** No label is drawn smaller than this (11 px) on screen: below it a fitted graph is zoomed in and panned instead. */
export const MIN_LABEL_PX = 11;

/**
 * The zoom to open a graph at: the zoom that fits it into the canvas, raised so the smallest label is at least
 * MIN_LABEL_PX high (a large graph then opens readable at its start, to be panned), and never above 2.
 */
export function readableZoom(fitZoom: number, smallestFont = SMALLEST_FONT_PX, minPx = MIN_LABEL_PX): number {
    return Math.min(2, Math.max(fitZoom, minPx / smallestFont));
}

/** Lay the graph out along the canvas's longer side, so it uses the panel's space. */
export function rankDirection(width: number, height: number): 'LR' | 'TB' {
    return width >= height * 0.8 ? 'LR' : 'TB';
}
