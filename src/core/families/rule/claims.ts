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
import { findWord, foldValue } from '../../verify/normalise.js';
import {
    Linker,
    clauses,
    deniedSpans,
    isDenied,
    negationAt,
    rationalePoints,
    withoutDenied,
    type EntityEntry,
    type Mention,
} from '../../reader/index.js';
import type { Premise } from './questions.js';
import type { RuleQuestion } from './types.js';
import { tripleClaims } from './extract.js';
import { LOW_OVERLAP } from './settings.js';

type ClaimStatus = 'supported' | 'contradicted' | 'unknown';

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
    /** The point denies the premise ("… does not play for …"). */
    negated?: boolean;
}

/**
 * supported: a point states the premise; negated: a point denies it (a premise is a fact of the data, so denying it is
 * wrong); contradicted: a point states another value instead; missing: no point states it.
 */
type PremiseStatus = 'supported' | 'negated' | 'contradicted' | 'missing';

/**
 * Ours, from each premise checked against the data: a right answer from a premise stated wrongly or not at all,
 * a wrong answer from premises all stated right, a wrong answer with a premise wrong or missing. Not the paper's
 * categories (PaperCategory): those are read from the overlaps, among wrong answers only.
 */
export type RuleCategory =
    'correct' | 'right-answer-wrong-premises' | 'wrong-answer-right-premises' | 'wrong-answer-wrong-premises' | 'refused';

/**
 * The paper's categories (HalluVault, METHODS.md §2), defined among wrong answers from the node / edge overlap
 * between the rationale's triples and the proof's: low edge overlap → error inference, low node overlap → error
 * knowledge, both low → both; a wrong answer with neither low is one the paper's oracle does not classify.
 */
export type PaperCategory = 'error-knowledge' | 'error-inference' | 'both' | 'not-low';

export { LOW_OVERLAP };

export interface RuleCheck {
    points: string[];
    claims: RuleClaim[];
    premises: PremiseStatus[];
    /** 1-based index of the first premise stated wrongly or not at all (an optional premise missing is not wrong). */
    firstWrongStep?: number;
    /** Premises that may be missing without failing: a spell's years the question does not ask for, a node skipped over. */
    optional?: boolean[];
    category: RuleCategory;
    /** The paper's category: wrong answers only (not right ones, not refusals). */
    paper?: PaperCategory;
    /** The paper's oracle: Jaccard of nodes and of edges, rationale triples against the proof's. */
    nodeOverlap: number;
    edgeOverlap: number;
    /**
     * The oracle as precision and recall: points that state a premise right / all points (three irrelevant facts
     * lower it), and premises stated right / all premises.
     */
    precision: number;
    recall: number;
    /** With a model reader: premises read, and those whose status the pattern reader gives the same. */
    agreement?: { premises: number; agree: number };
    /** Where the claims come from: the spec's patterns, or a model's triples (`extract_with`); `fallback` says why a model's were not used. */
    extraction: { by: 'patterns'; fallback?: string } | { by: 'model'; model: string };
    /** How the overlap's elements were matched: exact / alias, or embeddings (`embeddings MODEL`, similarity ≥ threshold). */
    overlapBy: string;
}

type Checked = Pick<Verdict, 'answer' | 'correct' | 'rationaleText' | 'hops' | 'override' | 'extracted' | 'similarity'>;

/** The rationale's points (the reader's `rationalePoints`): numbered or bulleted lines, else its sentences. */
export const splitPoints = rationalePoints;

const MISSING_ANSWERS = new Set(['unsure', 'unparseable', 'dont_know']);

