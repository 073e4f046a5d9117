/**
 * Question groups: questions judged together (a fact and its polarity twin, a passage and its swapped
 * versions, a context at several perturbation levels). A question names its group and its role in it; the
 * group's relation says how the members' answers must relate and gives the group verdict, which sits beside
 * the per-question verdicts in the store, the metrics, the reports and the editor.
 *
 * A family owns its relations (`ProbeFamily.groupRelations`: open's levels, statement's statements, evidence's
 * evidence, rule's metamorphic); \`twins\` (same gold, same answer) is shared and lives here. A family's plan puts
 * `group: { key, relation, role }` on the items it generates.
 */
import type { Question } from '../probes/question.js';
import type { GroupJudgement, GroupMember, GroupRelation } from '../probes/contract/core.js';
import { familyGroupRelation } from '../probes/registry.js';
import { figure, type Figure } from './figures.js';
import type { GroupVerdict, Verdict } from './types.js';

export type { GroupRelation } from '../probes/contract/core.js';
export type { GroupVerdict } from './types.js';

const UNDECIDED = new Set(['unsure', 'unparseable', 'dont_know']);
const answerKey = (v: Verdict) => (v.answer === 'option' || v.answer === 'binding' ? `option ${v.option}` : v.answer);

/** Answers must relate as the golds do: the same gold → the same answer, different golds → different answers. */
const twins: GroupRelation = {
    name: 'twins',
    title: 'answers relate as their golds do (same gold, same answer; opposite gold, opposite answer)',
    outcomes: ['consistent', 'inconsistent', 'undecided'],
    judge(members) {
        const open = members.filter(m => UNDECIDED.has(m.v.answer));
        if (open.length > 0)
            return { outcome: 'undecided', ok: null, detail: `${open.map(m => m.q.phrasing).join(', ')} not answered` };
        for (let i = 0; i < members.length; i++) {
            for (let j = i + 1; j < members.length; j++) {
                const a = members[i]!,
                    b = members[j]!;
                if ((a.q.gold === b.q.gold) !== (answerKey(a.v) === answerKey(b.v))) {
                    return {
                        outcome: 'inconsistent',
                        ok: false,
                        detail: `${a.q.phrasing} → ${answerKey(a.v)}, ${b.q.phrasing} → ${answerKey(b.v)}`,
                    };
                }
            }
        }
        return { outcome: 'consistent', ok: true };
    },
};

/** The relations no single family owns. */
const GROUP_RELATIONS = { twins } as const satisfies Record<string, GroupRelation>;

const relations = new Map<string, GroupRelation>(Object.entries(GROUP_RELATIONS));

/** Adds a relation at run time (a test's or an embedding tool's); returns a function that removes it. */
export function registerGroupRelation(relation: GroupRelation): () => void {
    if (relations.has(relation.name)) throw new Error(`a group relation "${relation.name}" is already registered`);
    relations.set(relation.name, relation);
    return () => {
        if (relations.get(relation.name) === relation) relations.delete(relation.name);
    };
}

function groupRelation(name: string): GroupRelation | undefined {
    return relations.get(name) ?? familyGroupRelation(name);
}

/** Judges every group that has at least two answered members, per model and sample. */
export function judgeQuestionGroups(questions: readonly Question[], verdicts: readonly Verdict[]): GroupVerdict[] {
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
        const relation = groupRelation(first.q.group!.relation);
        const judgement: GroupJudgement = relation
            ? relation.judge(members)
            : { outcome: 'unknown relation', ok: null, detail: `no group relation "${first.q.group!.relation}"` };
        const gv: GroupVerdict = {
            group: first.q.group!.id,
            relation: first.q.group!.relation,
            probe: first.q.probe,
            variant: first.q.variant,
            model: first.v.model,
            sample: first.v.sample,
            outcome: judgement.outcome,
            ok: judgement.ok,
            members: members.map(m => ({ questionId: m.q.id, role: m.q.group!.role })),
        };
        if (judgement.detail) gv.detail = judgement.detail;
        out.push(gv);
    }
    return out.sort(
        (a, b) =>
            a.model.localeCompare(b.model) ||
            a.probe.localeCompare(b.probe) ||
            a.group.localeCompare(b.group) ||
            a.sample - b.sample,
    );
}

/** Group verdicts counted per model × probe × variant × relation. */
export interface QuestionGroupSummary {
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
    /** The outcomes of the groups that held, in the relation's own words (twins: consistent; levels: robust). */
    heldAs: string[];
}

export function summarizeQuestionGroups(verdicts: readonly GroupVerdict[]): QuestionGroupSummary[] {
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
            model: first.model,
            probe: first.probe,
            variant: first.variant,
            relation: first.relation,
            n: list.length,
            ok: figure(decided.filter(g => g.ok).length, decided.length),
            outcomes,
            heldAs: [...new Set(list.filter(g => g.ok).map(g => g.outcome))],
        };
    });
}
