/**
 * Which derived facts a rule probe may ask about: a fact is asked only when its proof holds under the data as a
 * reader takes it — no premise read from a row that breaks a declared FD (the FD a negation rests on fails
 * there, as statement probes skip such rows), and no FD negation whose denied value is the witness's value
 * written another way under the spec's aliases ("X does not play for Barcelona" while X plays for "FC Barcelona").
 */
import type { LoadedData } from '../data/types.js';
import type { SpecModel } from '../spec/model.js';
import { violatingRows } from '../probes/rows.js';
import { sameUnderAliases } from '../probes/golds.js';
import type { Program, Proof, Term, Value } from './ir.js';
import { entityKey } from './facts.js';
import { attributePredicate, fkPredicate } from './translate.js';

/**
 * Base facts read from rows that break a declared FD (`fd R: x -> a` with two rows of one x and different a):
 * the `R.a` facts and the fk edges through `a` of those rows. A rule probe asks nothing whose proof rests on one,
 * as statement probes skip such rows: the FD that makes a negation sound does not hold there.
 * Undefined when every FD holds.
 */
function violatedFacts(spec: SpecModel, data: LoadedData): Set<string> | undefined {
    const out = new Set<string>();
    for (const fd of spec.fds) {
        const relation = spec.relations.find(r => r.name === fd.relation);
        const table = data.tables.get(fd.relation);
        if (!relation || !table) continue;
        const flags = violatingRows(table, fd.lhs, fd.rhs);
        if (!flags) continue;
        const preds = [
            ...fd.rhs.map(a => attributePredicate(relation.name, a)),
            ...spec.fks
                .filter(fk => fk.from.relation === relation.name && fk.from.attributes.some(a => fd.rhs.includes(a)))
                .map(fkPredicate),
        ];
        for (let row = 0; row < table.rowCount; row++) {
            if (!flags[row]) continue;
            const key = entityKey(relation, table, row);
            for (const pred of preds) out.add(`${pred}\u0000${key}`);
        }
    }
    return out.size ? out : undefined;
}

/** Does a proof rest on a base fact of `violatedFacts`? */
function restsOnViolation(proof: Proof, violated: Set<string> | undefined): boolean {
    if (!violated) return false;
    const walk = (p: Proof): boolean =>
        p.kind === 'base' ? violated.has(`${p.fact.pred}\u0000${String(p.fact.args[0])}`) : p.premises.some(walk);
    return walk(proof);
}

/** The relation and attribute whose value a base or named-fk predicate's second argument is. */
export function valueAttribute(spec: SpecModel, pred: string): { relation: string; attribute: string } | undefined {
    const fk = spec.fks.find(f => f.name === pred || fkPredicate(f) === pred);
    if (fk) return { relation: fk.from.relation, attribute: fk.from.attributes[0]! };
    const dot = pred.indexOf('.');
    return dot > 0 && !pred.startsWith('fk:') ? { relation: pred.slice(0, dot), attribute: pred.slice(dot + 1) } : undefined;
}

/** Does an FD negation in the proof deny a value that is an alias of its witness's value? */
function deniesAnAlias(spec: SpecModel, data: LoadedData, program: Program, proof: Proof): boolean {
    if (proof.kind === 'base') return false;
    const rule = program.rules[proof.clause];
    let p = 0;
    for (const l of rule?.body ?? []) {
        if (l.kind === 'atom') {
            p++;
            continue;
        }
        if (l.kind !== 'not' || l.sound !== 'fd') continue;
        const witness = proof.premises[p++]?.fact;
        const at = valueAttribute(spec, l.atom.pred);
        const value = (t: Term | undefined): Value | undefined =>
            t === undefined ? undefined : 'const' in t ? t.const : proof.bindings[t.var];
        const denied = value(l.atom.args[1]);
        if (
            witness &&
            at &&
            denied !== undefined &&
            sameUnderAliases(spec, data, at.relation, at.attribute, witness.args[1]!, denied)
        )
            return true;
    }
    return proof.premises.some(q => deniesAnAlias(spec, data, program, q));
}

/** The test a rule probe applies to each derived fact's proof before asking about it. */
export function soundProof(spec: SpecModel, data: LoadedData, program: Program): (proof: Proof) => boolean {
    const violated = violatedFacts(spec, data);
    const aliased = spec.aliases.length > 0;
    return proof => !restsOnViolation(proof, violated) && !(aliased && deniesAnAlias(spec, data, program, proof));
}
