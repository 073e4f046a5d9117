/**
 * The spec's rules and relationship properties as a Datalog program (ir.ts), with every problem located in the
 * spec and saying what to do. Evaluation is `evaluate.ts`'s business; this file only decides what the program is.
 *
 * Predicates:
 *   `R.a(key, value)`         base: the attribute a of the R row with that key (a list gives one fact per item)
 *   `fk:From.a->To.b(k1, k2)` base: an fk edge (fkPredicate)
 *   `NAME(…)`                 derived: a rule, a named fk (`plays_for(x, y) :- fk:…(x, y)`) or an inverse
 * A term `a.director` reads an attribute: it adds `Movie.director(a, a.director)` and stands for the value;
 * `x = y` unifies (so joins are hash joins, not filtered cross products). Properties become clauses:
 * symmetric `r(b, a) :- r(a, b)`, transitive `r(a, c) :- r(a, b), r(b, c)`, inverse `inv(b, a) :- r(a, b)`.
 */
import type { EdgeProperties, FkDecl, RelationDecl, RuleDecl, SpecLocation, SpecModel } from '../spec/model.js';
import type { Literal, PredicateDecl, Program, Rule, Term } from './ir.js';
import { didYouMean } from '../language/validation/suggest.js';
import { checkRecursion } from './recursion.js';
import { attributePredicate, Clause, loc0, type ClauseContext, type PredicateInfo } from './clause.js';

export type { PredicateInfo } from './clause.js';
import type { Problem } from '../errors.js';

/** A located problem with the rules: the message says what is wrong and what to do. */

export interface Translation {
    program: Program;
    predicates: Map<string, PredicateInfo>;
    problems: Problem[];
}

export { attributePredicate };

export function fkPredicate(fk: Pick<FkDecl, 'from' | 'to'>): string {
    const side = (t: FkDecl['from']) =>
        t.attributes.length === 1 ? `${t.relation}.${t.attributes[0]}` : `${t.relation}(${t.attributes.join(',')})`;
    return `fk:${side(fk.from)}->${side(fk.to)}`;
}

/** Translates every rule and property of the spec. */
export function translateRules(spec: SpecModel): Translation {
    const t = new Translator(spec);
    t.declareBase();
    t.declareDerived();
    t.translateFks();
    for (const rule of spec.rules ?? []) t.translateRule(rule);
    t.finish();
    return { program: t.program, predicates: t.predicates, problems: t.problems };
}

class Translator implements ClauseContext {
    readonly program: Program = { base: [], rules: [], caps: {} };
    readonly predicates = new Map<string, PredicateInfo>();
    readonly problems: Problem[] = [];
    private readonly relations = new Map<string, RelationDecl>();
    private readonly caps = new Map<string, SpecLocation | undefined>();
    /** Clauses that may recurse without growing past a bound (symmetric closure adds at most one reverse per fact). */
    private readonly bounded = new Set<Rule>();

    constructor(private readonly spec: SpecModel) {
        for (const r of spec.relations) this.relations.set(r.name, r);
    }

    private problem(loc: SpecLocation, code: string, message: string): void {
        this.problems.push({ severity: 'error', code, message, location: loc });
    }

    /**
     * Does a declared FD give `attribute` one value per entity of `relation`? A key alone does not: with
     * key (name, club) a player's club is part of what names the row, and "X (A) does not play for B" would read
     * as a claim about X, who may play for B too. Rows that break the FD are skipped by rule probes (family.ts).
     */
    private determined(relation: RelationDecl, attribute: string): boolean {
        return this.spec.fds.some(
            fd => fd.relation === relation.name && fd.rhs.includes(attribute) && !fd.lhs.includes(attribute),
        );
    }

    declareBase(): void {
        for (const r of this.spec.relations) {
            const keyed = r.keys.length > 0;
            for (const a of r.attributes) {
                const name = attributePredicate(r.name, a.name);
                const decl: PredicateDecl = { name, arity: 2 };
                if (r.complete) decl.complete = true;
                if (keyed && !a.type.list && this.determined(r, a.name)) decl.functional = true;
                this.program.base.push(decl);
                this.predicates.set(name, {
                    name,
                    kind: 'attribute',
                    params: [
                        { name: 'key', type: r.name },
                        { name: a.name, type: '' },
                    ],
                });
            }
        }
        for (const fk of this.spec.fks) {
            const name = fkPredicate(fk);
            if (this.predicates.has(name)) continue;
            const from = this.relations.get(fk.from.relation);
            const listValued = fk.from.attributes.some(a => from?.attributes.find(x => x.name === a)?.type.list);
            const decl: PredicateDecl = { name, arity: 2 };
            if (from?.complete) decl.complete = true;
            if (from && from.keys.length > 0 && !listValued && fk.from.attributes.every(a => this.determined(from, a)))
                decl.functional = true;
            this.program.base.push(decl);
            this.predicates.set(name, {
                name,
                kind: 'fk',
                params: [
                    { name: 'subject', type: fk.from.relation },
                    { name: 'object', type: fk.to.relation },
                ],
            });
        }
    }

