/**
 * The review's engine steps on a store: the next answers to label (`reviewSample`: the stratified, seeded, resumable
 * sample of sample.ts over a run's verified answers), one label recorded with what the reader had read
 * (`recordReviewLabel`), and labels made elsewhere (`importLabels`, a CSV with located errors per bad row).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { HalluProbeError, problem } from '../errors.js';
import type { Problem } from '../problem.js';
import type { ReviewLabel, ReviewLabelValue, Store } from '../store/types.js';
import type { Verdict } from '../verify/types.js';
import {
    reviewItems,
    reviewPlan,
    slotOf,
    type ReviewFilter,
    type ReviewItem,
    type ReviewPlan,
    type ReviewPlanOptions,
} from './sample.js';
import { readerClass } from './strata.js';
import { LABEL_VALUES } from './trust.js';

export interface ReviewSession extends ReviewPlan {
    runId: string;
    /** Every measured, verified answer of the selection (what agreement is measured over). */
    items: ReviewItem[];
    labels: ReviewLabel[];
}

/** The next answers a reviewer labels in a run (one family's, some probes', one model's, when named). */
export async function reviewSample(store: Store, runId: string, o: ReviewPlanOptions & ReviewFilter): Promise<ReviewSession> {
    const results = await store.loadRunResults(runId);
    if (!results) throw new HalluProbeError(problem('unknown-run', `No run "${runId}" in ${store.location}.`));
    if (results.verdicts.length === 0)
        throw new HalluProbeError(
            problem(
                'no-verdicts',
                `Run ${runId} has no verdicts to review.`,
                'Verify it first: halluprobe report --run ' + runId,
            ),
        );
    const items = reviewItems(results, o);
    if (o.family !== undefined && items.length === 0) {
        const kinds = [...new Set(results.questions.map(q => q.kind))].join(', ');
        throw new HalluProbeError(
            problem(
                'review-family',
                `Run ${runId} has no verified answers of the family "${o.family}".`,
                `Its families: ${kinds}.`,
            ),
        );
    }
    if ((o.probes !== undefined || o.model !== undefined) && items.length === 0) {
        const which = [
            o.probes && `the probe${o.probes.length === 1 ? '' : 's'} ${o.probes.join(', ')}`,
            o.model && `the model ${o.model}`,
        ]
            .filter(Boolean)
            .join(' and ');
        throw new HalluProbeError(
            problem(
                'review-family',
                `Run ${runId} has no verified answers of ${which}.`,
                `Its probes: ${[...new Set(results.questions.map(q => q.probe))].join(', ')}; its models: ${[...new Set(results.verdicts.map(v => v.model))].join(', ')}.`,
            ),
        );
    }
    const labels = await store.labels(runId);
    return { runId, items, labels, ...reviewPlan(items, labels, o) };
}

/** What the reader had read, stored with a label (the verdict's class, its span and why, which reader). */
function readOf(v: Verdict): NonNullable<ReviewLabel['read']> {
    const read: NonNullable<ReviewLabel['read']> = {
        answer: v.answer,
        correct: v.correct,
        by: v.modelRead?.patterns !== undefined ? v.modelRead.model : 'patterns',
    };
    if (v.read) {
        read.text = v.read.text;
        read.span = v.read.span;
        read.why = v.read.why;
    }
    return read;
}

/**
 * Records a reviewer's label of one item; `agree` takes the reader's own class (and rationale where it has keywords).
 * `claims`: the reviewer's marks of an open answer's claims (index in the data check's claims, status).
 */
export async function recordReviewLabel(
    store: Store,
    runId: string,
    item: ReviewItem,
    reviewer: string,
    label: ReviewLabelValue | 'agree',
    claims?: ReviewLabel['claims'],
): Promise<ReviewLabel> {
    const v = item.verdict;
    const l: Omit<ReviewLabel, 'at'> = {
        run: runId,
        questionId: v.questionId,
        model: v.model,
        sample: v.sample,
        reviewer,
        label: label === 'agree' ? readerClass(v, true) : label,
        read: readOf(v),
    };
    if (claims?.length) l.claims = claims;
    if (label === 'agree' && item.question.keywords.length > 0) l.rationale = v.rationale;
    return store.recordLabel(l);
}

