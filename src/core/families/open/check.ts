/**
 * Claim labels (issue 17 step 4), against a set of facts — the clean data, or the context actually given
 * (perturbed edges included) — under a closed world over those facts:
 *   - supported: a fact links the claim's subject to one of its other mentions, through a relation the claim
 *     names (any relation when it names none);
 *   - contradicted: a fact links the subject to what the claim mentions, but by another relation than the one
 *     it names; or the claim names a relation and states something (a mention, a number or a name), but the
 *     subject's one value of that relation (it is the fact's head: a functional value) is not what it states; or
 *     a functional fact links the subject (or the other mention) to a different node of the other's type
 *     ("Titanic was directed by Sam Mendes" against Titanic → James Cameron). The conflicting fact is kept;
 *   - unverifiable: neither.
 * The two labels together give the cause: grounded (supported by the data), followed-corrupted (supported
 * only by a perturbed context edge), invented (contradicted by the data without support from the context),
 * unverifiable.
 */
import { linkStatedClaims, statesLabel, type LooseEntry, type StatedClaim } from '../../reader/index.js';
import type { DataGraph } from '../../kg/data-graph.js';
import type { LinkedClaim, Lexicon } from './claims.js';
import { buildLexicon, linkClaims, splitClaims } from './claims.js';
import type { ClaimCause, ClaimCheck, ClaimVerdict, ContextGraph, ContextNode } from './types.js';

export interface Fact {
    head: string;
    relation: string;
    tail: string;
    perturbed?: boolean;
}

/** The facts touching a node, and the shown label of a node (to see whether a claim states it). */
export interface FactSource {
    factsOf(id: string): Fact[];
    labelOf(id: string): string | undefined;
    typeOf(id: string): string | undefined;
}

function contextFacts(ctx: ContextGraph): FactSource {
    const by = new Map<string, Fact[]>();
    const add = (id: string, f: Fact) => {
        if (!by.has(id)) by.set(id, []);
        by.get(id)!.push(f);
    };
    for (const e of ctx.edges) {
        const f: Fact = { head: e.head, relation: e.relation, tail: e.tail, perturbed: e.perturbed !== undefined };
        add(e.head, f);
        if (e.tail !== e.head) add(e.tail, f);
    }
    const nodes = new Map(ctx.nodes.map(n => [n.id, n]));
    return { factsOf: id => by.get(id) ?? [], labelOf: id => nodes.get(id)?.label, typeOf: id => nodes.get(id)?.type };
}

/** The data's facts, for the nodes `index` knows (the question's neighbourhood: retrieval's `index`). */
export function dataFacts(graph: DataGraph, index: Map<string, number>, limit = 1000): FactSource {
    const node = (id: string) => index.get(id);
    return {
        factsOf(id) {
            const v = node(id);
            if (v === undefined) return [];
            const out: Fact[] = [];
            for (let a = graph.offsets[v]!; a < graph.offsets[v + 1]! && out.length < limit; a++) {
                const e = graph.adjEdge[a]!;
                out.push({
                    head: graph.id(graph.edgeHead[e]!),
                    relation: graph.relations[graph.edgeRel[e]!]!.name,
                    tail: graph.id(graph.edgeTail[e]!),
                });
            }
            return out;
        },
        labelOf: id => {
            const v = node(id);
            return v === undefined ? undefined : graph.label(v);
        },
        typeOf: id => {
            const v = node(id);
            return v === undefined ? undefined : graph.typeOf(v);
        },
    };
}

