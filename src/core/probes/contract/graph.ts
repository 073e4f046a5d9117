/**
 * The graph capability of a probe family (optional): the graph panel's question view, refined with what its
 * questions carry. A leaf, types only.
 */
import type { QuestionGraph } from '../../../protocol/webview.js';
import type { Verdict } from '../../verify/types.js';
import type { Question } from '../question.js';

export interface GraphCapability {
    /**
     * Open: the answer's claims; rule: the proof with each premise's status. Gets the generic view (path, hops,
     * rationale spans), returns it.
     */
    questionGraph(
        graph: QuestionGraph,
        question: Question,
        verdict: Verdict | undefined,
        response: string | undefined,
    ): QuestionGraph;
}
