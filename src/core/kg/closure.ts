/**
 * FD closure through FK joins (Armstrong's axioms). Within a relation, every declared FD and every key
 * (a key determines all attributes) applies by transitivity and augmentation; an FK `R.a -> S.b` whose
 * `a` is determined makes `S.b` determined (the joined row is unique because `b` is S's key), and from
 * there the closure continues inside S. So `Movie: title, year -> director` closes over
 * `fk Movie.director -> Director.name` to `Director.birth_year`.
 */
import { findFd, type AttributeRef, type SpecModel } from '../spec/model.js';

const refKey = (r: AttributeRef) => `${r.relation}.${r.attribute}`;

/** One derivation step: which FD, key or FK put an attribute into the closure. */
export interface ClosureStep {
    attribute: AttributeRef;
    /** 'fd' (a declared FD id), 'key' (a key of the relation) or 'fk' (an FK id). */
    via: { kind: 'fd' | 'key' | 'fk'; id: string };
}

/**
 * Every attribute determined by the left-hand side of the FD `fdId`, in derivation order, without the
 * left-hand side itself. Empty when the FD does not exist. Unresolved names are kept as written.
 */
export function fdClosure(spec: SpecModel, fdId: string): AttributeRef[] {
    return fdClosureSteps(spec, fdId).map(s => s.attribute);
}

export function fdClosureSteps(spec: SpecModel, fdId: string): ClosureStep[] {
    const fd = findFd(spec, fdId);
    if (!fd) return [];
    return attributeClosure(
        spec,
        fd.lhs.map(attribute => ({ relation: fd.relation, attribute })),
    );
}

/** The closure of a set of attributes (possibly of several relations), without the set itself. */
function attributeClosure(spec: SpecModel, start: AttributeRef[]): ClosureStep[] {
    const known = new Set(start.map(refKey));
    const steps: ClosureStep[] = [];
    const add = (attribute: AttributeRef, via: ClosureStep['via']): boolean => {
        const k = refKey(attribute);
        if (known.has(k)) return false;
        known.add(k);
        steps.push({ attribute, via });
        return true;
    };
    const has = (relation: string, attrs: string[]) => attrs.length > 0 && attrs.every(a => known.has(`${relation}.${a}`));
    // Fixpoint: each round applies every rule once; at most one round per attribute of the spec.
    for (let changed = true; changed;) {
        changed = false;
        for (const fd of spec.fds) {
            if (!has(fd.relation, fd.lhs)) continue;
            for (const a of fd.rhs) changed = add({ relation: fd.relation, attribute: a }, { kind: 'fd', id: fd.id }) || changed;
        }
        for (const rel of spec.relations) {
            for (const key of rel.keys) {
                if (!has(rel.name, key)) continue;
                for (const a of rel.attributes)
                    changed =
                        add({ relation: rel.name, attribute: a.name }, { kind: 'key', id: `${rel.name}(${key.join(', ')})` }) ||
                        changed;
            }
        }
        for (const fk of spec.fks) {
            if (!has(fk.from.relation, fk.from.attributes)) continue;
            for (const a of fk.to.attributes)
                changed = add({ relation: fk.to.relation, attribute: a }, { kind: 'fk', id: fk.id }) || changed;
        }
    }
    return steps;
}
