/**
 * Checking a rule answer's reasoning against its proof (HalluVault's oracle, done with the data instead of
 * OpenIE + embeddings). The rationale is split into its numbered points; a point states a claim about a premise
 * when it names the premise's subject (or an alias) and a value of the premise's attribute: the true one
 * (supported) or another one the verifier found in the data (contradicted, with that value's row). A premise no
 * point states is missing. The first premise the rationale gets wrong is the step where the reasoning fails;
 * with the answer it gives the paper's categories. Beside it, the paper's own measure: node and edge overlap
 * (Jaccard) between the rationale's triples and the proof's.
 */
import type { Question } from '../../probes/question.js';
import type { Verdict } from '../../verify/types.js';
import { findAllWords, findWord, foldValue } from '../../verify/normalise.js';
import type { Premise } from './questions.js';
import { tripleClaims } from './extract.js';

export type ClaimStatus = 'supported' | 'contradicted' | 'unknown';

export interface RuleClaim {
    /** 1-based point of the rationale. */
    point: number;
    subject: string;
    relation: string;
    attribute: string;
    value: string;
    status: ClaimStatus;
    /** The premise it speaks about (0-based), when it names one. */
    premise?: number;
    /** contradicted: the data row the stated value belongs to. */
    row?: { file: string; line: number };
}

export type PremiseStatus = 'supported' | 'contradicted' | 'missing';

/** error-knowledge: a premise wrong or missing, answer right; error-inference: premises right, answer wrong. */
export type RuleCategory = 'correct' | 'error-knowledge' | 'error-inference' | 'both' | 'refused';

export interface RuleCheck {
    points: string[];
    claims: RuleClaim[];
    premises: PremiseStatus[];
    /** 1-based index of the first premise stated wrongly or not at all. */
    firstWrongStep?: number;
    category: RuleCategory;
    /** The paper's oracle: Jaccard of nodes and of edges, rationale triples against the proof's. */
    nodeOverlap: number;
    edgeOverlap: number;
    /** Where the claims come from: the spec's patterns, or a model's triples (`extract_with`); `fallback` says why a model's were not used. */
    extraction: { by: 'patterns'; fallback?: string } | { by: 'model'; model: string };
    /** How the overlap's elements were matched: exact / alias, or embeddings (`embeddings MODEL`, similarity ≥ threshold). */
    overlapBy: string;
}

type Checked = Pick<Verdict, 'answer' | 'correct' | 'rationaleText' | 'hops' | 'override' | 'extracted' | 'similarity'>;

/** The rationale's points: numbered or bulleted lines, else its sentences. */
export function splitPoints(rationale: string): string[] {
    const lines = rationale.split(/\n+/).map(l => l.trim()).filter(Boolean);
    const listed = lines.filter(l => /^(?:\d+[.):]|[-*•])\s*/.test(l));
    const items = listed.length > 0 ? listed.map(l => l.replace(/^(?:\d+[.):]|[-*•])\s*/, '')) : rationale.split(/(?<=[.!?])\s+/);
    return items.map(s => s.trim()).filter(s => s.length > 0);
}

const contains = (hay: string, forms: readonly string[]) => forms.some(f => f.length > 0 && findWord(hay, foldValue(f)) >= 0);

const MISSING_ANSWERS = new Set(['unsure', 'unparseable', 'dont_know']);