    /** Names first, so that rules may use each other in any order. */
    declareDerived(): void {
        const taken = (name: string, loc: SpecLocation) => {
            const other = this.predicates.get(name);
            if (!other) return false;
            this.problem(
                loc,
                'rule-name',
                `'${name}' already names ${other.kind === 'inverse' ? 'an inverse' : other.kind === 'fk' ? 'an fk' : 'a rule'}; a rule, a named fk and an inverse each need a name of their own.`,
            );
            return true;
        };
        for (const fk of this.spec.fks) {
            if (!fk.name || taken(fk.name, fk.loc)) continue;
            this.predicates.set(fk.name, {
                name: fk.name,
                kind: 'fk',
                params: [
                    { name: 'subject', type: fk.from.relation },
                    { name: 'object', type: fk.to.relation },
                ],
                ...this.edgeInfo(fk.properties, fk.loc),
            });
        }
        const seen = new Map<string, RuleDecl>();
        for (const rule of this.spec.rules ?? []) {
            const first = seen.get(rule.name);
            if (first) {
                const same =
                    first.params.length === rule.params.length && first.params.every((p, i) => p.type === rule.params[i]!.type);
                if (!same)
                    this.problem(
                        rule.loc,
                        'rule-arity',
                        `Rule ${rule.name} is already declared with (${first.params.map(p => `${p.name}: ${p.type}`).join(', ')}); every clause of a rule takes the same parameters. Rename this one or give it the same parameters.`,
                    );
                continue;
            }
            if (taken(rule.name, rule.loc)) continue;
            seen.set(rule.name, rule);
            this.predicates.set(rule.name, {
                name: rule.name,
                kind: 'rule',
                params: rule.params.map(p => ({ name: p.name, type: p.type })),
                ...this.edgeInfo(rule.properties, rule.loc),
            });
        }
        for (const info of [...this.predicates.values()]) {
            const inv = info.inverse;
            if (!inv || info.kind === 'attribute') continue;
            const props = this.propertiesOf(info.name)!;
            if (taken(inv, props.inverse!.loc)) {
                delete info.inverse;
                continue;
            }
            const params = [...info.params].reverse();
            const entry: PredicateInfo = { name: inv, kind: 'inverse', params, inverseOf: info.name, loc: props.inverse!.loc };
            if (props.inverse!.text !== undefined) entry.phrase = props.inverse!.text;
            this.predicates.set(inv, entry);
        }
    }

    private edgeInfo(p: EdgeProperties | undefined, loc: SpecLocation): Partial<PredicateInfo> {
        const out: Partial<PredicateInfo> = { loc };
        if (p?.phrase) out.phrase = p.phrase.text;
        if (p?.symmetric) out.symmetric = true;
        if (p?.inverse) out.inverse = p.inverse.name;
        return out;
    }

    private propertiesOf(name: string): EdgeProperties | undefined {
        const fk = this.spec.fks.find(f => f.name === name);
        if (fk) return fk.properties;
        const rules = (this.spec.rules ?? []).filter(r => r.name === name);
        if (rules.length === 0) return undefined;
        // Properties may be written on any clause of the rule.
        return Object.assign({}, ...rules.map(r => r.properties)) as EdgeProperties;
    }

    translateFks(): void {
        for (const fk of this.spec.fks) {
            if (!fk.name || this.predicates.get(fk.name)?.kind !== 'fk') continue;
            const x = { var: 'subject' },
                y = { var: 'object' };
            this.add({
                name: fk.name,
                head: { pred: fk.name, args: [x, y] },
                body: [{ kind: 'atom', atom: { pred: fkPredicate(fk), args: [x, y] } }],
                loc: loc0(fk.loc),
            });
            this.properties(fk.name, fk.properties, [fk.from.relation, fk.to.relation]);
        }
    }

    private add(rule: Rule): Rule {
        this.program.rules.push(rule);
        return rule;
    }

