/** A rule question's graph: its proof tree (the graph panel draws it, with the rationale's claims overlaid). */
import type { KgEdge, KgNode, KgPath } from '../../probes/question.js';
import type { Proof, Value } from '../../rules/ir.js';
import type { PredicateInfo } from '../../rules/translate.js';
import { display } from './questions.js';

/** The node of an entity or value in a proof graph: one per value, so a chain a → b → c is drawn as one path. */
const proofNodeId = (v: Value) => `node:${String(v)}`; // premisesOf (questions.ts) names the same ids

/**
 * The proof tree as a graph: each derived fact is a node linked to the facts it was derived from (edges labelled
 * with the rule); a base fact links its subject to its value. A base fact's nodes and edge are on the hop of its
 * premise (premise i is the question's keyword hop i + 1), so the verdict of that premise colours them.
 */
export function proofPath(proof: Proof, info?: PredicateInfo): KgPath {
    const nodes = new Map<string, KgNode>();
    const edges: KgEdge[] = [];
    const premiseHop = new Map<string, number>();
    const node = (n: KgNode) => {
        if (!nodes.has(n.id)) nodes.set(n.id, n);
        return n.id;
    };
    const walk = (p: Proof): string => {
        const f = p.fact;
        if (p.kind === 'base') {
            const key = `${f.pred}(${f.args.join(',')})`;
            if (!premiseHop.has(key)) premiseHop.set(key, premiseHop.size + 1);
            const hop = premiseHop.get(key)!;
            const relation = f.pred.replace(/^fk:/, '').split(/[.(]/)[0]!;
            const s = node({
                id: proofNodeId(f.args[0]!),
                kind: 'entity',
                label: display(f.args[0]!),
                hop,
                given: false,
                relation,
            });
            const o = node({ id: proofNodeId(f.args[1]!), kind: 'value', label: display(f.args[1]!), hop, given: false });
            edges.push({ from: s, to: o, label: f.pred, hop });
            return s;
        }
        const id = node({
            id: `fact:${f.pred}(${f.args.map(String).join(',')})`,
            kind: 'entity',
            label: `${f.pred}(${f.args.map(display).join(', ')})`,
            hop: 0,
            given: true,
            relation: info?.name ?? f.pred,
        });
        for (const q of p.premises) edges.push({ from: id, to: walk(q), label: p.rule, hop: 0 });
        return id;
    };
    walk(proof);
    return { nodes: [...nodes.values()], edges };
}