const REQUIRED = ['question', 'model', 'sample', 'label', 'reviewer'];

/**
 * Reads labels made elsewhere: a CSV with the columns question (id), model, sample, label (pass | fail | unsure |
 * unreadable), reviewer, and optionally rationale (yes | no). Every bad row is a located problem (file, line); when
 * any row is bad nothing is stored.
 */
export async function importLabels(
    store: Store,
    runId: string,
    file: string,
): Promise<{ recorded: number; problems: Problem[] }> {
    const at = (line: number) => ({
        file,
        range: { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: 0 } },
    });
    let records: string[][];
    try {
        records = parse(readFileSync(file, 'utf8'), {
            relax_column_count: true,
            skip_empty_lines: true,
            bom: true,
        }) as string[][];
    } catch (e) {
        return {
            recorded: 0,
            problems: [
                problem('labels-csv', `${file} is not a CSV file: ${e instanceof Error ? e.message : String(e)}`, undefined, {
                    file,
                }),
            ],
        };
    }
    const header = (records[0] ?? []).map(h => h.trim().toLowerCase());
    const missing = REQUIRED.filter(c => !header.includes(c));
    if (missing.length)
        return {
            recorded: 0,
            problems: [
                problem(
                    'labels-csv',
                    `The header has no column ${missing.join(', ')}.`,
                    `The columns are ${REQUIRED.join(', ')} (and optionally rationale).`,
                    at(1),
                ),
            ],
        };
    const results = (await store.loadRunResults(runId))!;
    const answered = new Set(results.answers.map(a => slotOf(a)));
    const verdicts = new Map(results.verdicts.map(v => [slotOf(v), v]));
    const questions = new Set(results.questions.map(q => q.id));
    const models = new Set(results.answers.map(a => a.model));
    const problems: Problem[] = [];
    const labels: Omit<ReviewLabel, 'at'>[] = [];
    records.slice(1).forEach((cells, i) => {
        const line = i + 2;
        const cell = (c: string) => (cells[header.indexOf(c)] ?? '').trim();
        const bad = (message: string, remedy?: string) => problems.push(problem('labels-csv', message, remedy, at(line)));
        const [question, model, sampleText, label, reviewer] = REQUIRED.map(cell) as [string, string, string, string, string];
        const sample = Number(sampleText);
        if (!questions.has(question))
            return bad(
                `No question "${question}" in run ${runId}.`,
                'Use the question ids of the run (halluprobe report --format jsonl lists them).',
            );
        if (!models.has(model))
            return bad(`No model "${model}" answered in run ${runId}.`, `Its models: ${[...models].join(', ')}.`);
        if (!/^\d+$/.test(sampleText))
            return bad(`sample "${sampleText}" is not a whole number.`, 'Write 0 for the first (or only) sample.');
        if (!(LABEL_VALUES as readonly string[]).includes(label))
            return bad(`label "${label}" is not one of ${LABEL_VALUES.join(', ')}.`);
        if (!reviewer) return bad('reviewer is empty.', 'Name who made the label.');
        const slot = slotOf({ questionId: question, model, sample });
        if (!answered.has(slot)) return bad(`Question "${question}" has no answer of ${model} sample ${sample} in run ${runId}.`);
        const l: Omit<ReviewLabel, 'at'> = {
            run: runId,
            questionId: question,
            model,
            sample,
            reviewer,
            label: label as ReviewLabelValue,
        };
        const rationale = header.includes('rationale') ? cell('rationale').toLowerCase() : '';
        if (rationale) {
            if (!/^(yes|no)$/.test(rationale)) return bad(`rationale "${rationale}" is not yes or no.`);
            l.rationale = rationale === 'yes';
        }
        const v = verdicts.get(slot);
        if (v) l.read = readOf(v);
        labels.push(l);
    });
    if (problems.length) return { recorded: 0, problems };
    for (const l of labels) await store.recordLabel(l);
    return { recorded: labels.length, problems: [] };
}
