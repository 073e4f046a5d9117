/**
 * One rule clause of the spec as a Datalog clause: parameters and body variables with their types, attribute
 * reads (`a.director` adds `Movie.director(a, a.director)`), unification of `=` (so a join shares one variable),
 * typed atoms, sound negation, and the safety of every variable — each problem located where it is written.
 */
import type { RelationDecl, RuleDecl, RuleLiteralDecl, RuleTermDecl, SpecLocation } from '../spec/model.js';
import type { Atom, Literal, Rule, Term, Value } from './ir.js';
import { didYouMean } from '../language/validation/suggest.js';

/** The base predicate of an attribute: `R.a(key, value)`. */
export const attributePredicate = (relation: string, attribute: string) => `${relation}.${attribute}`;

export const loc0 = (l: SpecLocation) => ({ file: l.file, line: l.range.start.line, character: l.range.start.character });

/** What the rest of the engine needs to know about a predicate beyond the program (questions, claims). */
export interface PredicateInfo {
    name: string;
    kind: 'attribute' | 'fk' | 'rule' | 'inverse';
    /** Argument names and, for entity arguments, their relation ('' for a value). */
    params: { name: string; type: string }[];
    /** A phrase with `{param}` placeholders ("{p} and {q} play for the same club"). */
    phrase?: string;
    symmetric?: boolean;
    /** The inverse's predicate, and for an inverse the predicate it inverts. */
    inverse?: string;
    inverseOf?: string;
    loc?: SpecLocation;
}

/** What a clause asks of the whole translation. */
export interface ClauseContext {
    relation(name: string): RelationDecl | undefined;
    relationNames(): string[];
    predicate(name: string): PredicateInfo | undefined;
    derivedNames(): string[];
    report(loc: SpecLocation, code: string, message: string): void;
    negationSoundness(pred: string): { sound: 'fd' | 'complete' } | { why: string };
}

interface VarInfo {
    type: string;
    loc: SpecLocation;
}

/** One rule clause: variables, their types, attribute reads and unification. */
export class Clause {
    private readonly types = new Map<string, VarInfo>();
    /** Union-find over variable names (`=` between two variables), and variables fixed to a constant. */
    private readonly parent = new Map<string, string>();
    private readonly constant = new Map<string, Value>();
    private readonly reads = new Map<string, Atom>();
    private ok = true;

    constructor(
        private readonly t: ClauseContext,
        private readonly rule: RuleDecl,
    ) {}

    private fail(loc: SpecLocation, code: string, message: string): undefined {
        this.ok = false;
        this.t.report(loc, code, message);
        return undefined;
    }

    private find(v: string): string {
        let r = v;
        while (this.parent.has(r)) r = this.parent.get(r)!;
        return r;
    }

    build(): Rule | undefined {
        const { rule } = this;
        for (const p of rule.params) {
            if (this.types.has(p.name))
                this.fail(p.loc, 'rule-param', `Parameter '${p.name}' is named twice; give each parameter its own name.`);
            const rel = this.t.relation(p.type);
            if (rel && rel.keys.length === 0)
                this.fail(
                    p.loc,
                    'rule-param',
                    `${p.type} has no key, so its rows cannot be told apart as ${p.name}. Declare 'key (…)' in relation ${p.type}.`,
                );
            this.types.set(p.name, { type: p.type, loc: p.loc });
        }
        // Atoms first: they give body variables their types.
        const ordered = [...rule.body].sort((a, b) => rank(a) - rank(b));
        const body: Literal[] = [];
        for (const lit of ordered) {
            const l = this.literal(lit);
            if (l) body.push(l);
        }
        if (!this.ok) return undefined;
        const head: Atom = { pred: rule.name, args: rule.params.map(p => this.term({ kind: 'var', name: p.name, loc: p.loc })) };
        // Attribute reads become atoms; equalities were unified into them.
        const resolved = (a: Atom): Atom => ({ pred: a.pred, args: a.args.map(x => this.resolve(x)) });
        const out: Literal[] = [
            ...[...this.reads.values()].map(a => ({ kind: 'atom' as const, atom: resolved(a) })),
            ...body.map(l => mapLiteral(l, resolved, x => this.resolve(x))),
        ];
        const bound = new Set<string>();
        for (const l of out) if (l.kind === 'atom') for (const a of l.atom.args) if ('var' in a) bound.add(a.var);
        for (const [i, p] of rule.params.entries()) {
            const arg = head.args[i]!;
            const h = this.resolve(arg);
            if ('var' in h && !bound.has(h.var)) {
                this.fail(
                    p.loc,
                    'rule-unsafe',
                    `Head variable '${p.name}' is not bound by the body: nothing says which ${p.type} rows it ranges over. Use it in an atom or read one of its attributes, e.g. '${p.name}.${this.t.relation(p.type)?.attributes[0]?.name ?? 'name'} = …'.`,
                );
            }
        }
        for (const l of out) {
            const vars = l.kind === 'compare' ? [l.left, l.right] : l.kind === 'not' ? l.atom.args : [];
            for (const v of vars)
                if ('var' in v && !bound.has(v.var)) {
                    const lit = rule.body.find(b => b.kind !== 'atom') ?? rule.body[0]!;
                    this.fail(
                        lit.loc,
                        'rule-unsafe',
                        `'${v.var}' in a comparison or 'not' is not bound by any positive atom of the rule, so it could be anything. Bind it first with an atom or an attribute read.`,
                    );
                }
        }
        if (!this.ok) return undefined;
        return { name: rule.name, head: resolved(head), body: out, loc: loc0(rule.loc) };
    }

