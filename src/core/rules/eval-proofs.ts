/**
 * The result of an evaluation (evaluate.ts) as the engine reads it: facts by predicate, membership, and the proof
 * of any fact rebuilt on demand from each fact's clause and premise rows.
 */
import type { Derivation, EvaluateStats, Fact, Program, Proof, Rule, Term, Value } from './ir.js';
import type { Interner, IntVec } from './interned.js';
import type { Relation } from './eval-relation.js';

/** What an evaluation leaves behind: its relations, values, premise pool and statistics. */
export interface EvaluatedState {
    program: Program;
    values: Interner;
    relations: Map<string, Relation>;
    byId: Relation[];
    poolRow: IntVec;
    stats: EvaluateStats;
}

export function derivationOf(s: EvaluatedState): Derivation {
    const cache = new Map<string, Fact[]>();
    const factAt = (rel: Relation, row: number): Fact => ({
        pred: rel.name,
        args: rel.row(row, new Array(rel.arity)).map(id => s.values.value(id)),
    });
    const rowOf = (fact: Fact): [Relation, number] | undefined => {
        const rel = s.relations.get(fact.pred);
        if (!rel || fact.args.length !== rel.arity) return undefined;
        const ids: number[] = [];
        for (const v of fact.args) {
            const id = s.values.lookup(v);
            if (id === undefined) return undefined;
            ids.push(id);
        }
        const row = rel.set.find(ids);
        return row < 0 ? undefined : [rel, row];
    };
    // Premise p of a clause is the p-th atom or FD negation of its body: its relation is that literal's.
    const premiseRels = new Map<number, Relation[]>();
    const premiseRelations = (clause: number): Relation[] => {
        let rels = premiseRels.get(clause);
        if (!rels) {
            rels = s.program.rules[clause]!.body.flatMap(l =>
                l.kind === 'atom' || (l.kind === 'not' && l.sound === 'fd') ? [s.relations.get(l.atom.pred)!] : [],
            );
            premiseRels.set(clause, rels);
        }
        return rels;
    };
    const proofAt = (rel: Relation, row: number, memo: Map<number, Proof>): Proof => {
        const memoKey = rel.id * 2 ** 32 + row;
        const known = memo.get(memoKey);
        if (known) return known;
        const fact = factAt(rel, row);
        const clause = rel.clause.at(row);
        let proof: Proof;
        if (clause < 0) proof = { kind: 'base', fact };
        else {
            const rule = s.program.rules[clause]!;
            const start = rel.premStart.at(row);
            const premises: Proof[] = premiseRelations(clause).map((r, p) => proofAt(r, s.poolRow.at(start + p), memo));
            proof = {
                kind: 'rule',
                fact,
                rule: rule.name,
                clause,
                premises,
                bindings: bindingsOf(
                    rule,
                    premises.map(q => q.fact),
                    fact,
                ),
            };
        }
        memo.set(memoKey, proof);
        return proof;
    };
    return {
        stats: s.stats,
        facts: pred => {
            let out = cache.get(pred);
            if (!out) {
                const rel = s.relations.get(pred);
                out = rel ? Array.from({ length: rel.count }, (_, i) => factAt(rel, i)) : [];
                cache.set(pred, out);
            }
            return out;
        },
        size: pred => s.relations.get(pred)?.count ?? 0,
        factAt: (pred, index) => {
            const rel = s.relations.get(pred);
            return rel && index >= 0 && index < rel.count ? factAt(rel, index) : undefined;
        },
        has: fact => rowOf(fact) !== undefined,
        proof: fact => {
            const at = rowOf(fact);
            return at ? proofAt(at[0], at[1], new Map()) : undefined;
        },
    };
}

/** The variable bindings of a clause application, read back from its premises (positive atoms) and its head. */
function bindingsOf(rule: Rule, premises: Fact[], head: Fact): Record<string, Value> {
    const out: Record<string, Value> = {};
    const bind = (args: Term[], values: readonly Value[]) =>
        args.forEach((t, i) => {
            if ('var' in t) out[t.var] = values[i]!;
        });
    let p = 0;
    for (const l of rule.body) {
        if (l.kind === 'atom') bind(l.atom.args, premises[p++]!.args);
        else if (l.kind === 'not' && l.sound === 'fd') p++;
    }
    bind(rule.head.args, head.args);
    return out;
}
