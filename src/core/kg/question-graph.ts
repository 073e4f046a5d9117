/** Pure: a question and its verdict as the graph panel's question view, built by the engine so every face draws the same (unit-tested). */
import { goldText, type Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { ClaimMark, QuestionGraph, RationaleSpan } from '../../protocol/webview.js';
import { openClaims } from '../families/open/answer.js';
import { premiseStatuses, ruleClaimMarks } from '../families/rule/claims.js';

export function questionGraph(q: Question, v?: Verdict, response?: string): QuestionGraph {
    // Spans are offsets into the whole response; without it, show the rationale and no highlights.
    const text = response ?? v?.rationaleText ?? '';
    const spans: RationaleSpan[] = [];
    if (v && response !== undefined) {
        for (const h of v.hops) for (const k of h.keywords) {
            for (const s of k.spans) spans.push({ start: s.start, end: s.end, status: 'found', keyword: k.value });
            if (k.conflict) for (const s of k.conflict.spans) spans.push({ start: s.start, end: s.end, status: 'contradicted', keyword: k.value });
        }
    }
    const out: QuestionGraph = {
        questionId: q.id, question: q.question, model: v?.model ?? '', gold: goldText(q),
        answer: v ? (v.answer === 'option' && v.option !== undefined ? `option ${v.option}` : v.answer) : 'not run',
        correct: v ? (v.override?.correct ?? v.correct) : false,
        path: q.path,
        hops: (v?.hops ?? []).map(h => ({ hop: h.hop, status: h.status, keywords: h.keywords.map(k => ({ value: k.value, status: k.status, ...(k.conflict ? { conflict: k.conflict.value } : {}) })) })),
        ...(v?.failedHop !== undefined ? { failedHop: v.failedHop } : {}),
        rationale: { text, spans },
    };
    // Open questions carry their context and the facts their claims are checked against (core/open).
    if (q.open && response !== undefined) out.claims = claimMarks(q, response);
    // Rule questions: the proof tree with each premise as the rationale states it (core/rules/claims).
    if (q.rule && v) {
        out.claims = ruleClaimMarks(q, v);
        const premises = premiseStatuses(q, v) ?? [];
        // A premise's hop takes the premise's status; a value the verifier saw said of another subject is not its conflict.
        out.hops = out.hops.map((h, i) => {
            const status = premises[i];
            if (!status || status === h.status) return h;
            return { hop: h.hop, status, keywords: h.keywords.map(k => ({ value: k.value, status, ...(status === 'contradicted' && k.conflict ? { conflict: k.conflict } : {}) })) };
        });
        const failed = out.hops.find(h => h.status !== 'found');
        if (failed) out.failedHop = failed.hop; else delete out.failedHop;
    }
    return out;
}

function claimMarks(q: Question, response: string): ClaimMark[] {
    return openClaims(q, response).map(c => {
        const m: ClaimMark = { text: c.text, data: c.data.label, context: c.context.label, cause: c.cause, mentions: c.mentions };
        if (c.context.edge) m.contextEdge = { head: c.context.edge.head, tail: c.context.edge.tail };
        if (c.data.edge) m.dataEdge = { head: c.data.edge.head, relation: c.data.edge.relation, tail: c.data.edge.tail };
        return m;
    });
}