    private resolve(term: Term): Term {
        if (!('var' in term)) return term;
        const root = this.find(term.var);
        const c = this.constant.get(root);
        return c !== undefined ? { const: c } : { var: root };
    }

    /** The type of a term: a relation (entity), a scalar ('text', 'int', …) or undefined when unknown. */
    private typeOf(term: RuleTermDecl): string | undefined {
        if (term.kind === 'const') return typeof term.value === 'number' ? 'number' : 'text';
        const v = this.types.get(term.name);
        if (!v) return undefined;
        if (term.attribute === undefined) return v.type;
        const rel = this.t.relation(v.type);
        const a = rel?.attributes.find(x => x.name === term.attribute);
        return a ? (a.type.scalar === 'int' || a.type.scalar === 'real' ? 'number' : a.type.scalar) : undefined;
    }

    private term(term: RuleTermDecl): Term {
        if (term.kind === 'const') return { const: term.value };
        if (term.attribute === undefined) return { var: term.name };
        const v = this.types.get(term.name);
        if (!v) {
            this.fail(
                term.loc,
                'rule-untyped',
                `'${term.name}' has no type here, so '${term.name}.${term.attribute}' cannot be read. Make it a parameter ('${term.name}: Relation') or use it in an atom first.`,
            );
            return { var: term.name };
        }
        const rel = this.t.relation(v.type);
        if (!rel) return { var: term.name };
        const attr = rel.attributes.find(a => a.name === term.attribute);
        if (!attr) {
            this.fail(
                term.loc,
                'rule-unknown-attribute',
                `Relation ${rel.name} has no attribute '${term.attribute}'.${didYouMean(
                    term.attribute,
                    rel.attributes.map(a => a.name),
                )}`,
            );
            return { var: term.name };
        }
        const name = `${term.name}.${term.attribute}`;
        if (!this.reads.has(name))
            this.reads.set(name, { pred: attributePredicate(rel.name, attr.name), args: [{ var: term.name }, { var: name }] });
        return { var: name };
    }

    private literal(lit: RuleLiteralDecl): Literal | undefined {
        if (lit.kind === 'compare') return this.compare(lit);
        const info = this.t.predicate(lit.pred);
        const entity = this.t.relation(lit.pred);
        if (
            !info &&
            entity &&
            lit.kind === 'atom' &&
            lit.args.length === 1 &&
            lit.args[0]!.kind === 'var' &&
            entity.keys[0]?.length
        ) {
            // `Club(k)`: k ranges over the Club rows (typed, and bound by reading its first key attribute).
            const arg = lit.args[0]!;
            const known = this.types.get(arg.name);
            if (known && known.type !== entity.name)
                return this.fail(
                    arg.loc,
                    'rule-type',
                    `'${arg.name}' is a ${known.type} here, so it cannot also be a ${entity.name}.`,
                );
            this.types.set(arg.name, { type: entity.name, loc: arg.loc });
            this.term({ kind: 'var', name: arg.name, attribute: entity.keys[0][0]!, loc: arg.loc });
            return undefined;
        }
        if (!info || info.kind === 'attribute' || info.name.startsWith('fk:')) {
            const hint = entity
                ? ` ${lit.pred} is a relation: write ${lit.pred}(x) with one variable to range over its rows.`
                : didYouMean(lit.pred, [...this.t.derivedNames(), ...this.t.relationNames()]);
            return this.fail(
                lit.loc,
                'rule-unknown-predicate',
                `No rule, named fk, inverse or relation called '${lit.pred}'.${hint} Rules may use other rules, fks declared 'as NAME', inverses and relations (R(x)).`,
            );
        }
        if (lit.args.length !== info.params.length) {
            return this.fail(
                lit.loc,
                'rule-arity',
                `${lit.pred} takes ${info.params.length} argument(s) (${info.params.map(p => `${p.name}: ${p.type || 'value'}`).join(', ')}), not ${lit.args.length}.`,
            );
        }
        const args = lit.args.map((a, i) => {
            const want = info.params[i]!.type;
            if (a.kind === 'var' && a.attribute === undefined && !this.types.has(a.name))
                this.types.set(a.name, { type: want, loc: a.loc });
            const have = this.typeOf(a);
            const keyValue = this.t.relation(want)?.keys[0]?.length === 1 && have !== undefined && SCALARS.includes(have);
            if (have !== undefined && want && have !== want && !keyValue) {
                this.fail(
                    a.loc,
                    'rule-type',
                    `Argument ${i + 1} of ${lit.pred} is a ${want}, but ${termText(a)} is ${have === 'number' || have === 'text' || have === 'date' || have === 'bool' ? `a ${have} value` : `a ${have}`}.`,
                );
            }
            return this.term(a);
        });
        const atom: Atom = { pred: lit.pred, args };
        if (lit.kind === 'atom') return { kind: 'atom', atom };
        const sound = this.t.negationSoundness(lit.pred);
        if ('why' in sound) {
            return this.fail(
                lit.loc,
                'rule-unsound-negation',
                `'not ${lit.pred}(…)' is unsound: ${sound.why}. Negation is allowed through an FD (negate a named fk whose attribute holds one value per row) or on relations declared 'complete' (closed world: 'relation R from s complete { … }').`,
            );
        }
        return { kind: 'not', atom, sound: sound.sound };
    }

