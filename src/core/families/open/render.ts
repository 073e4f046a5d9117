/**
 * The context as the model reads it, in the OKGQA prompt (METHODS §5): the question, then "Below are the
 * facts that might be relevant to answer the question:" and the facts, then "Answer:". Triplets and the
 * Steiner subgraph are written one `(head, relation, tail)` per line; paths as chains
 * `Avatar (2009) -> directed by -> James Cameron <- directed by <- Titanic (1997)`.
 */
import type { ContextEdge, ContextGraph } from './types.js';

export const FACTS_INTRO = 'Below are the facts that might be relevant to answer the question:';

/** An entity named by several key values reads "Avatar (2009)" rather than "Avatar, 2009" (its `display`). */
function shown(ctx: ContextGraph, id: string): string {
    const node = ctx.nodes.find(n => n.id === id);
    return node ? (node.display ?? node.label) : id;
}

export function renderTriplet(ctx: ContextGraph, e: ContextEdge): string {
    return `(${shown(ctx, e.head)}, ${e.label}, ${shown(ctx, e.tail)})`;
}

/**
 * A path as chains. A deleted edge (index -1) or an edge that no longer touches the chain (a rewired tail)
 * starts a new chain on the next line.
 */
function renderPath(ctx: ContextGraph, path: number[], start: string | undefined): string[] {
    const lines: string[] = [];
    let at = start;
    let text = '';
    for (const j of path) {
        const e = j >= 0 ? ctx.edges[j] : undefined;
        if (!e) {
            at = undefined;
            continue;
        }
        if (at === undefined || (e.head !== at && e.tail !== at)) {
            if (text) lines.push(text);
            at = e.head;
            text = shown(ctx, at);
        } else if (!text) text = shown(ctx, at);
        const forward = e.head === at;
        at = forward ? e.tail : e.head;
        text += forward ? ` -> ${e.label} -> ${shown(ctx, at)}` : ` <- ${e.label} <- ${shown(ctx, at)}`;
    }
    if (text) lines.push(text);
    return lines;
}

/** The facts block alone (also what `preview` shows as the context sent). */
export function renderContext(ctx: ContextGraph): string {
    if (ctx.form === 'paths' && ctx.paths) {
        const seeds = new Set(ctx.nodes.filter(n => n.seed).map(n => n.id));
        return ctx.paths
            .flatMap(p => {
                const first = p[0] !== undefined && p[0] >= 0 ? ctx.edges[p[0]] : undefined;
                return renderPath(ctx, p, first && seeds.has(first.tail) && !seeds.has(first.head) ? first.tail : first?.head);
            })
            .join('\n');
    }
    return ctx.edges.map(e => renderTriplet(ctx, e)).join('\n');
}

/** The prompt sent: with no context (the zero-context baseline) just the question and "Answer:". */
export function openPrompt(question: string, ctx?: ContextGraph): string {
    if (!ctx) return `${question}\nAnswer:`;
    return `${question}\n${FACTS_INTRO}\n${renderContext(ctx)}\nAnswer:`;
}