/** Checks one answer's rationale against the question's proof. */
export function checkRuleAnswer(q: Question, v: Checked): RuleCheck | undefined {
    const rule = q.rule;
    if (!rule) return undefined;
    const points = splitPoints(v.rationaleText);
    if (v.extracted?.triples) {
        // Both readers read; the spec's `decide_by` says which decides (the model by default), and how often they
        // agree is kept either way.
        const byModel = fromTriples(q, v, points, v.extracted.model, v.extracted.triples);
        const byPatterns = checkRuleAnswer(q, { ...v, extracted: undefined });
        if (!byPatterns) return byModel;
        const agreement = {
            premises: byModel.premises.length,
            agree: byModel.premises.filter((p, i) => p === byPatterns.premises[i]).length,
        };
        const decider = v.extracted.decides === false ? byPatterns : byModel;
        decider.agreement = agreement;
        return decider;
    }
    const fallback = v.extracted ? `${v.extracted.model}: ${v.extracted.error ?? 'no triples'}` : undefined;
    const claims: RuleClaim[] = [];
    // One linker per question over the proof's names (reader/link.ts): leftmost-longest, so a value inside a
    // longer name ("Barcelona" in "FC Barcelona") is no mention of its own. Each point is cut into clauses;
    // a negation in a clause flips what it states ("Messi does not play for FC Barcelona" denies the premise).
    const ids: string[] = [];
    const entries: EntityEntry[] = [];
    const entry = (id: string, names: readonly string[]) => {
        ids.push(id);
        entries.push({ id, type: id.split(':')[0]!, names: names.filter(n => n.trim() !== '') });
    };
    rule.premises.forEach((p, i) => {
        entry(`s:${i}`, subjectForms(p));
        entry(`v:${i}`, valueForms(p));
        const hop = v.hops[i]?.keywords[0];
        const other = hop?.conflict ?? hop?.alsoStated;
        if (other) entry(`o:${i}`, [other.value]);
    });
    const linker = new Linker(entries);
    const index = new Map(ids.map((id, k) => [id, k]));
    const clausesOf = points.map(point => {
        const mentions = linker.link(point);
        // What a denial covers (reader/denial.ts): a clause whose mentions lie in a denied span ("the claim that
        // Messi played for Barcelona is incorrect") denies them; the denial's own cue ("not") negates nothing else.
        const denied = deniedSpans(point);
        const visible = denied.length ? withoutDenied(point, denied) : point;
        return clauses(point, 0, point.length, mentions).flatMap(([a, b]) => {
            const inClause = mentions.filter(m => m.start >= a && m.end <= b);
            const own = denied.length ? inClause.filter(m => !isDenied(denied, m.start, m.end)) : inClause;
            const text = point.slice(a, b);
            const read = [{ mentions: own, negated: negationAt(visible.slice(a, b), a, own) >= 0, text }];
            // The denied mentions, with the clause's own (its subject): a negated clause of their own.
            if (own.length < inClause.length) read.push({ mentions: inClause, negated: true, text });
            return read;
        });
    });
    const has = (m: Mention, id: string) => {
        const k = index.get(id);
        return k !== undefined && m.entries.includes(k);
    };
    const names = (c: { mentions: Mention[] }, id: string) => c.mentions.filter(m => has(m, id));
    /** The clause names the premise's subject and, in another mention, its value. */
    const statesRight = (c: { mentions: Mention[] }, i: number) =>
        names(c, `s:${i}`).some(x => names(c, `v:${i}`).some(y => y !== x));
    const premises: PremiseStatus[] = rule.premises.map((p, i) => {
        const hop = v.hops[i]?.keywords[0];
        const other = hop?.conflict ?? hop?.alsoStated;
        let status: PremiseStatus = 'missing';
        clausesOf.forEach((cs, at) => {
            const base = { point: at + 1, subject: p.subject, relation: p.relation, attribute: p.attribute, premise: i };
            for (const c of cs) {
                if (names(c, `s:${i}`).length === 0) continue;
                if (statesRight(c, i)) {
                    if (c.negated) {
                        claims.push({ ...base, value: p.value, status: 'contradicted', negated: true });
                        if (status !== 'contradicted') status = 'negated';
                    } else {
                        claims.push({ ...base, value: p.value, status: 'supported' });
                        if (status === 'missing') status = 'supported';
                    }
                    continue;
                }
                if (!other || c.negated) continue;
                // Another value counts where it is its own mention, not a name stated right about another premise.
                const rightElsewhere = rule.premises.map((_, j) => j !== i && statesRight(c, j));
                const said = names(c, `o:${i}`).filter(
                    m =>
                        !rule.premises.some((_, j) => rightElsewhere[j] && (has(m, `s:${j}`) || has(m, `v:${j}`))) &&
                        !names(c, `s:${i}`).includes(m),
                );
                if (said.length === 0) continue;
                const claim: RuleClaim = { ...base, value: other.value, status: 'contradicted' };
                if (other.row) claim.row = other.row;
                claims.push(claim);
                status = 'contradicted';
            }
        });
        // A value stated in a point that names no subject ("they both play for Barcelona") counts for this
        // premise; one stated about another premise's subject does not.
        const unattributed = (id: string) =>
            clausesOf.some(cs =>
                cs.some(c => {
                    if (c.negated) return false;
                    if (rule.premises.some((_, j) => j !== i && names(c, `s:${j}`).some(m => !has(m, id)))) return false;
                    const own = names(c, `s:${i}`);
                    return names(c, id).some(m => !own.includes(m));
                }),
            );
        if (status === 'missing' && hop?.status === 'found' && unattributed(`v:${i}`)) status = 'supported';
        if (status === 'missing' && hop?.status === 'contradicted' && hop.conflict && unattributed(`o:${i}`))
            status = 'contradicted';
        return status;
    });
    const optional = rule.premises.map(() => false);
    const reading: PremiseReading = { rule, clausesOf, names, claims, status: premises, optional };
    spells(reading);
    skippedNodes(reading);
    // Points that name an entity of the proof but no premise value: claims the data cannot decide here.
    clausesOf.forEach((cs, at) => {
        if (claims.some(c => c.point === at + 1)) return;
        const i = rule.premises.findIndex((_, j) => cs.some(c => names(c, `s:${j}`).length > 0));
        const p = rule.premises[i];
        if (p)
            claims.push({
                point: at + 1,
                subject: p.subject,
                relation: p.relation,
                attribute: p.attribute,
                value: points[at]!,
                status: 'unknown',
            });
    });
    return finish(v, rule, points, claims, premises, fallback ? { by: 'patterns', fallback } : { by: 'patterns' }, optional);
}