    /** The clauses a predicate's properties stand for, and its cap. */
    private properties(name: string, p: EdgeProperties | undefined, types: string[]): void {
        if (!p) return;
        const a = { var: 'a' },
            b = { var: 'b' },
            c = { var: 'c' };
        const atom = (pred: string, ...args: Term[]): Literal => ({ kind: 'atom', atom: { pred, args } });
        const sameType = types.length === 2 && types[0] === types[1];
        if (p.symmetric) {
            if (!sameType)
                this.problem(
                    p.symmetric,
                    'rule-property',
                    `symmetric needs both ends of the same relation (here ${types.join(' and ')}): r(a, b) gives r(b, a), so b must be able to stand where a does. Remove it, or use 'inverse NAME' for a relation read backwards.`,
                );
            else
                this.bounded.add(
                    this.add({ name, head: { pred: name, args: [b, a] }, body: [atom(name, a, b)], loc: loc0(p.symmetric) }),
                );
        }
        if (p.transitive) {
            if (!sameType)
                this.problem(
                    p.transitive,
                    'rule-property',
                    `transitive needs both ends of the same relation (here ${types.join(' and ')}): r(a, b) and r(b, c) give r(a, c), so b must be both. Remove it.`,
                );
            else
                this.add({
                    name,
                    head: { pred: name, args: [a, c] },
                    body: [atom(name, a, b), atom(name, b, c)],
                    loc: loc0(p.transitive),
                });
        }
        if (p.inverse && this.predicates.get(p.inverse.name)?.inverseOf === name) {
            this.add({
                name: p.inverse.name,
                head: { pred: p.inverse.name, args: [b, a] },
                body: [atom(name, a, b)],
                loc: loc0(p.inverse.loc),
            });
        }
        if (p.cap && p.sample)
            this.problem(
                p.sample.loc,
                'rule-cap',
                `${name} has both a cap and a sample: each bounds the facts it keeps. Keep one: 'sample N' for a seeded random sample of N facts, 'cap N' for a bound the rule is cut at.`,
            );
        else if (p.cap) {
            if (!Number.isInteger(p.cap.value) || p.cap.value < 1)
                this.problem(
                    p.cap.loc,
                    'rule-cap',
                    `cap is the most facts the rule may derive: a whole number of at least 1, e.g. cap 10000.`,
                );
            else this.program.caps![name] = p.cap.value;
        } else if (p.sample) {
            if (!Number.isInteger(p.sample.value) || p.sample.value < 1)
                this.problem(
                    p.sample.loc,
                    'rule-cap',
                    `sample is how many of the rule's facts to keep (a seeded random sample): a whole number of at least 1, e.g. sample 5000.`,
                );
            else {
                this.program.caps![name] = p.sample.value;
                (this.program.sampled ??= []).push(name);
            }
        }
        this.caps.set(name, p.cap?.loc ?? p.sample?.loc ?? this.caps.get(name));
        if (p.phrase)
            this.checkPhrase(
                p.phrase.text,
                p.phrase.loc,
                types.length === 2 && this.spec.fks.some(f => f.name === name)
                    ? ['subject', 'object']
                    : (this.predicates.get(name)?.params.map(x => x.name) ?? []),
            );
        if (p.inverse?.text !== undefined)
            this.checkPhrase(
                p.inverse.text,
                p.inverse.loc,
                this.spec.fks.some(f => f.name === name)
                    ? ['subject', 'object']
                    : (this.predicates.get(name)?.params.map(x => x.name) ?? []),
            );
    }