/** Checks one answer's rationale against the question's proof. */
export function checkRuleAnswer(q: Question, v: Checked): RuleCheck | undefined {
    const rule = q.rule;
    if (!rule) return undefined;
    const points = splitPoints(v.rationaleText);
    if (v.extracted?.triples) return fromTriples(q, v, points, v.extracted.model, v.extracted.triples);
    const fallback = v.extracted ? `${v.extracted.model}: ${v.extracted.error ?? 'no triples'}` : undefined;
    const folded = points.map(p => foldValue(p));
    const claims: RuleClaim[] = [];
    // Which premises each point states right: in a chain (a in b, b in c) the point "a is in b" names b, the
    // next premise's subject, and must not be read as a wrong value for it.
    const states = folded.map(text => rule.premises.map(p => statesRight(text, p)));
    const premises: PremiseStatus[] = rule.premises.map((p, i) => {
        const hop = v.hops[i]?.keywords[0];
        const other = hop?.conflict ?? hop?.alsoStated;
        let status: PremiseStatus = 'missing';
        folded.forEach((text, at) => {
            const subject = spans(text, subjectForms(p));
            if (subject.length === 0) return;
            const base = { point: at + 1, subject: p.subject, relation: p.relation, attribute: p.attribute, premise: i };
            if (states[at]![i]) {
                claims.push({ ...base, value: p.value, status: 'supported' });
                if (status === 'missing') status = 'supported';
                return;
            }
            if (!other) return;
            // Another value counts where it is not part of the true value ("France" in "Île-de-France") nor of
            // what the point states right about another premise.
            const taken = [...spans(text, valueForms(p)), ...rule.premises.filter((_, j) => j !== i && states[at]![j]).flatMap(o => spans(text, [...subjectForms(o), ...valueForms(o)]))];
            const said = spans(text, [other.value]).filter(c => taken.every(t => disjoint(c, t)));
            if (!apart(subject, said)) return;
            const c: RuleClaim = { ...base, value: other.value, status: 'contradicted' };
            if (other.row) c.row = other.row;
            claims.push(c);
            status = 'contradicted';
        });
        // A value stated in a point that names no subject ("they both play for Barcelona") counts for this
        // premise; one stated about another premise's subject does not.
        const unattributed = (forms: readonly string[]) => folded.some(t => {
            if (rule.premises.some((o, j) => j !== i && contains(t, subjectForms(o)))) return false;
            const own = spans(t, subjectForms(p));
            return spans(t, forms).some(x => own.every(y => disjoint(x, y)));
        });
        if (status === 'missing' && hop?.status === 'found' && unattributed(valueForms(p))) status = 'supported';
        if (status === 'missing' && hop?.status === 'contradicted' && hop.conflict && unattributed([hop.conflict.value])) status = 'contradicted';
        return status;
    });
    // Points that name an entity of the proof but no premise value: claims the data cannot decide here.
    folded.forEach((text, at) => {
        if (claims.some(c => c.point === at + 1)) return;
        const p = rule.premises.find(x => contains(text, subjectForms(x)));
        if (p) claims.push({ point: at + 1, subject: p.subject, relation: p.relation, attribute: p.attribute, value: points[at]!, status: 'unknown' });
    });
    return finish(v, rule.premises, points, claims, premises, fallback ? { by: 'patterns', fallback } : { by: 'patterns' });
}

/** The claims of a model's triples (extract.ts), each checked against the premise it speaks about. */
function fromTriples(q: Question, v: Checked, points: string[], model: string, triples: NonNullable<Verdict['extracted']>['triples'] & object): RuleCheck {
    const premises = q.rule!.premises;
    const claims: RuleClaim[] = tripleClaims(triples, premises, v.hops).map(t => {
        const p = t.premise !== undefined ? premises[t.premise] : undefined;
        const c: RuleClaim = { point: t.point, subject: p?.subject ?? t.triple.subject, relation: p?.relation ?? '', attribute: p?.attribute ?? t.triple.relation, value: t.triple.object, status: t.status };
        if (t.premise !== undefined) c.premise = t.premise;
        if (t.row) c.row = t.row;
        return c;
    });
    const status: PremiseStatus[] = premises.map((_, i) => {
        const about = claims.filter(c => c.premise === i);
        return about.some(c => c.status === 'contradicted') ? 'contradicted' : about.some(c => c.status === 'supported') ? 'supported' : 'missing';
    });
    return finish(v, premises, points, claims, status, { by: 'model', model });
}

function finish(v: Checked, premises: readonly Premise[], points: string[], claims: RuleClaim[], status: PremiseStatus[], extraction: RuleCheck['extraction']): RuleCheck {
    const wrong = status.findIndex(s => s !== 'supported');
    const correct = v.override?.correct ?? v.correct;
    const knowledgeWrong = wrong >= 0;
    const category: RuleCategory = MISSING_ANSWERS.has(v.answer) && !correct ? 'refused'
        : correct ? (knowledgeWrong ? 'error-knowledge' : 'correct') : knowledgeWrong ? 'both' : 'error-inference';
    const sim = v.similarity;
    const byEmbeddings = sim?.nodeOverlap !== undefined && sim.edgeOverlap !== undefined;
    const overlaps = byEmbeddings ? { nodeOverlap: sim.nodeOverlap!, edgeOverlap: sim.edgeOverlap! } : overlap(premises, claims);
    const overlapBy = byEmbeddings ? `embeddings ${sim.model} ≥ ${sim.threshold}` : sim?.error ? `exact / alias (${sim.model}: ${sim.error})` : 'exact / alias';
    const out: RuleCheck = { points, claims, premises: status, category, ...overlaps, extraction, overlapBy };
    if (wrong >= 0) out.firstWrongStep = wrong + 1;
    return out;
}

type Span = [number, number];

/** Where the forms occur in a folded text (word-bounded). */
function spans(text: string, forms: readonly string[]): Span[] {
    return forms.flatMap(f => { const n = foldValue(f); return n ? findAllWords(text, n) : []; });
}

const disjoint = (a: Span, b: Span) => a[1] <= b[0] || b[1] <= a[0];

/** Some occurrence of the one and some of the other are separate words ("FC Barcelona … is Barcelona"). */
function apart(a: readonly Span[], b: readonly Span[]): boolean {
    return a.some(x => b.some(y => disjoint(x, y)));
}