    private compare(lit: Extract<RuleLiteralDecl, { kind: 'compare' }>): Literal | undefined {
        const lt = this.typeOf(lit.left),
            rt = this.typeOf(lit.right);
        const scalar = (x: string | undefined) => x === undefined || ['number', 'text', 'date', 'bool'].includes(x);
        const keyText = (x: string | undefined) =>
            x !== undefined && !scalar(x) && (this.t.relation(x)?.keys[0]?.length ?? 0) === 1;
        // An entity with a one-attribute key is its key value, so `p.club = c` compares a club name with a club.
        const compatible =
            lt === undefined ||
            rt === undefined ||
            lt === rt ||
            (keyText(lt) && rt === 'text') ||
            (keyText(rt) && lt === 'text') ||
            (lt === 'date' && rt === 'text') ||
            (lt === 'text' && rt === 'date');
        if (!compatible) {
            return this.fail(
                lit.loc,
                'rule-type',
                `${termText(lit.left)} is ${article(lt!)} and ${termText(lit.right)} is ${article(rt!)}: they can never be equal or ordered. Compare values of the same type.`,
            );
        }
        for (const side of [lit.left, lit.right])
            if (side.kind === 'var' && side.attribute === undefined && !this.types.has(side.name)) {
                return this.fail(
                    side.loc,
                    'rule-unsafe',
                    `'${side.name}' is not bound: it is not a parameter and no atom before uses it. Bind it with an atom, e.g. plays_for(${side.name}, …).`,
                );
            }
        const left = this.term(lit.left),
            right = this.term(lit.right);
        if (lit.op !== '=') return { kind: 'compare', op: lit.op, left, right };
        const l = this.resolve(left),
            r = this.resolve(right);
        if ('var' in l && 'var' in r) {
            if (l.var !== r.var) this.parent.set(r.var, l.var);
            return undefined;
        }
        if ('var' in l && 'const' in r) {
            this.constant.set(l.var, r.const);
            return undefined;
        }
        if ('const' in l && 'var' in r) {
            this.constant.set(r.var, l.const);
            return undefined;
        }
        return { kind: 'compare', op: '=', left: l, right: r };
    }
}

const SCALARS = ['number', 'text', 'date', 'bool'];

function rank(l: RuleLiteralDecl): number {
    return l.kind === 'atom' ? 0 : l.kind === 'compare' ? (l.op === '=' ? 1 : 2) : 3;
}

function mapLiteral(l: Literal, atom: (a: Atom) => Atom, term: (t: Term) => Term): Literal {
    if (l.kind === 'compare') return { kind: 'compare', op: l.op, left: term(l.left), right: term(l.right) };
    return l.kind === 'atom' ? { kind: 'atom', atom: atom(l.atom) } : { kind: 'not', atom: atom(l.atom), sound: l.sound };
}

function termText(t: RuleTermDecl): string {
    if (t.kind === 'const') return typeof t.value === 'number' ? String(t.value) : JSON.stringify(t.value);
    return t.attribute === undefined ? t.name : `${t.name}.${t.attribute}`;
}

function article(type: string): string {
    return ['number', 'text', 'date', 'bool'].includes(type) ? `a ${type} value` : `a ${type}`;
}