    private checkPhrase(text: string, loc: SpecLocation, names: string[]): void {
        for (const m of text.matchAll(/\{([^}]*)\}/g)) {
            const n = m[1]!.trim();
            if (!names.includes(n))
                this.problem(
                    loc,
                    'rule-phrase',
                    `The phrase names {${n}}, which is not one of its arguments (${names.map(x => `{${x}}`).join(', ')}).${didYouMean(n, names)}`,
                );
        }
    }

    translateRule(rule: RuleDecl): void {
        const info = this.predicates.get(rule.name);
        if (!info || info.kind !== 'rule') return;
        const clause = new Clause(this, rule);
        const built = clause.build();
        if (built) this.add(built);
        // Properties once per rule (on whichever clause carries them).
        const first = (this.spec.rules ?? []).find(r => r.name === rule.name);
        if (first === rule)
            this.properties(
                rule.name,
                this.propertiesOf(rule.name),
                rule.params.map(p => p.type),
            );
    }

    finish(): void {
        for (const p of checkRecursion(this.program, this.bounded)) {
            const rule = p.rule;
            const at = this.predicates.get(rule.name)?.loc ?? {
                file: rule.loc?.file ?? '',
                range: {
                    start: { line: rule.loc?.line ?? 0, character: rule.loc?.character ?? 0 },
                    end: { line: rule.loc?.line ?? 0, character: (rule.loc?.character ?? 0) + 4 },
                },
            };
            if (p.kind === 'negation')
                this.problem(
                    at,
                    'rule-negation-cycle',
                    `${rule.name} depends on itself through 'not' (${p.cycle.join(' → ')}): its facts would decide their own absence, which has no single answer. Rewrite the rules so that no rule negates something derived from itself.`,
                );
            else if (this.program.caps![rule.name] === undefined) {
                this.problem(
                    at,
                    'rule-unbounded',
                    `${rule.name} is recursive (${p.cycle.join(' → ')}) and has no cap, so it may derive without bound on large data. Add 'cap N' (the most facts it may derive), e.g. 'cap 10000', or 'sample N' (a seeded random sample of N facts).`,
                );
            }
        }
    }

    // ------------------------------------------------------------------ for clauses
    relation(name: string): RelationDecl | undefined {
        return this.relations.get(name);
    }
    relationNames(): string[] {
        return [...this.relations.keys()];
    }
    predicate(name: string): PredicateInfo | undefined {
        return this.predicates.get(name);
    }
    derivedNames(): string[] {
        return [...this.predicates.values()].filter(p => p.kind !== 'attribute' && !p.name.startsWith('fk:')).map(p => p.name);
    }
    report(loc: SpecLocation, code: string, message: string): void {
        this.problem(loc, code, message);
    }

    /** Is `not pred(…)` sound, and why: an FD (functional fk) or a closed world (everything it rests on is complete)? */
    negationSoundness(pred: string): { sound: 'fd' | 'complete' } | { why: string } {
        const base = this.program.base.find(b => b.name === pred);
        if (base?.functional) return { sound: 'fd' };
        const fk = this.spec.fks.find(f => f.name === pred);
        const plainFk = fk && !fk.properties?.symmetric && !fk.properties?.transitive;
        if (plainFk && this.program.base.find(b => b.name === fkPredicate(fk))?.functional) return { sound: 'fd' };
        const open = this.openRelations(pred, new Set());
        if (open.length === 0) return { sound: 'complete' };
        const fd = this.missingFd(base ? pred : fk && plainFk ? fkPredicate(fk) : undefined);
        return {
            why: `${pred} rests on ${open.join(', ')}, which ${open.length > 1 ? 'are' : 'is'} not declared complete, so a fact missing from the data may still be true${fd ? `, and no declared FD gives ${fd.what} one value per ${fd.relation} (a key does not: it names the row). Declare the FD if it holds ('${fd.text}')` : ''}`,
        };
    }

    /** For a base attribute or fk predicate without an FD: the FD that would make negating it sound. */
    private missingFd(pred: string | undefined): { what: string; relation: string; text: string } | undefined {
        if (!pred) return undefined;
        const fk = pred.startsWith('fk:') ? this.spec.fks.find(f => fkPredicate(f) === pred) : undefined;
        const relation = this.relations.get(fk ? fk.from.relation : pred.split('.')[0]!);
        const attributes = fk ? fk.from.attributes : [pred.slice(pred.indexOf('.') + 1)];
        if (!relation || relation.keys.length === 0) return undefined;
        const key = relation.keys[0]!;
        const lhs = key.filter(k => !attributes.includes(k));
        return {
            what: attributes.map(a => `${relation.name}.${a}`).join(', '),
            relation: relation.name,
            text: `fd ${relation.name}: ${(lhs.length ? lhs : key).join(', ')} -> ${attributes.join(', ')}`,
        };
    }

    /** The relations a predicate's facts come from that are not declared complete. */
    private openRelations(pred: string, seen: Set<string>): string[] {
        if (seen.has(pred)) return [];
        seen.add(pred);
        const base = this.program.base.find(b => b.name === pred);
        if (base) {
            const relation = pred.startsWith('fk:') ? pred.slice(3).split(/[.(]/)[0]! : pred.split('.')[0]!;
            return base.complete ? [] : [relation];
        }
        const out = new Set<string>();
        for (const r of this.program.rules) {
            if (r.head.pred !== pred) continue;
            for (const l of r.body) if (l.kind !== 'compare') for (const x of this.openRelations(l.atom.pred, seen)) out.add(x);
        }
        return [...out];
    }
}
