/**
 * The questions of a run as a stream of batches, so asking starts while generation is still going and a run
 * holds a few batches of questions, not all of them. Generation is deterministic (same spec, data and seed →
 * same questions in the same order), so a source can be read again: for the cost estimate before asking, and to
 * finish storing the questions of a run that was stopped while they were still being generated.
 */
import type { Question } from '../probes/question.js';
import type { RunSettings, Store } from '../store/index.js';

/**
 * Starts a fresh pass over the questions (a list works too). `from`: the settings of the run being continued, whose
 * options (limit, seed, probe) chose its questions and so win over those of the command that continues it.
 */
export type QuestionSource = (from?: RunSettings) => Iterable<Question>;

const QUESTION_BATCH = 256;

export interface FeedRequest {
    store: Store;
    runId: string;
    /** Where the run's questions come from; undefined when the run's stored questions are complete. */
    source?: () => Iterable<Question>;
    /** The run holds questions from an earlier pass that did not finish: their stored versions are asked. */
    continued: boolean;
    /** Store the questions as they come (the run's own pass), or only read them (the estimate before it). */
    save: boolean;
    /** Called once the source is exhausted and every question is stored. */
    onStored?: () => Promise<void>;
}

/** The run's questions in batches: its stored ones when they are complete, else the source's (stored as they come). */
export async function* questionBatches(req: FeedRequest, size = QUESTION_BATCH): AsyncGenerator<Question[]> {
    const { store, runId, source } = req;
    if (!source) {
        yield* store.questionPages(runId, size);
        return;
    }
    let seq = await store.questionCount(runId);
    let batch: Question[] = [];
    for (const q of source()) {
        batch.push(q);
        if (batch.length < size) continue;
        yield await settle(batch);
        batch = [];
    }
    if (batch.length) yield await settle(batch);
    if (req.save) await req.onStored?.();

    /** A question id the run holds already is asked as stored, and a repeat within this pass only once. */
    async function settle(qs: Question[]): Promise<Question[]> {
        if (!req.save) return req.continued ? Promise.all(qs.map(async q => (await store.storedQuestion(runId, q.id)) ?? q)) : qs;
        const added = await store.addQuestions(runId, qs, seq);
        const out: Question[] = [];
        for (const [i, q] of qs.entries()) {
            if (added[i]) {
                seq++;
                out.push(q);
                continue;
            }
            const stored = req.continued ? await store.storedQuestion(runId, q.id) : undefined;
            if (stored) out.push(stored);
        }
        return out;
    }
}
