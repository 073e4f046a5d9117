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
import type { EdgeProperties, FkDecl, RelationDecl, RuleDecl, RuleLiteralDecl, RuleTermDecl, SpecLocation, SpecModel } from '../spec/model.js';
import type { Atom, Literal, PredicateDecl, Program, Rule, Term, Value } from './ir.js';
import { didYouMean } from '../language/validation/suggest.js';
import { checkRecursion } from './recursion.js';

/** A located problem with the rules: the message says what is wrong and what to do. */
export interface RuleProblem { loc: SpecLocation; code: string; message: string }

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

export interface Translation {
    program: Program;
    predicates: Map<string, PredicateInfo>;
    problems: RuleProblem[];
}

export const attributePredicate = (relation: string, attribute: string) => `${relation}.${attribute}`;

export function fkPredicate(fk: Pick<FkDecl, 'from' | 'to'>): string {
    const side = (t: FkDecl['from']) => t.attributes.length === 1 ? `${t.relation}.${t.attributes[0]}` : `${t.relation}(${t.attributes.join(',')})`;
    return `fk:${side(fk.from)}->${side(fk.to)}`;
}

const loc0 = (l: SpecLocation) => ({ file: l.file, line: l.range.start.line, character: l.range.start.character });

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

interface VarInfo { type: string; loc: SpecLocation }

class Translator {
    readonly program: Program = { base: [], rules: [], caps: {} };
    readonly predicates = new Map<string, PredicateInfo>();
    readonly problems: RuleProblem[] = [];
    private readonly relations = new Map<string, RelationDecl>();
    private readonly caps = new Map<string, SpecLocation | undefined>();
    /** Clauses that may recurse without growing past a bound (symmetric closure adds at most one reverse per fact). */
    private readonly bounded = new Set<Rule>();

    constructor(private readonly spec: SpecModel) {
        for (const r of spec.relations) this.relations.set(r.name, r);
    }

    private problem(loc: SpecLocation, code: string, message: string): void {
        this.problems.push({ loc, code, message });
    }

    declareBase(): void {
        for (const r of this.spec.relations) {
            const keyed = r.keys.length > 0;
            for (const a of r.attributes) {
                const name = attributePredicate(r.name, a.name);
                const decl: PredicateDecl = { name, arity: 2 };
                if (r.complete) decl.complete = true;
                if (keyed && !a.type.list) decl.functional = true;
                this.program.base.push(decl);
                this.predicates.set(name, { name, kind: 'attribute', params: [{ name: 'key', type: r.name }, { name: a.name, type: '' }] });
            }
        }
        for (const fk of this.spec.fks) {
            const name = fkPredicate(fk);
            if (this.predicates.has(name)) continue;
            const from = this.relations.get(fk.from.relation);
            const listValued = fk.from.attributes.some(a => from?.attributes.find(x => x.name === a)?.type.list);
            const decl: PredicateDecl = { name, arity: 2 };
            if (from?.complete) decl.complete = true;
            if (from && from.keys.length > 0 && !listValued) decl.functional = true;
            this.program.base.push(decl);
            this.predicates.set(name, { name, kind: 'fk', params: [{ name: 'subject', type: fk.from.relation }, { name: 'object', type: fk.to.relation }] });
        }
    }

