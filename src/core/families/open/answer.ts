/**
 * The claims of a response to an open question, checked against the facts stored with the question and the
 * context it gave. Kept apart from the family module so the question-group relation can use it without
 * importing the family registry (which imports the family).
 */
import type { Question } from '../../probes/question.js';
import type { StatedClaim } from '../../reader/index.js';
import { storedFacts, verifyOpenAnswer } from './check.js';
import type { ClaimVerdict } from './types.js';

/** `stated`: the claims a model reader read (when it decides, or to compare); the response's own claims otherwise. */
export function openClaims(q: Question, response: string, stated?: readonly StatedClaim[]): ClaimVerdict[] {
    const open = q.open;
    if (!open) return [];
    return verifyOpenAnswer({
        answer: response,
        nodes: [...open.retrieval.graph.nodes, ...(open.context?.nodes ?? [])],
        relations: open.relations,
        data: storedFacts(open.facts),
        context: open.context,
        aliases: n => open.aliases[n.id] ?? [],
        topic: open.retrieval.seeds,
        ...(stated ? { stated } : {}),
    });
}