interface ReadClause {
    mentions: Mention[];
    negated: boolean;
    text: string;
}
type Names = (c: { mentions: Mention[] }, id: string) => Mention[];

/**
 * The premises of a rule answer as the passes after the first reading see them: the rule, the points' clauses, who
 * a clause names, and what the passes change (the claims, each premise's status, which premises are optional).
 */
interface PremiseReading {
    rule: RuleQuestion;
    clausesOf: ReadClause[][];
    names: Names;
    claims: RuleClaim[];
    status: PremiseStatus[];
    optional: boolean[];
}

const YEAR = /\b(1[5-9]\d\d|20\d\d)\b/g;
const Y = String.raw`(1[5-9]\d\d|20\d\d)\b`;
/** A year stated as a spell's first: "from 2014", "since 2014", "joined … in 2014", "2014–2019". */
const BEGINS = new RegExp(
    String.raw`\b(?:from|since)\s+${Y}|\b(?:joined|signed|arrived|started|began)\b[^.;\n]{0,40}?\b${Y}|\b${Y}\s*[-\u2013\u2014]\s*\d{4}\b`,
    'i',
);
/** A year stated as a spell's last: "to 2019", "until 2019", "left … in 2019", "2014–2019". */
const ENDS = new RegExp(
    String.raw`\b(?:to|until|till|through)\s+${Y}|\b(?:left|departed)\b[^.;\n]{0,40}?\b${Y}|\b\d{4}\s*[-\u2013\u2014]\s*${Y}`,
    'i',
);

/** The year a clause states as the spell's begin or end, when it phrases one as such. */
function boundStated(text: string, which: 'begin' | 'end'): number | undefined {
    const m = (which === 'begin' ? BEGINS : ENDS).exec(text);
    const y = m?.slice(1).find(x => x !== undefined);
    return y === undefined ? undefined : Number(y);
}

/**
 * Temporal spells (issue 41): a premise that is a spell's begin or end year is supported by any year inside the spell
 * that a point states about the spell without naming the bound (a point "the last year of … is Y" states Y as it) (its subject, and the row's qualifier when its name has one: "R. Lewandowski
 * (Bayern Munich)"), negated by a point that denies a year inside it ("did not play for Bayern Munich in 2015") when
 * none states one, and contradicted by years only outside it. Begin and end are needed (missing fails) only when
 * the question asks for them: \`until\` (when one spell gives way to the next); otherwise they are optional. When
 * they are asked, a year phrased as the bound ("from 2014 to 2019", "until 2019", "left … in 2019") states that bound:
 * supported when it is the data's, contradicted when not, though inside the spell.
 */
