/**
 * Rule questions over a relation whose key has several attributes (issue 38 item 4). A question names such a row
 * by its key ("the soccer player whose name is X and team is A") and a reader takes it for the entity, not the
 * row; three rule shapes then ask something other than what the data proves, and a probe on them is refused with
 * a located diagnostic that says what to write instead:
 * - a closed-world negation of an attribute that is part of the subject's key ("… whose team is A does not play
 *   for B", while X plays for B in another row);
 * - a shared-object join on an attribute of the key ("… whose team is A and … whose team is A share the same
 *   team?": the question states its answer);
 * - `a != b` over rows of such a relation (one player in two rows is paired with herself).
 */
import type { SpecModel } from '../../spec/model.js';
import type { Program, Term } from '../../rules/ir.js';
import type { PredicateInfo } from '../../rules/translate.js';
import { valueAttribute } from '../../rules/soundness.js';

/** Why a probe on `rule` is refused, or undefined when its questions read as the data proves them. */
export function compositeKeyRefusal(
    spec: SpecModel,
    program: Program,
    predicates: ReadonlyMap<string, PredicateInfo>,
    rule: string,
): string | undefined {
    const compositeKey = (relation: string | undefined) => {
        const key = spec.relations.find(r => r.name === relation)?.keys[0];
        return key && key.length > 1 ? key : undefined;
    };
    const keyText = (relation: string, key: readonly string[]) => `${relation}'s key (${key.join(', ')})`;
    /** The relation and attribute a predicate reads, when the attribute is part of its relation's composite key. */
    const inKey = (pred: string) => {
        const at = valueAttribute(spec, pred);
        const key = compositeKey(at?.relation);
        return at && key?.includes(at.attribute) ? { ...at, key } : undefined;
    };
    const name = (t: Term | undefined) => (t === undefined ? '_' : 'var' in t ? t.var : JSON.stringify(t.const));
    for (const clause of program.rules.filter(r => r.name === rule)) {
        // Each variable's relation, from the parameters of the atoms it appears in.
        const types = new Map<string, string>();
        for (const l of clause.body) {
            if (l.kind === 'compare') continue;
            const params = predicates.get(l.atom.pred)?.params ?? [];
            l.atom.args.forEach((a, i) => {
                if ('var' in a && params[i]?.type) types.set(a.var, params[i].type);
            });
        }
        const atoms = clause.body.flatMap(l => (l.kind === 'atom' ? [l.atom] : []));
        for (const [i, x] of atoms.entries()) {
            const at = inKey(x.pred);
            if (!at) continue;
            const y = atoms
                .slice(i + 1)
                .find(o => o.pred === x.pred && name(o.args[1]) === name(x.args[1]) && name(o.args[0]) !== name(x.args[0]));
            if (y) {
                return (
                    `rule ${rule} joins ${name(x.args[0])} and ${name(y.args[0])} on ${at.attribute}, which is part of ${keyText(at.relation, at.key)}: a question names each by its ${at.attribute}, so it states its own answer. ` +
                    `Ask about an attribute outside the key, or key ${at.relation} without ${at.attribute}.`
                );
            }
        }
        for (const l of clause.body) {
            if (l.kind === 'not' && l.sound === 'complete') {
                const at = inKey(l.atom.pred);
                if (at) {
                    return (
                        `'not ${l.atom.pred}(${l.atom.args.map(name).join(', ')})' in rule ${rule} denies ${at.attribute}, which is part of ${keyText(at.relation, at.key)}: ` +
                        `a question names ${name(l.atom.args[0])} by ${at.key.join(' and ')} and says it is not so, while the same ${at.key.filter(a => a !== at.attribute).join(' and ')} may have it in another row (the closed world reads rows; a reader reads the entity). ` +
                        `Declare the FD if it holds ('fd ${at.relation}: ${at.key.filter(a => a !== at.attribute).join(', ')} -> ${at.attribute}') to negate through it, or key ${at.relation} without ${at.attribute}.`
                    );
                }
            }
            if (l.kind === 'compare' && l.op === '!=' && 'var' in l.left && 'var' in l.right) {
                const relation = types.get(l.left.var);
                const key = compositeKey(relation);
                if (key && relation !== undefined && relation === types.get(l.right.var)) {
                    const [a, b] = [l.left.var, l.right.var];
                    return (
                        `'${a} != ${b}' in rule ${rule} compares rows of ${relation}, and ${keyText(relation, key)} has several attributes: one entity in two rows is paired with itself. ` +
                        `Compare the attribute that names the entity instead, e.g. '${a}.${key[0]} != ${b}.${key[0]}'.`
                    );
                }
            }
        }
    }
    return undefined;
}
