/** Pure: a question and its verdict as the graph panel's question view, built by the engine so every face draws the same (unit-tested). */
import { goldText, type Question } from '../probes/question.js';
import type { Verdict } from '../verify/types.js';
import type { GraphView, QuestionGraph, RationaleSpan, SchemaGraph } from '../../protocol/webview.js';
import { questionDrawing } from './drawing.js';
import { findCapability } from '../probes/registry.js';
import { explainVerdict } from '../report/model.js';

export function questionGraph(q: Question, v?: Verdict, response?: string): QuestionGraph {
    // Spans are offsets into the whole response; without it, show the rationale and no highlights.
    const text = response ?? v?.rationaleText ?? '';
    const spans: RationaleSpan[] = [];
    if (v && response !== undefined) {
        for (const h of v.hops)
            for (const k of h.keywords) {
                for (const s of k.spans) spans.push({ start: s.start, end: s.end, status: 'found', keyword: k.value });
                if (k.conflict)
                    for (const s of k.conflict.spans)
                        spans.push({ start: s.start, end: s.end, status: 'contradicted', keyword: k.value });
            }
    }
    const out: QuestionGraph = {
        questionId: q.id,
        question: q.question,
        model: v?.model ?? '',
        gold: goldText(q),
        answer: v ? (v.answer === 'option' && v.option !== undefined ? `option ${v.option}` : v.answer) : 'not run',
        correct: v ? (v.override?.correct ?? v.correct) : false,
        path: q.path,
        hops: (v?.hops ?? []).map(h => ({
            hop: h.hop,
            status: h.status,
            keywords: h.keywords.map(k => ({
                value: k.value,
                status: k.status,
                ...(k.conflict ? { conflict: k.conflict.value } : {}),
            })),
        })),
        ...(v?.failedHop !== undefined ? { failedHop: v.failedHop } : {}),
        rationale: { text, spans },
    };
    // The span read as the answer (the model reader's when it decided), and why the verdict failed in the family's words.
    if (v?.modelRead?.patterns !== undefined && v.modelRead.span && v.modelRead.quote !== undefined)
        out.read = {
            span: v.modelRead.span,
            text: v.modelRead.quote,
            why: `read by ${v.modelRead.model}; the pattern reader read ${v.modelRead.patterns}`,
            by: v.modelRead.model,
        };
    else if (v?.read && response !== undefined)
        out.read = { span: v.read.span, text: v.read.text, why: v.read.why, by: 'patterns' };
    if (v && response !== undefined) {
        const why = explainVerdict(q, v, response);
        if (why.length) out.explanation = why;
    }
    // The family adds what its questions carry (open: the answer's claims; rule: the proof with each premise's status).
    const refine = findCapability(q.kind, 'graph')?.questionGraph;
    return refine ? refine(out, q, v, response) : out;
}

/** The graph panel's question view: the question's graph and how it is drawn (collapsed around its own entities). */
export function questionView(q: Question, v?: Verdict, response?: string, schema?: SchemaGraph): GraphView {
    const graph = questionGraph(q, v, response);
    return { view: 'question', graph, drawn: questionDrawing(graph), ...(schema ? { schema } : {}) };
}