function spells({ rule, clausesOf, names, claims, status, optional }: PremiseReading): void {
    const asksBounds = /until/.test(String(rule.temporal?.op ?? ''));
    rule.premises.forEach((p, i) => {
        if (!p.spell) return;
        if (!asksBounds) optional[i] = true;
        const qualifier = /\(([^()]+)\)\s*$/.exec(p.subject)?.[1];
        const [b, e] = p.spell;
        let inside: { year: number; point: number } | undefined, outside: { year: number; point: number } | undefined;
        // "did not play for Bayern Munich in 2015" with 2015 inside the spell: the spell denied
        let denied: { year: number; point: number } | undefined;
        // A point that names the bound itself ("the last year of … is 2019") is read as any premise is: its value.
        const bound = [p.label, p.attribute.replace(/_/g, ' ')].filter((x): x is string => !!x).map(x => foldValue(x));
        let explicit = false;
        // When the question asks for the bounds, a year phrased as this bound ("from 2014 to 2019") states it.
        const which = !asksBounds ? undefined : p.value === String(b) ? 'begin' : p.value === String(e) ? 'end' : undefined;
        let asBound: { year: number; point: number } | undefined;
        clausesOf.forEach((cs, at) => {
            for (const c of cs) {
                if (names(c, `s:${i}`).length === 0) continue;
                if (qualifier && findWord(foldValue(c.text), foldValue(qualifier)) < 0) continue;
                if (which && !c.negated && !asBound) {
                    const year = boundStated(c.text, which);
                    if (year !== undefined) asBound = { year, point: at + 1 };
                }
                if (c.negated) {
                    for (const m of c.text.matchAll(YEAR))
                        if (Number(m[1]) >= b && Number(m[1]) <= e) denied ??= { year: Number(m[1]), point: at + 1 };
                    continue;
                }
                if (bound.some(w => findWord(foldValue(c.text), w) >= 0)) {
                    explicit = true;
                    continue;
                }
                for (const m of c.text.matchAll(YEAR)) {
                    const year = Number(m[1]);
                    if (year >= b && year <= e) inside ??= { year, point: at + 1 };
                    else outside ??= { year, point: at + 1 };
                }
            }
        });
        const base = { subject: p.subject, relation: p.relation, attribute: p.attribute, premise: i };
        // Earlier claims about this premise are replaced by what the spell's years say.
        const said = inside ?? denied ?? outside;
        if ((!said && !asBound) || explicit) return;
        for (let k = claims.length - 1; k >= 0; k--) if (claims[k]!.premise === i) claims.splice(k, 1);
        if (asBound) {
            const right = asBound.year === (which === 'begin' ? b : e);
            claims.push({
                ...base,
                point: asBound.point,
                value: String(asBound.year),
                status: right ? 'supported' : 'contradicted',
            });
            status[i] = right ? 'supported' : 'contradicted';
            return;
        }
        if (!said) return;
        if (!inside && denied) {
            claims.push({ ...base, point: denied.point, value: String(denied.year), status: 'contradicted', negated: true });
            status[i] = 'negated';
            return;
        }
        claims.push({ ...base, point: said.point, value: String(said.year), status: inside ? 'supported' : 'contradicted' });
        status[i] = inside ? 'supported' : 'contradicted';
    });
}

/**
 * An intermediate node of the proof may be skipped (issue 41): a premise no point states, whose value a point states
 * about an earlier node of its chain ("Real Madrid is based in Madrid, Spain" for Madrid → region → Spain), is
 * supported, and the premises in between are optional.
 */