    /** Names first, so that rules may use each other in any order. */
    declareDerived(): void {
        const taken = (name: string, loc: SpecLocation) => {
            const other = this.predicates.get(name);
            if (!other) return false;
            this.problem(loc, 'rule-name', `'${name}' already names ${other.kind === 'inverse' ? 'an inverse' : other.kind === 'fk' ? 'an fk' : 'a rule'}; a rule, a named fk and an inverse each need a name of their own.`);
            return true;
        };
        for (const fk of this.spec.fks) {
            if (!fk.name || taken(fk.name, fk.loc)) continue;
            this.predicates.set(fk.name, { name: fk.name, kind: 'fk', params: [{ name: 'subject', type: fk.from.relation }, { name: 'object', type: fk.to.relation }], ...this.edgeInfo(fk.properties, fk.loc) });
        }
        const seen = new Map<string, RuleDecl>();
        for (const rule of this.spec.rules ?? []) {
            const first = seen.get(rule.name);
            if (first) {
                const same = first.params.length === rule.params.length && first.params.every((p, i) => p.type === rule.params[i]!.type);
                if (!same) this.problem(rule.loc, 'rule-arity', `Rule ${rule.name} is already declared with (${first.params.map(p => `${p.name}: ${p.type}`).join(', ')}); every clause of a rule takes the same parameters. Rename this one or give it the same parameters.`);
                continue;
            }
            if (taken(rule.name, rule.loc)) continue;
            seen.set(rule.name, rule);
            this.predicates.set(rule.name, { name: rule.name, kind: 'rule', params: rule.params.map(p => ({ name: p.name, type: p.type })), ...this.edgeInfo(rule.properties, rule.loc) });
        }
        for (const info of [...this.predicates.values()]) {
            const inv = info.inverse;
            if (!inv || info.kind === 'attribute') continue;
            const props = this.propertiesOf(info.name)!;
            if (taken(inv, props.inverse!.loc)) { delete info.inverse; continue; }
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
            const x = { var: 'subject' }, y = { var: 'object' };
            this.add({ name: fk.name, head: { pred: fk.name, args: [x, y] }, body: [{ kind: 'atom', atom: { pred: fkPredicate(fk), args: [x, y] } }], loc: loc0(fk.loc) });
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
        const a = { var: 'a' }, b = { var: 'b' }, c = { var: 'c' };
        const atom = (pred: string, ...args: Term[]): Literal => ({ kind: 'atom', atom: { pred, args } });
        const sameType = types.length === 2 && types[0] === types[1];
        if (p.symmetric) {
            if (!sameType) this.problem(p.symmetric, 'rule-property', `symmetric needs both ends of the same relation (here ${types.join(' and ')}): r(a, b) gives r(b, a), so b must be able to stand where a does. Remove it, or use 'inverse NAME' for a relation read backwards.`);
            else this.bounded.add(this.add({ name, head: { pred: name, args: [b, a] }, body: [atom(name, a, b)], loc: loc0(p.symmetric) }));
        }
        if (p.transitive) {
            if (!sameType) this.problem(p.transitive, 'rule-property', `transitive needs both ends of the same relation (here ${types.join(' and ')}): r(a, b) and r(b, c) give r(a, c), so b must be both. Remove it.`);
            else this.add({ name, head: { pred: name, args: [a, c] }, body: [atom(name, a, b), atom(name, b, c)], loc: loc0(p.transitive) });
        }
        if (p.inverse && this.predicates.get(p.inverse.name)?.inverseOf === name) {
            this.add({ name: p.inverse.name, head: { pred: p.inverse.name, args: [b, a] }, body: [atom(name, a, b)], loc: loc0(p.inverse.loc) });
        }
        if (p.cap) {
            if (!Number.isInteger(p.cap.value) || p.cap.value < 1) this.problem(p.cap.loc, 'rule-cap', `cap is the most facts the rule may derive: a whole number of at least 1, e.g. cap 10000.`);
            else this.program.caps![name] = p.cap.value;
        }
        this.caps.set(name, p.cap?.loc ?? this.caps.get(name));
        if (p.phrase) this.checkPhrase(p.phrase.text, p.phrase.loc, types.length === 2 && this.spec.fks.some(f => f.name === name) ? ['subject', 'object'] : this.predicates.get(name)?.params.map(x => x.name) ?? []);
        if (p.inverse?.text !== undefined) this.checkPhrase(p.inverse.text, p.inverse.loc, this.spec.fks.some(f => f.name === name) ? ['subject', 'object'] : this.predicates.get(name)?.params.map(x => x.name) ?? []);
    }

    private checkPhrase(text: string, loc: SpecLocation, names: string[]): void {
        for (const m of text.matchAll(/\{([^}]*)\}/g)) {
            const n = m[1]!.trim();
            if (!names.includes(n)) this.problem(loc, 'rule-phrase', `The phrase names {${n}}, which is not one of its arguments (${names.map(x => `{${x}}`).join(', ')}).${didYouMean(n, names)}`);
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
        if (first === rule) this.properties(rule.name, this.propertiesOf(rule.name), rule.params.map(p => p.type));
    }

    finish(): void {
        for (const p of checkRecursion(this.program, this.bounded)) {
            const rule = p.rule;
            const at = this.predicates.get(rule.name)?.loc ?? { file: rule.loc?.file ?? '', range: { start: { line: rule.loc?.line ?? 0, character: rule.loc?.character ?? 0 }, end: { line: rule.loc?.line ?? 0, character: (rule.loc?.character ?? 0) + 4 } } };
            if (p.kind === 'negation') this.problem(at, 'rule-negation-cycle', `${rule.name} depends on itself through 'not' (${p.cycle.join(' → ')}): its facts would decide their own absence, which has no single answer. Rewrite the rules so that no rule negates something derived from itself.`);
            else if (this.program.caps![rule.name] === undefined) {
                this.problem(at, 'rule-unbounded', `${rule.name} is recursive (${p.cycle.join(' → ')}) and has no cap, so it may derive without bound on large data. Add 'cap N' (the most facts it may derive), e.g. 'cap 10000'.`);
            }
        }
    }

    // ------------------------------------------------------------------ for clauses
    relation(name: string): RelationDecl | undefined { return this.relations.get(name); }
    relationNames(): string[] { return [...this.relations.keys()]; }
    predicate(name: string): PredicateInfo | undefined { return this.predicates.get(name); }
    derivedNames(): string[] { return [...this.predicates.values()].filter(p => p.kind !== 'attribute' && !p.name.startsWith('fk:')).map(p => p.name); }
    report(loc: SpecLocation, code: string, message: string): void { this.problem(loc, code, message); }

    /** Is `not pred(…)` sound, and why: an FD (functional fk) or a closed world (everything it rests on is complete)? */
    negationSoundness(pred: string): { sound: 'fd' | 'complete' } | { why: string } {
        const base = this.program.base.find(b => b.name === pred);
        if (base?.functional) return { sound: 'fd' };
        const fk = this.spec.fks.find(f => f.name === pred);
        const plainFk = fk && !fk.properties?.symmetric && !fk.properties?.transitive;
        if (plainFk && this.program.base.find(b => b.name === fkPredicate(fk))?.functional) return { sound: 'fd' };
        const open = this.openRelations(pred, new Set());
        if (open.length === 0) return { sound: 'complete' };
        return { why: `${pred} rests on ${open.join(', ')}, which ${open.length > 1 ? 'are' : 'is'} not declared complete, so a fact missing from the data may still be true` };
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

/** One rule clause: variables, their types, attribute reads and unification. */
class Clause {
    private readonly types = new Map<string, VarInfo>();
    /** Union-find over variable names (`=` between two variables), and variables fixed to a constant. */
    private readonly parent = new Map<string, string>();
    private readonly constant = new Map<string, Value>();
    private readonly reads = new Map<string, Atom>();
    private ok = true;

    constructor(private readonly t: Translator, private readonly rule: RuleDecl) {}

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
            if (this.types.has(p.name)) this.fail(p.loc, 'rule-param', `Parameter '${p.name}' is named twice; give each parameter its own name.`);
            const rel = this.t.relation(p.type);
            if (rel && rel.keys.length === 0) this.fail(p.loc, 'rule-param', `${p.type} has no key, so its rows cannot be told apart as ${p.name}. Declare 'key (…)' in relation ${p.type}.`);
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
        const out: Literal[] = [...[...this.reads.values()].map(a => ({ kind: 'atom' as const, atom: resolved(a) })), ...body.map(l => mapLiteral(l, resolved, x => this.resolve(x)))];
        const bound = new Set<string>();
        for (const l of out) if (l.kind === 'atom') for (const a of l.atom.args) if ('var' in a) bound.add(a.var);
        for (const [i, p] of rule.params.entries()) {
            const arg = head.args[i]!;
            const h = this.resolve(arg);
            if ('var' in h && !bound.has(h.var)) {
                this.fail(p.loc, 'rule-unsafe', `Head variable '${p.name}' is not bound by the body: nothing says which ${p.type} rows it ranges over. Use it in an atom or read one of its attributes, e.g. '${p.name}.${this.t.relation(p.type)?.attributes[0]?.name ?? 'name'} = …'.`);
            }
        }
        for (const l of out) {
            const vars = l.kind === 'compare' ? [l.left, l.right] : l.kind === 'not' ? l.atom.args : [];
            for (const v of vars) if ('var' in v && !bound.has(v.var)) {
                const lit = rule.body.find(b => b.kind !== 'atom') ?? rule.body[0]!;
                this.fail(lit.loc, 'rule-unsafe', `'${v.var}' in a comparison or 'not' is not bound by any positive atom of the rule, so it could be anything. Bind it first with an atom or an attribute read.`);
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
        if (!v) { this.fail(term.loc, 'rule-untyped', `'${term.name}' has no type here, so '${term.name}.${term.attribute}' cannot be read. Make it a parameter ('${term.name}: Relation') or use it in an atom first.`); return { var: term.name }; }
        const rel = this.t.relation(v.type);
        if (!rel) return { var: term.name };
        const attr = rel.attributes.find(a => a.name === term.attribute);
        if (!attr) { this.fail(term.loc, 'rule-unknown-attribute', `Relation ${rel.name} has no attribute '${term.attribute}'.${didYouMean(term.attribute, rel.attributes.map(a => a.name))}`); return { var: term.name }; }
        const name = `${term.name}.${term.attribute}`;
        if (!this.reads.has(name)) this.reads.set(name, { pred: attributePredicate(rel.name, attr.name), args: [{ var: term.name }, { var: name }] });
        return { var: name };
    }

    private literal(lit: RuleLiteralDecl): Literal | undefined {
        if (lit.kind === 'compare') return this.compare(lit);
        const info = this.t.predicate(lit.pred);
        const entity = this.t.relation(lit.pred);
        if (!info && entity && lit.kind === 'atom' && lit.args.length === 1 && lit.args[0]!.kind === 'var' && entity.keys[0]?.length) {
            // `Club(k)`: k ranges over the Club rows (typed, and bound by reading its first key attribute).
            const arg = lit.args[0]!;
            const known = this.types.get(arg.name);
            if (known && known.type !== entity.name) return this.fail(arg.loc, 'rule-type', `'${arg.name}' is a ${known.type} here, so it cannot also be a ${entity.name}.`);
            this.types.set(arg.name, { type: entity.name, loc: arg.loc });
            this.term({ kind: 'var', name: arg.name, attribute: entity.keys[0][0]!, loc: arg.loc });
            return undefined;
        }
        if (!info || info.kind === 'attribute' || info.name.startsWith('fk:')) {
            const hint = entity ? ` ${lit.pred} is a relation: write ${lit.pred}(x) with one variable to range over its rows.` : didYouMean(lit.pred, [...this.t.derivedNames(), ...this.t.relationNames()]);
            return this.fail(lit.loc, 'rule-unknown-predicate', `No rule, named fk, inverse or relation called '${lit.pred}'.${hint} Rules may use other rules, fks declared 'as NAME', inverses and relations (R(x)).`);
        }
        if (lit.args.length !== info.params.length) {
            return this.fail(lit.loc, 'rule-arity', `${lit.pred} takes ${info.params.length} argument(s) (${info.params.map(p => `${p.name}: ${p.type || 'value'}`).join(', ')}), not ${lit.args.length}.`);
        }
        const args = lit.args.map((a, i) => {
            const want = info.params[i]!.type;
            if (a.kind === 'var' && a.attribute === undefined && !this.types.has(a.name)) this.types.set(a.name, { type: want, loc: a.loc });
            const have = this.typeOf(a);
            const keyValue = this.t.relation(want)?.keys[0]?.length === 1 && have !== undefined && SCALARS.includes(have);
            if (have !== undefined && want && have !== want && !keyValue) {
                this.fail(a.loc, 'rule-type', `Argument ${i + 1} of ${lit.pred} is a ${want}, but ${termText(a)} is ${have === 'number' || have === 'text' || have === 'date' || have === 'bool' ? `a ${have} value` : `a ${have}`}.`);
            }
            return this.term(a);
        });
        const atom: Atom = { pred: lit.pred, args };
        if (lit.kind === 'atom') return { kind: 'atom', atom };
        const sound = this.t.negationSoundness(lit.pred);
        if ('why' in sound) {
            return this.fail(lit.loc, 'rule-unsound-negation', `'not ${lit.pred}(…)' is unsound: ${sound.why}. Negation is allowed through an FD (negate a named fk whose attribute holds one value per row) or on relations declared 'complete' (closed world: 'relation R from s complete { … }').`);
        }
        return { kind: 'not', atom, sound: sound.sound };
    }

    private compare(lit: Extract<RuleLiteralDecl, { kind: 'compare' }>): Literal | undefined {
        const lt = this.typeOf(lit.left), rt = this.typeOf(lit.right);
        const scalar = (x: string | undefined) => x === undefined || ['number', 'text', 'date', 'bool'].includes(x);
        const keyText = (x: string | undefined) => x !== undefined && !scalar(x) && (this.t.relation(x)?.keys[0]?.length ?? 0) === 1;
        // An entity with a one-attribute key is its key value, so `p.club = c` compares a club name with a club.
        const compatible = lt === undefined || rt === undefined || lt === rt || (keyText(lt) && rt === 'text') || (keyText(rt) && lt === 'text') || (lt === 'date' && rt === 'text') || (lt === 'text' && rt === 'date');
        if (!compatible) {
            return this.fail(lit.loc, 'rule-type', `${termText(lit.left)} is ${article(lt!)} and ${termText(lit.right)} is ${article(rt!)}: they can never be equal or ordered. Compare values of the same type.`);
        }
        for (const side of [lit.left, lit.right]) if (side.kind === 'var' && side.attribute === undefined && !this.types.has(side.name)) {
            return this.fail(side.loc, 'rule-unsafe', `'${side.name}' is not bound: it is not a parameter and no atom before uses it. Bind it with an atom, e.g. plays_for(${side.name}, …).`);
        }
        const left = this.term(lit.left), right = this.term(lit.right);
        if (lit.op !== '=') return { kind: 'compare', op: lit.op, left, right };
        const l = this.resolve(left), r = this.resolve(right);
        if ('var' in l && 'var' in r) { if (l.var !== r.var) this.parent.set(r.var, l.var); return undefined; }
        if ('var' in l && 'const' in r) { this.constant.set(l.var, r.const); return undefined; }
        if ('const' in l && 'var' in r) { this.constant.set(r.var, l.const); return undefined; }
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