/** The point names the premise's subject and, apart from it, its value. */
function statesRight(text: string, p: Premise): boolean {
    return apart(spans(text, subjectForms(p)), spans(text, valueForms(p)));
}

function subjectForms(p: Premise): string[] {
    return [p.subject, ...(p.forms?.subject ?? [])];
}

function valueForms(p: Premise): string[] {
    return [p.value, ...(p.forms?.value ?? [])];
}

/** The overlap's elements as text (for embeddings): the proof's and the stated nodes, and edges as "subject attribute value". */
export function overlapElements(premises: readonly Premise[], claims: readonly RuleClaim[]): { proofNodes: string[]; saidNodes: string[]; proofEdges: string[]; saidEdges: string[] } {
    const stated = claims.filter(c => c.status !== 'unknown');
    const edge = (s: string, a: string, o: string) => `${s} ${a.replace(/_/g, ' ')} ${o}`;
    const uniq = (xs: string[]) => [...new Set(xs)];
    return {
        proofNodes: uniq(premises.flatMap(p => [p.subject, p.value])), saidNodes: uniq(stated.flatMap(c => [c.subject, c.value])),
        proofEdges: uniq(premises.map(p => edge(p.subject, p.attribute, p.value))), saidEdges: uniq(stated.map(c => edge(c.subject, c.attribute, c.value))),
    };
}

/** Node and edge Jaccard between the proof's triples and the rationale's (supported and contradicted claims). */
function overlap(premises: readonly Premise[], claims: readonly RuleClaim[]): { nodeOverlap: number; edgeOverlap: number } {
    const node = (s: string) => foldValue(s);
    const edge = (s: string, a: string, o: string) => `${node(s)}\u0000${a}\u0000${node(o)}`;
    const stated = claims.filter(c => c.status !== 'unknown');
    const proofNodes = new Set(premises.flatMap(p => [node(p.subject), node(p.value)]));
    const saidNodes = new Set(stated.flatMap(c => [node(c.subject), node(c.value)]));
    const proofEdges = new Set(premises.map(p => edge(p.subject, p.attribute, p.value)));
    const saidEdges = new Set(stated.map(c => edge(c.subject, c.attribute, c.value)));
    return { nodeOverlap: jaccard(proofNodes, saidNodes), edgeOverlap: jaccard(proofEdges, saidEdges) };
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
    if (a.size === 0 && b.size === 0) return 1;
    let both = 0;
    for (const x of a) if (b.has(x)) both++;
    return both / (a.size + b.size - both);
}

/** A claim as the graph panel overlays it (the protocol's ClaimMark shape): nodes it mentions, its label. */
export interface RuleClaimMark {
    text: string;
    data: 'supported' | 'contradicted' | 'unverifiable';
    context: 'supported' | 'contradicted' | 'unverifiable';
    cause: 'grounded' | 'invented' | 'unverifiable';
    mentions: string[];
    dataEdge?: { head: string; relation: string; tail: string };
}

/**
 * The rationale's claims over the proof tree: each premise is supported (its subject and value green),
 * contradicted (red, with the value the model stated instead) or missing (grey: no point states it).
 */
export function ruleClaimMarks(q: Question, v: Parameters<typeof checkRuleAnswer>[1]): RuleClaimMark[] {
    const check = checkRuleAnswer(q, v);
    if (!check || !q.rule) return [];
    return q.rule.premises.map((p, i) => {
        const status = check.premises[i]!;
        const said = check.claims.find(c => c.premise === i && c.status === 'contradicted');
        const label = status === 'supported' ? 'supported' : status === 'contradicted' ? 'contradicted' : 'unverifiable';
        const text = status === 'missing' ? `not stated: ${p.subject} ${p.attribute} ${p.value}` : said ? `${p.subject} ${p.attribute} ${said.value} (data: ${p.value})` : `${p.subject} ${p.attribute} ${p.value}`;
        const mentions = p.nodes ? [...p.nodes] : [];
        const mark: RuleClaimMark = { text, data: label, context: label, cause: status === 'supported' ? 'grounded' : status === 'contradicted' ? 'invented' : 'unverifiable', mentions };
        if (said) mark.dataEdge = { head: p.subject, relation: p.attribute, tail: p.value };
        return mark;
    });
}

/**
 * A rule answer's premises as keyword statuses (premise i is hop i + 1): the verifier finds a value anywhere in
 * the rationale, but only the points tell whose value it is — the graph and the hop summary show these.
 */
export function premiseStatuses(q: Question, v: Parameters<typeof checkRuleAnswer>[1]): ('found' | 'missing' | 'contradicted')[] | undefined {
    return checkRuleAnswer(q, v)?.premises.map(s => (s === 'supported' ? 'found' : s));
}