function skippedNodes({ rule, clausesOf, names, claims, status, optional }: PremiseReading): void {
    const premises = rule.premises;
    const before = (j: number) => premises.findIndex((q, k) => k !== j && foldValue(q.value) === foldValue(premises[j]!.subject));
    premises.forEach((p, j) => {
        if (status[j] !== 'missing') return;
        const between: number[] = [];
        for (let a = before(j), guard = 0; a >= 0 && guard < premises.length; a = before(a), guard++) {
            between.push(a);
            const at = clausesOf.findIndex(cs =>
                cs.some(c => !c.negated && names(c, `v:${j}`).some(v => names(c, `s:${a}`).some(s => s !== v))),
            );
            if (at < 0) continue;
            status[j] = 'supported';
            claims.push({
                point: at + 1,
                subject: p.subject,
                relation: p.relation,
                attribute: p.attribute,
                value: p.value,
                status: 'supported',
                premise: j,
            });
            // The nodes skipped over: the premises from the earlier node up to this one's subject.
            for (const k of between) if (status[k] === 'missing') optional[k] = true;
            return;
        }
    });
}

/** The claims of a model's triples (extract.ts), each checked against the premise it speaks about. */
function fromTriples(
    q: Question,
    v: Checked,
    points: string[],
    model: string,
    triples: NonNullable<Verdict['extracted']>['triples'] & object,
): RuleCheck {
    const rule = q.rule!;
    const premises = rule.premises;
    const claims: RuleClaim[] = tripleClaims(triples, premises, v.hops).map(t => {
        const p = t.premise !== undefined ? premises[t.premise] : undefined;
        const c: RuleClaim = {
            point: t.point,
            subject: p?.subject ?? t.triple.subject,
            relation: p?.relation ?? '',
            attribute: p?.attribute ?? t.triple.relation,
            value: t.triple.object,
            status: t.status,
        };
        if (t.premise !== undefined) c.premise = t.premise;
        if (t.row) c.row = t.row;
        return c;
    });
    const status: PremiseStatus[] = premises.map((_, i) => {
        const about = claims.filter(c => c.premise === i);
        return about.some(c => c.status === 'contradicted')
            ? 'contradicted'
            : about.some(c => c.status === 'supported')
              ? 'supported'
              : 'missing';
    });
    return finish(v, rule, points, claims, status, { by: 'model', model });
}

function finish(
    v: Checked,
    rule: RuleQuestion,
    points: string[],
    claims: RuleClaim[],
    status: PremiseStatus[],
    extraction: RuleCheck['extraction'],
    optional: readonly boolean[] = [],
): RuleCheck {
    const premises = rule.premises;
    // A premise not needed (a spell's years the question does not ask for, a node skipped over) fails nothing missing.
    const wrong = status.findIndex((s, i) => s !== 'supported' && !(s === 'missing' && optional[i]));
    const correct = v.override?.correct ?? v.correct;
    const knowledgeWrong = wrong >= 0;
    const category: RuleCategory =
        MISSING_ANSWERS.has(v.answer) && !correct
            ? 'refused'
            : correct
              ? knowledgeWrong
                  ? 'right-answer-wrong-premises'
                  : 'correct'
              : knowledgeWrong
                ? 'wrong-answer-wrong-premises'
                : 'wrong-answer-right-premises';
    const sim = v.similarity;
    const byEmbeddings = sim?.nodeOverlap !== undefined && sim.edgeOverlap !== undefined;
    const overlaps = byEmbeddings ? { nodeOverlap: sim.nodeOverlap!, edgeOverlap: sim.edgeOverlap! } : overlap(premises, claims);
    const overlapBy = byEmbeddings
        ? `embeddings ${sim.model} ≥ ${sim.threshold}`
        : sim?.error
          ? `exact / alias (${sim.model}: ${sim.error})`
          : 'exact / alias';
    const right = new Set(claims.filter(c => c.status === 'supported').map(c => c.point)).size;
    const precision = points.length === 0 ? 0 : right / points.length;
    const recall = status.length === 0 ? 1 : status.filter(x => x === 'supported').length / status.length;
    const out: RuleCheck = { points, claims, premises: status, category, ...overlaps, precision, recall, extraction, overlapBy };
    if (optional.some(Boolean)) out.optional = [...optional];
    if (wrong >= 0) out.firstWrongStep = wrong + 1;
    if (category !== 'correct' && category !== 'refused' && category !== 'right-answer-wrong-premises')
        out.paper = paperCategory(overlaps, rule.lowOverlap ?? LOW_OVERLAP);
    return out;
}

