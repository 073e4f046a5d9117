/**
 * The graph panel's text helpers, pure: the rationale cut into plain-text segments for highlighting (rendered with
 * textContent only), the verdict and claim summaries, the SVG export and the readable zoom. What is drawn (the
 * elements, collapsed, with the question's own entities) comes computed from the engine (core/kg/drawing).
 */
import type { QuestionGraph, RationaleSpan, KeywordStatus, ClaimMark } from '../../src/protocol/webview.js';

export interface Segment {
    text: string;
    status?: KeywordStatus;
    keyword?: string;
}

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

/** The claims as list entries: the claim, its labels, and where the model's claim came from. */
export function claimSummary(c: ClaimMark): string {
    const why =
        c.cause === 'followed-corrupted'
            ? 'followed a corrupted context edge'
            : c.cause === 'invented'
              ? 'invented'
              : c.cause === 'grounded'
                ? 'supported by the data'
                : 'unverifiable';
    return `${c.text} — ${why}${c.dataEdge && c.data === 'contradicted' ? ` (data: ${c.dataEdge.head} ${c.dataEdge.relation} ${c.dataEdge.tail})` : ''}`;
}

/**
 * A one-line summary of the verdict, e.g. `hop 1 found · hop 2 missing (1954)`; an open question's by its claims
 * (`2 claims: 1 contradicted — followed a corrupted context edge, 1 supported`); "not run yet" only without an answer.
 */
export function hopSummary(graph: QuestionGraph): string {
    // No verdict (the question was never run): no answer to mark right or wrong (issue 36 item 6: not a red ✗).
    if (!graph.model) return 'not run yet';
    if (graph.claims?.length) {
        const bad = graph.claims.filter(
            c => c.data === 'contradicted' || c.cause === 'followed-corrupted' || c.cause === 'invented',
        );
        const counts = new Map<string, number>();
        for (const c of graph.claims) counts.set(c.data, (counts.get(c.data) ?? 0) + 1);
        const n = graph.claims.length;
        return `${n} claim${n === 1 ? '' : 's'}: ${[...counts].map(([k, v]) => `${v} ${k}`).join(', ')}${bad[0] ? ` — "${bad[0].text}" ${claimSummary(bad[0]).slice(bad[0].text.length + 3)}` : ''}`;
    }
    if (graph.hops.length === 0)
        return graph.answer ? `answered ${graph.answer}${graph.correct ? ' ✓' : ' ✗'} (no hops to check)` : 'not run yet';
    return graph.hops
        .map(h => {
            const bad = h.keywords.filter(k => k.status !== 'found').map(k => k.value);
            return `hop ${h.hop} ${h.status}${bad.length ? ` (${bad.join(', ')})` : ''}`;
        })
        .join(' · ');
}

/** The header's verdict line and how it is coloured: `unrun` (neutral) for a question never run, never `wrong`. */
export function verdictLine(graph: QuestionGraph): { text: string; tone: 'correct' | 'wrong' | 'unrun' } {
    if (!graph.model) return { text: `not run yet · gold ${graph.gold}`, tone: 'unrun' };
    return { text: `${graph.model} · answer ${graph.answer} · gold ${graph.gold}`, tone: graph.correct ? 'correct' : 'wrong' };
}

export interface Placed {
    id: string;
    label: string;
    x: number;
    y: number;
    w: number;
    h: number;
    colour: string;
    border: string;
}
export interface PlacedEdge {
    source: string;
    target: string;
    label: string;
    colour: string;
}

