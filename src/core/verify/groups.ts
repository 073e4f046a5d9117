/**
 * Question groups: questions judged together (a fact and its polarity twin, a passage and its swapped
 * versions, a context at several perturbation levels). A question names its group and its role in it; the
 * group's relation says how the members' answers must relate and gives the group verdict, which sits beside
 * the per-question verdicts in the store, the metrics, the reports and the editor.
 *
 * To add a relation: one object in `GROUP_RELATIONS` (the compiler checks its hooks); a family's plan puts
 * `group: { key, relation, role }` on the items it generates.
 */
import type { Question } from '../probes/question.js';
import { figure, type Figure } from './metrics.js';
import { swapOutcome } from '../families/evidence/metrics.js';
import type { Verdict } from './types.js';
import { openClaims } from '../families/open/answer.js';

export interface GroupMember { q: Question; v: Verdict }

export interface GroupJudgement {
    /** One of the relation's outcomes. */
    outcome: string;
    /** true: the members relate as they must; false: they do not; null: undecided (a member did not commit). */
    ok: boolean | null;
    detail?: string;
}

export interface GroupRelation {
    readonly name: string;
    /** What the relation demands, in the user's words (reports, hovers). */
    readonly title: string;
    readonly outcomes: readonly string[];
    judge(members: readonly GroupMember[]): GroupJudgement;
}

/** A group's verdict for one model and sample. */
export interface GroupVerdict {
    group: string;
    relation: string;
    probe: string;
    variant: string;
    model: string;
    sample: number;
    outcome: string;
    ok: boolean | null;
    /** Member question ids, with their roles. */
    members: { questionId: string; role: string }[];
    detail?: string;
}

const UNDECIDED = new Set(['unsure', 'unparseable', 'dont_know']);
const answerKey = (v: Verdict) => (v.answer === 'option' || v.answer === 'binding' ? `option ${v.option}` : v.answer);

/** Answers must relate as the golds do: the same gold → the same answer, different golds → different answers. */
const twins: GroupRelation = {
    name: 'twins',
    title: 'answers relate as their golds do (same gold, same answer; opposite gold, opposite answer)',
    outcomes: ['consistent', 'inconsistent', 'undecided'],
    judge(members) {
        const open = members.filter(m => UNDECIDED.has(m.v.answer));
        if (open.length > 0) return { outcome: 'undecided', ok: null, detail: `${open.map(m => m.q.phrasing).join(', ')} not answered` };
        for (let i = 0; i < members.length; i++) {
            for (let j = i + 1; j < members.length; j++) {
                const a = members[i]!, b = members[j]!;
                if ((a.q.gold === b.q.gold) !== (answerKey(a.v) === answerKey(b.v))) {
                    return { outcome: 'inconsistent', ok: false, detail: `${a.q.phrasing} → ${answerKey(a.v)}, ${b.q.phrasing} → ${answerKey(b.v)}` };
                }
            }
        }
        return { outcome: 'consistent', ok: true };
    },
};

/**
 * An open question asked with no context, its clean context and that context perturbed at increasing levels:
 * robust when no answer states a claim that only a corrupted context edge supports.
 */
const levels: GroupRelation = {
    name: 'levels',
    title: 'an open question with its context clean and perturbed: no answer follows a corrupted context edge',
    outcomes: ['robust', 'followed-corrupted', 'undecided'],
    judge(members) {
        const claims = members.map(m => ({ m, claims: openClaims(m.q, m.v.rationaleText) }));
        if (claims.every(c => c.claims.length === 0)) return { outcome: 'undecided', ok: null, detail: 'no answer states a claim' };
        const followed = claims.filter(c => c.claims.some(x => x.cause === 'followed-corrupted'));
        if (followed.length) return { outcome: 'followed-corrupted', ok: false, detail: followed.map(c => c.m.q.phrasing).join(', ') };
        return { outcome: 'robust', ok: true };
    },
};

/**
 * A true statement and its corrupted negatives (statement probes): discerning when the model accepts the true one
 * and rejects every negative; fooled when it accepts a negative.
 */
const statements: GroupRelation = {
    name: 'statements',
    title: 'a true statement and its corrupted negatives: accept the true one, reject every negative',
    outcomes: ['discerning', 'fooled', 'rejected-true', 'abstained'],
    judge(members) {
        const said = (m: GroupMember) => (m.v.answer === 'true' ? 'yes' : m.v.answer === 'false' ? 'no' : 'idk');
        const fooled = members.filter(m => m.q.gold === 'no' && said(m) === 'yes');
        if (fooled.length) return { outcome: 'fooled', ok: false, detail: `accepted ${fooled.map(m => m.q.group?.role).join(', ')}` };
        const truth = members.find(m => m.q.gold === 'yes');
        if (truth && said(truth) === 'no') return { outcome: 'rejected-true', ok: false };
        if (members.some(m => said(m) === 'idk')) return { outcome: 'abstained', ok: null };
        return { outcome: 'discerning', ok: true };
    },
};

/**
 * A question with its passage and the same question with the passage perturbed (evidence probes): followed when
 * the swapped case is answered with the passage's new value, stale when with the original one.
 */
