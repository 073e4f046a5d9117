/**
 * The offline simulator's open answers (issue 17 step 6), for checks with known truth: it states each
 * context edge with probability `follows` ("Titanic (1997) directed by James Cameron."), and with
 * probability `invents` per edge adds a false fact of its own — the edge's tail swapped for another node of
 * the same type from the neighbourhood that the head is not linked to. Seeded, so a run is reproducible.
 */
import { hashSeed, pick, prng } from '../../probes/sampling.js';
import { renderTriplet } from './render.js';
import type { ContextGraph } from './types.js';

export interface SimulatedOpenOptions {
    follows: number;
    invents: number;
    seed: number;
    pool?: ContextGraph;
}

export function simulatedOpenAnswer(ctx: ContextGraph, options: SimulatedOpenOptions): string {
    const random = prng(hashSeed(ctx.edges.map(e => `${e.head}|${e.relation}|${e.tail}`).join('\n'), options.seed));
    const nodes = [...new Map([...ctx.nodes, ...(options.pool?.nodes ?? [])].map(n => [n.id, n])).values()];
    const sentence = (t: string) =>
        `${t
            .slice(1, -1)
            .split(', ')
            .join(' ')
            .replace(/\s+/g, ' ')
            .replace(/[.!?]+$/, '')}.`;
    const out: string[] = [];
    for (const e of ctx.edges) {
        if (random() < options.follows) out.push(sentence(renderTriplet(ctx, e)));
        if (random() >= options.invents) continue;
        const linked = new Set(ctx.edges.filter(f => f.head === e.head).map(f => f.tail));
        const type = nodes.find(n => n.id === e.tail)?.type;
        const others = nodes.filter(n => n.type === type && !linked.has(n.id) && n.id !== e.head);
        if (!others.length) continue;
        const wrong = others[pick(random, others.length)]!;
        out.push(sentence(renderTriplet({ ...ctx, nodes }, { ...e, tail: wrong.id })));
    }
    return out.join(' ');
}