const xml = (s: string) =>
    s.replace(/[<>&"']/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A standalone SVG of the drawn graph (cytoscape exports only PNG); every label is XML-escaped. */
export function toSvg(nodes: readonly Placed[], edges: readonly PlacedEdge[], background: string, text: string): string {
    if (nodes.length === 0) return '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
    const pad = 40;
    const minX = Math.min(...nodes.map(n => n.x - n.w / 2)) - pad,
        minY = Math.min(...nodes.map(n => n.y - n.h / 2)) - pad;
    const maxX = Math.max(...nodes.map(n => n.x + n.w / 2)) + pad,
        maxY = Math.max(...nodes.map(n => n.y + n.h / 2)) + pad;
    const at = new Map(nodes.map(n => [n.id, n]));
    const parts = [
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${minX} ${minY} ${maxX - minX} ${maxY - minY}" width="${Math.round(maxX - minX)}" height="${Math.round(maxY - minY)}" font-family="sans-serif" font-size="12">`,
        `<rect x="${minX}" y="${minY}" width="${maxX - minX}" height="${maxY - minY}" fill="${xml(background)}"/>`,
    ];
    for (const e of edges) {
        const a = at.get(e.source),
            b = at.get(e.target);
        if (!a || !b) continue;
        parts.push(`<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" stroke="${xml(e.colour)}" stroke-width="2"/>`);
        if (e.label)
            parts.push(
                `<text x="${(a.x + b.x) / 2}" y="${(a.y + b.y) / 2 - 4}" fill="${xml(text)}" text-anchor="middle">${xml(e.label)}</text>`,
            );
    }
    for (const n of nodes) {
        parts.push(
            `<rect x="${n.x - n.w / 2}" y="${n.y - n.h / 2}" width="${n.w}" height="${n.h}" rx="6" fill="${xml(n.colour)}" stroke="${xml(n.border)}" stroke-width="2"/>`,
        );
        n.label.split('\n').forEach((line, i, all) => {
            parts.push(
                `<text x="${n.x}" y="${n.y + (i - (all.length - 1) / 2) * 14 + 4}" fill="${xml(text)}" text-anchor="middle">${xml(line)}</text>`,
            );
        });
    }
    parts.push('</svg>');
    return parts.join('\n');
}

/** The smallest text the graph draws (edge labels), in CSS px at zoom 1. */
export const SMALLEST_FONT_PX = 11;
/** No label is drawn smaller than this (11 px) on screen: below it a fitted graph is zoomed in and panned instead. */
const MIN_LABEL_PX = 11;

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

export interface Box {
    x1: number;
    y1: number;
    x2: number;
    y2: number;
}

/** Whether two boxes lie over each other by more than a pixel. */
export const boxesHit = (a: Box, b: Box) => a.x1 < b.x2 - 1 && b.x1 < a.x2 - 1 && a.y1 < b.y2 - 1 && b.y1 < a.y2 - 1;

/** How many edge labels lie over another edge label or over a node (boxes in the same coordinates). */
export function overlaps(labels: readonly Box[], nodes: readonly Box[]): number {
    let n = 0;
    labels.forEach((l, i) => {
        if (labels.some((m, j) => j !== i && boxesHit(l, m)) || nodes.some(b => boxesHit(l, b))) n++;
    });
    return n;
}

/** Where along its edge a label may go: mid-edge or by one end, moved off the line by `shift` label heights. */
export interface LabelPlace {
    end: 'source' | 'target' | undefined;
    shift: -1 | 0 | 1;
}

/**
 * The places to try for a label drawn over something, its present place first (kept unless another is clear of more):
 * mid-edge and by either end, each on the line, above and below it.
 */
export function labelPlaces(now: LabelPlace): LabelPlace[] {
    const out: LabelPlace[] = [now];
    for (const shift of [0, -1, 1] as const)
        for (const end of [undefined, 'source', 'target'] as const) {
            if (end !== now.end || shift !== now.shift) out.push({ end, shift });
        }
    return out;
}

/** A layout as the panel judges it: the zoom that fits it whole, and its edge labels drawn over something. */
export interface LayoutScore {
    zoom: number;
    overlaps: number;
}

/** Whether layout `a` is better than `b`: readable when fitted first, then fewer overlapping labels, then larger. */
export function better(a: LayoutScore, b: LayoutScore, smallestFont = SMALLEST_FONT_PX, minPx = MIN_LABEL_PX): boolean {
    const readable = (s: LayoutScore) => s.zoom * smallestFont >= minPx;
    if (readable(a) !== readable(b)) return readable(a);
    if (a.overlaps !== b.overlaps) return a.overlaps < b.overlaps;
    return a.zoom > b.zoom;
}

/**
 * Where an edge's label goes: by its target when its source fans out to several edges (the targets are apart,
 * the source's edges close together), by its source when several edges fan into its target, else mid-edge.
 */
export function labelEnd(sourceOut: number, targetIn: number): 'source' | 'target' | undefined {
    if (targetIn > 1 && targetIn >= sourceOut) return 'source';
    if (sourceOut > 1) return 'target';
    return undefined;
}
