/** A small run to review (the terminal review's and the review round's tests): six answers with verdicts. */
import type { Store } from '../../src/core/store/index.js';
import { movieQuestions } from './questions.js';
import { newRun } from './runner-fixtures.js';

/** A run of six answers with verdicts: the reader read three right ("Yes"), three wrong ("No"). */
export async function fillReviewRun(store: Store): Promise<string> {
    const questions = movieQuestions(6, 'r');
    const runId = await newRun(store, questions);
    for (const [i, q] of questions.entries()) {
        await store.recordAnswer({
            run: runId,
            question: q.id,
            model: 'mini',
            sample: 0,
            hash: `h${i}`,
            params: {},
            text: i % 2 ? 'No, there is none.' : 'Yes. It is Movie.',
            tokensIn: 1,
            tokensOut: 1,
            latencyMs: 1,
            cost: 0,
            attempts: 1,
            finishReason: 'stop',
            cached: false,
            cacheable: false,
        });
    }
    await store.saveVerdicts(
        runId,
        questions.map((q, i) => ({
            questionId: q.id,
            model: 'mini',
            sample: 0,
            answer: i % 2 ? 'no' : 'yes',
            correct: i % 2 === 0,
            rationale: false,
            rationaleText: '',
            hops: [],
            read: {
                text: i % 2 ? 'No' : 'Yes',
                span: [0, i % 2 ? 2 : 3] as [number, number],
                why: `opens with "${i % 2 ? 'No' : 'Yes'}"`,
                stance: 'answer',
            },
        })),
    );
    return runId;
}