const evidence: GroupRelation = {
    name: 'evidence',
    title: 'a question with its passage and with the answer swapped in it: follow the passage, not the memory',
    outcomes: ['followed', 'stale', 'other', 'no-swap'],
    judge(members) {
        const swap = members.find(m => m.q.evidence?.kind === 'swap');
        if (!swap) return { outcome: 'no-swap', ok: null };
        const outcome = swapOutcome(swap.q, swap.v.rationaleText);
        return { outcome, ok: outcome === 'followed' ? true : outcome === 'stale' ? false : null };
    },
};

/**
 * A derived fact asked as itself, as its polarity twin and read the other way (symmetric / inverse; rule probes):
 * the twin's answer must differ from the fact's and the other reading's must agree — no gold needed.
 */
const metamorphic: GroupRelation = {
    name: 'metamorphic',
    title: 'a derived fact, its polarity twin and its symmetric / inverse reading: the twin answered opposite, the reading the same',
    outcomes: ['consistent', 'polarity-broken', 'symmetry-broken', 'undecided'],
    judge(members) {
        const fact = members.find(m => m.q.group?.role === 'fact');
        if (!fact || members.some(m => UNDECIDED.has(m.v.answer))) return { outcome: 'undecided', ok: null };
        const twins = members.filter(m => m !== fact);
        const polarity = twins.find(m => m.q.group?.role === 'polarity' && m.v.answer === fact.v.answer);
        if (polarity) return { outcome: 'polarity-broken', ok: false, detail: `fact → ${fact.v.answer}, polarity twin → ${polarity.v.answer}` };
        const reading = twins.find(m => m.q.group?.role !== 'polarity' && m.v.answer !== fact.v.answer);
        if (reading) return { outcome: 'symmetry-broken', ok: false, detail: `fact → ${fact.v.answer}, ${reading.q.group?.role} reading → ${reading.v.answer}` };
        return { outcome: 'consistent', ok: true };
    },
};

export const GROUP_RELATIONS = { twins, levels, statements, evidence, metamorphic } as const satisfies Record<string, GroupRelation>;

const relations = new Map<string, GroupRelation>(Object.entries(GROUP_RELATIONS));

/** Adds a relation at run time (a test's or an embedding tool's); returns a function that removes it. */
export function registerGroupRelation(relation: GroupRelation): () => void {
    if (relations.has(relation.name)) throw new Error(`a group relation "${relation.name}" is already registered`);
    relations.set(relation.name, relation);
    return () => { if (relations.get(relation.name) === relation) relations.delete(relation.name); };
}

export function groupRelation(name: string): GroupRelation | undefined {
    return relations.get(name);
}

/** Judges every group that has at least two answered members, per model and sample. */
export function judgeGroups(questions: readonly Question[], verdicts: readonly Verdict[]): GroupVerdict[] {
    const byId = new Map(questions.map(q => [q.id, q]));
    const sets = new Map<string, GroupMember[]>();
    for (const v of verdicts) {
        const q = byId.get(v.questionId);
        if (!q?.group) continue;
        const key = `${q.group.id}\u0000${v.model}\u0000${v.sample}`;
        let list = sets.get(key);
        if (!list) sets.set(key, (list = []));
        list.push({ q, v });
    }
    const out: GroupVerdict[] = [];
    for (const members of sets.values()) {
        if (members.length < 2) continue;
        const first = members[0]!;
        const relation = relations.get(first.q.group!.relation);
        const judgement: GroupJudgement = relation ? relation.judge(members) : { outcome: 'unknown relation', ok: null, detail: `no group relation "${first.q.group!.relation}"` };
        const gv: GroupVerdict = {
            group: first.q.group!.id, relation: first.q.group!.relation, probe: first.q.probe, variant: first.q.variant,
            model: first.v.model, sample: first.v.sample, outcome: judgement.outcome, ok: judgement.ok,
            members: members.map(m => ({ questionId: m.q.id, role: m.q.group!.role })),
        };
        if (judgement.detail) gv.detail = judgement.detail;
        out.push(gv);
    }
    return out.sort((a, b) => a.model.localeCompare(b.model) || a.probe.localeCompare(b.probe) || a.group.localeCompare(b.group) || a.sample - b.sample);
}

/** Group verdicts counted per model × probe × variant × relation. */
export interface GroupSummary {
    model: string;
    probe: string;
    variant: string;
    relation: string;
    /** Groups judged. */
    n: number;
    /** Share of decided groups whose members relate as they must, with its interval. */
    ok: Figure;
    /** Groups per outcome. */
    outcomes: Record<string, number>;
}

export function summarizeGroups(verdicts: readonly GroupVerdict[]): GroupSummary[] {
    const sets = new Map<string, GroupVerdict[]>();
    for (const g of verdicts) {
        const key = [g.model, g.probe, g.variant, g.relation].join('\u0000');
        let list = sets.get(key);
        if (!list) sets.set(key, (list = []));
        list.push(g);
    }
    return [...sets.values()].map(list => {
        const first = list[0]!;
        const outcomes: Record<string, number> = {};
        for (const g of list) outcomes[g.outcome] = (outcomes[g.outcome] ?? 0) + 1;
        const decided = list.filter(g => g.ok !== null);
        return {
            model: first.model, probe: first.probe, variant: first.variant, relation: first.relation, n: list.length,
            ok: figure(decided.filter(g => g.ok).length, decided.length), outcomes,
        };
    });
}