/** Type and label from a node id: `Movie(Avatar, 2009)` → Movie / "Avatar, 2009"; `Movie.year=2009` → Movie.year / "2009". */
function parseNodeId(id: string): { type: string; label: string } {
    const entity = /^([^(=]+)\((.*)\)$/s.exec(id);
    if (entity) return { type: entity[1]!, label: entity[2]! };
    const at = id.indexOf('=');
    return at < 0 ? { type: '', label: id } : { type: id.slice(0, at), label: id.slice(at + 1) };
}

/** Facts stored with a question (open questions carry the data's facts about their neighbourhood). */
export function storedFacts(facts: Fact[]): FactSource {
    const by = new Map<string, Fact[]>();
    const add = (id: string, f: Fact) => {
        if (!by.has(id)) by.set(id, []);
        by.get(id)!.push(f);
    };
    for (const f of facts) {
        add(f.head, f);
        if (f.tail !== f.head) add(f.tail, f);
    }
    return { factsOf: id => by.get(id) ?? [], labelOf: id => parseNodeId(id).label, typeOf: id => parseNodeId(id).type };
}

/** The data's facts about these nodes (at most `limit` per node), to store with a question. */
export function factsAbout(graph: DataGraph, index: Map<string, number>, ids: string[], limit = 200): Fact[] {
    const source = dataFacts(graph, index, limit);
    const seen = new Set<string>();
    const out: Fact[] = [];
    for (const id of ids) {
        for (const f of source.factsOf(id)) {
            const k = `${f.head}\u0000${f.relation}\u0000${f.tail}`;
            if (!seen.has(k)) {
                seen.add(k);
                out.push(f);
            }
        }
    }
    return out;
}

const other = (f: Fact, id: string) => (f.head === id ? f.tail : f.head);

function edgeOf(f: Fact): NonNullable<ClaimCheck['edge']> {
    const edge: NonNullable<ClaimCheck['edge']> = { head: f.head, relation: f.relation, tail: f.tail };
    if (f.perturbed) edge.perturbed = true;
    return edge;
}

/** Does the claim state this node (its label, as a word run)? */
function states(claim: LinkedClaim, facts: FactSource, id: string): boolean {
    if (claim.objects.some(o => o.id === id)) return true;
    const label = facts.labelOf(id);
    if (label === undefined) return false;
    // Outside the linked names: a label written only inside a longer linked name ("Barcelona" in "FC Barcelona") is not stated.
    return statesLabel(claim, label);
}

/**
 * A claim's label against the facts; a negated claim ("Messi does not play for RCD Espanyol") flips it: what
 * the facts support it denies (contradicted), what they contradict it rightly denies (supported). A subject that may
 * be any of several rows (a composite key the claim names no row of) is checked against each: supported when one
 * supports it, contradicted only when every one contradicts it.
 */
function checkClaim(claim: LinkedClaim, facts: FactSource, many: ReadonlySet<string>): ClaimCheck {
    const read = negatedCheck(claim, facts, many);
    // A subject referred to, not named ("It was directed by …": the question's entity): it confirms, never contradicts.
    return claim.referred && read.label === 'contradicted' ? { label: 'unverifiable' } : read;
}

function negatedCheck(claim: LinkedClaim, facts: FactSource, many: ReadonlySet<string>): ClaimCheck {
    const read = claim.alternatives?.length ? checkRows(claim, facts, many) : checkStated(claim, facts, many);
    if (!claim.negated || read.label === 'unverifiable') return read;
    // A denial of a relation the data does not name ("Nolan never acted in Interstellar") is no contradiction of the
    // one it holds (Nolan directed it): a denied claim is contradicted only where it names the data's relation, or
    // denies a value of an attribute, which has one relation ("Avatar came out in 2012, not 2009": its year).
    if (
        read.label === 'supported' &&
        claim.relations.length === 0 &&
        read.edge !== undefined &&
        facts.typeOf(read.edge.tail) !== read.edge.relation
    )
        return { label: 'unverifiable' };
    return { ...read, label: read.label === 'supported' ? 'contradicted' : 'supported' };
}

function checkRows(claim: LinkedClaim, facts: FactSource, many: ReadonlySet<string>): ClaimCheck {
    const all = [claim.subject, ...claim.alternatives!].map(subject => checkStated({ ...claim, subject }, facts, many));
    return (
        all.find(c => c.label === 'supported') ??
        (all.every(c => c.label === 'contradicted') ? all[0]! : { label: 'unverifiable' })
    );
}

/** "also", "too", "among others", "one of", "co-starred": the claim adds a value, it does not say which is the one. */
const ADDITIVE = /\b(?:also|too|as\s+well|among|including|alongside|besides|other|another|co-?\w+|one\s+of)\b/i;
/**
 * "originally", "initially", "at first": a value the answer says was replaced ("was originally directed by X, who was
 * removed") is a claim about what came before, not the data's (final) value: it contradicts nothing ("originally
 * released in 2009" still states the one release year the data holds).
 */
const REPLACED =
    /\b(?:originally|initially|at\s+first|at\s+one\s+point|was\s+(?:once|first)\s+(?:set|slated|attached|due|meant))\b/i;

/**
 * What the data can judge (issue 41): a claim is contradicted only where the data holds a functional value for its
 * subject and relation — the subject is the head of the fact (a row has one value per attribute, one target per
 * FK; a list cell's several values are not one, nor is the one value stored of a relation the spec declares a list,
 * `many`: the data holds some of a movie's stars, not all) — and the claim states another. The other direction (a
 * director's other films), an entity or value the data does not hold, and a claim that only adds a value ("also
 * starred") leave it unverifiable.
 */
function checkStated(claim: LinkedClaim, facts: FactSource, many: ReadonlySet<string>): ClaimCheck {
    const s = claim.subject;
    if (!s) return { label: 'unverifiable' };
    const own = facts.factsOf(s.id);
    const named = (f: Fact) => claim.relations.length === 0 || claim.relations.includes(f.relation);
    for (const o of claim.objects) {
        const f = own.find(f => other(f, s.id) === o.id && named(f));
        if (f) return { label: 'supported', edge: edgeOf(f) };
    }
    // Several other names (a list: "starring A, B and C") or an added one ("also") name members, not the one value.
    if (ADDITIVE.test(claim.text) || REPLACED.test(claim.text) || claim.names.length > 1) return { label: 'unverifiable' };
    // Linked, but by another relation than the one the claim names ("Avatar's birth year is James Cameron"): only a
    // claim of one object and one relation says that much, and only of an entity. A value of an attribute is by its
    // type that attribute's value: written ("Avatar (2009), starring …") it states its own relation, not the named one.
    if (claim.objects.length === 1 && claim.relations.length === 1) {
        const f = own.find(f => other(f, s.id) === claim.objects[0]!.id);
        if (f && facts.typeOf(other(f, s.id)) !== f.relation) return { label: 'contradicted', edge: edgeOf(f) };
    }
    for (const r of claim.relations) {
        const ofR = many.has(r) ? undefined : functionalOf(own, s.id, r);
        // What the claim states must be of the relation's kind: a number for a numeric value, a name or node otherwise.
        if (ofR && statesOfKind(claim, facts, ofR.tail) && !states(claim, facts, ofR.tail))
            return { label: 'contradicted', edge: edgeOf(ofR) };
    }
    for (const o of claim.objects) {
        // From the other side only for an entity: a value node (a year) is shared by many entities.
        const conflict =
            typedConflict(own, s.id, o, facts, many) ??
            (o.entity ? typedConflict(facts.factsOf(o.id), o.id, s, facts, many) : undefined);
        if (conflict && named(conflict)) return { label: 'contradicted', edge: edgeOf(conflict) };
    }
    return { label: 'unverifiable' };
}

/**
 * Does the claim state something of the kind of `tail` (a node of its type; a number, or a name, as its label is)? A
 * number is of a numeric value's kind when written at its scale — as many digits before the point: "after 19 years" or
 * "$20 million" states no year 1946 nor an amount 20000000 (a duration, a count in other units).
 */
function statesOfKind(claim: LinkedClaim, facts: FactSource, tail: string): boolean {
    const type = facts.typeOf(tail);
    if (claim.objects.some(o => o.type === type)) return true;
    const label = (facts.labelOf(tail) ?? '').trim();
    if (!/^-?\d+(?:\.\d+)?$/.test(label)) return claim.names.length > 0;
    const digits = (n: string) => n.replace(/^-/, '').split('.')[0]!.length;
    return claim.numbers.some(n => digits(n) === digits(label));
}

/** The one fact of relation `r` with `id` as its head (a functional value), if the data holds exactly one. */
function functionalOf(own: readonly Fact[], id: string, r: string): Fact | undefined {
    let one: Fact | undefined;
    for (const f of own) {
        if (f.head !== id || f.relation !== r) continue;
        if (one && one.tail !== f.tail) return undefined;
        one = f;
    }
    return one;
}

/**
 * The functional fact from `from` (its head) to a node of `to`'s type that is not `to`, when no fact reaches `to`
 * itself: one relation, one value.
 */
function typedConflict(
    own: Fact[],
    from: string,
    to: LooseEntry,
    facts: FactSource,
    many: ReadonlySet<string>,
): Fact | undefined {
    const sameType = own.filter(f => facts.typeOf(other(f, from)) === to.type);
    if (sameType.some(f => other(f, from) === to.id)) return undefined;
    const heads = sameType.filter(f => f.head === from);
    return heads.length > 0 && !many.has(heads[0]!.relation) ? functionalOf(heads, from, heads[0]!.relation) : undefined;
}

function causeOf(data: ClaimCheck, context: ClaimCheck): ClaimCause {
    if (data.label === 'supported') return 'grounded';
    if (context.label === 'supported' && context.edge?.perturbed) return 'followed-corrupted';
    if (data.label === 'contradicted') return 'invented';
    return 'unverifiable';
}

export interface VerifyOpenInput {
    answer: string;
    /** Candidate nodes to link (the scored neighbourhood and the context, rewired tails included). */
    nodes: ContextNode[];
    lexicon?: Lexicon;
    relations: Parameters<typeof buildLexicon>[1];
    aliases?: Parameters<typeof buildLexicon>[2];
    data: FactSource;
    /** The context given; absent for the zero-context baseline (every context label is then unverifiable). */
    context?: ContextGraph;
    /** Claims from an extraction model; the pattern splitter otherwise. */
    claims?: string[];
    /** Claims a model reader stated (subject, relation phrase, object, polarity), linked by the reader like the patterns'. */
    stated?: readonly StatedClaim[];
    /** Ids of the entities the question asks about: what a clause that names no subject of its own is about. */
    topic?: readonly string[];
}

export function verifyOpenAnswer(input: VerifyOpenInput): ClaimVerdict[] {
    const lexicon = input.lexicon ?? buildLexicon(input.nodes, input.relations, input.aliases);
    const ctx = input.context ? contextFacts(input.context) : undefined;
    const linked = input.stated
        ? linkStatedClaims(input.stated, lexicon)
        : input.claims
          ? linkClaims(
                input.claims.map((text, i) => ({ text, sentence: i })),
                lexicon,
            )
          : linkClaims(
                splitClaims(
                    input.answer,
                    input.nodes.map(n => n.label),
                ),
                lexicon,
                input.answer,
                input.topic,
            );
    const many = new Set(input.relations.filter(r => r.many).map(r => r.name));
    return linked.map(c => {
        const data = checkClaim(c, input.data, many);
        const context = ctx ? checkClaim(c, ctx, many) : { label: 'unverifiable' as const };
        const out: ClaimVerdict = {
            text: c.text,
            mentions: [c.subject?.id, ...c.objects.map(o => o.id)].filter((x): x is string => !!x),
            relations: c.relations,
            data,
            context,
            // The given facts' words the answer only describes ("the list says X") are no claim of its own: not grounded,
            // followed or invented by it.
            cause: c.described ? 'unverifiable' : causeOf(data, context),
        };
        if (c.span) out.span = c.span;
        if (c.negated) out.negated = true;
        if (c.hedged) out.hedged = true;
        if (c.reported) out.reported = true;
        if (c.described) out.described = true;
        return out;
    });
}

/** Per answer: shares of claims supported / contradicted by the data, and of each cause. */
export interface ClaimSummary {
    claims: number;
    supported: number;
    contradicted: number;
    followedCorrupted: number;
    invented: number;
}

export function summariseClaims(verdicts: ClaimVerdict[]): ClaimSummary {
    const share = (f: (v: ClaimVerdict) => boolean) => (verdicts.length ? verdicts.filter(f).length / verdicts.length : 0);
    return {
        claims: verdicts.length,
        supported: share(v => v.data.label === 'supported'),
        contradicted: share(v => v.data.label === 'contradicted'),
        followedCorrupted: share(v => v.cause === 'followed-corrupted'),
        invented: share(v => v.cause === 'invented'),
    };
}