/** A wrong answer's category as the paper reads it from the overlaps (strictly below the threshold is low). */
function paperCategory(o: { nodeOverlap: number; edgeOverlap: number }, low: number): PaperCategory {
    const node = o.nodeOverlap < low,
        edge = o.edgeOverlap < low;
    return node && edge ? 'both' : node ? 'error-knowledge' : edge ? 'error-inference' : 'not-low';
}

function subjectForms(p: Premise): string[] {
    return [p.subject, ...(p.forms?.subject ?? [])];
}

function valueForms(p: Premise): string[] {
    return [p.value, ...(p.forms?.value ?? [])];
}

/** The overlap's elements as text (for embeddings): the proof's and the stated nodes, and edges as "subject attribute value". */
export function overlapElements(
    premises: readonly Premise[],
    claims: readonly RuleClaim[],
): { proofNodes: string[]; saidNodes: string[]; proofEdges: string[]; saidEdges: string[] } {
    const stated = claims.filter(c => c.status !== 'unknown');
    const edge = (s: string, a: string, o: string) => `${s} ${a.replace(/_/g, ' ')} ${o}`;
    const uniq = (xs: string[]) => [...new Set(xs)];
    return {
        proofNodes: uniq(premises.flatMap(p => [p.subject, p.value])),
        saidNodes: uniq(stated.flatMap(c => [c.subject, c.value])),
        proofEdges: uniq(premises.map(p => edge(p.subject, p.attribute, p.value))),
        saidEdges: uniq(stated.map(c => edge(c.subject, c.attribute, c.value))),
    };
}

/**
 * Node and edge Jaccard between the proof's triples and the rationale's, as the paper's oracle counts: every triple
 * the rationale states is in the union — supported, contradicted, and its other claims about the proof's entities
 * (unknown: their own node and edge) — so extra facts lower both; a denied premise ("did not play for") is an edge of
 * its own ("not club"), never the proof's.
 */
function overlap(premises: readonly Premise[], claims: readonly RuleClaim[]): { nodeOverlap: number; edgeOverlap: number } {
    const node = (s: string) => foldValue(s);
    const edge = (s: string, a: string, o: string) => `${node(s)}\u0000${a}\u0000${node(o)}`;
    const proofNodes = new Set(premises.flatMap(p => [node(p.subject), node(p.value)]));
    const saidNodes = new Set(claims.flatMap(c => [node(c.subject), node(c.value)]));
    const proofEdges = new Set(premises.map(p => edge(p.subject, p.attribute, p.value)));
    const saidEdges = new Set(claims.map(c => edge(c.subject, c.negated ? `not ${c.attribute}` : c.attribute, c.value)));
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
        // A denied premise is a fact of the data denied: contradicted by it.
        const label =
            status === 'supported'
                ? 'supported'
                : status === 'contradicted' || status === 'negated'
                  ? 'contradicted'
                  : 'unverifiable';
        const text =
            status === 'missing'
                ? `not stated: ${p.subject} ${p.attribute} ${p.value}`
                : status === 'negated'
                  ? `denied: ${p.subject} ${p.attribute} ${p.value}`
                  : said
                    ? `${p.subject} ${p.attribute} ${said.value} (data: ${p.value})`
                    : `${p.subject} ${p.attribute} ${p.value}`;
        const mentions = p.nodes ? [...p.nodes] : [];
        const mark: RuleClaimMark = {
            text,
            data: label,
            context: label,
            cause: status === 'supported' ? 'grounded' : status === 'contradicted' ? 'invented' : 'unverifiable',
            mentions,
        };
        if (said) mark.dataEdge = { head: p.subject, relation: p.attribute, tail: p.value };
        return mark;
    });
}

/**
 * A rule answer's premises as keyword statuses (premise i is hop i + 1): the verifier finds a value anywhere in
 * the rationale, but only the points tell whose value it is — the graph and the hop summary show these.
 */
export function premiseStatuses(
    q: Question,
    v: Parameters<typeof checkRuleAnswer>[1],
): ('found' | 'missing' | 'contradicted')[] | undefined {
    return checkRuleAnswer(q, v)?.premises.map(s => (s === 'supported' ? 'found' : s === 'negated' ? 'contradicted' : s));
}
