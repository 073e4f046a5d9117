/**
 * The reader's corpus from use: `review --export` writes each labelled answer as one JSON line in the shape of the
 * reader's test corpus (id, reader — the family —, expect: the label, and the question and response it was made
 * on); `reader-check` reads such a file with this version's reader and lists where it disagrees, per family.
 */
import { readFileSync } from 'node:fs';
import { coreOf } from '../probes/registry.js';
import type { Question } from '../probes/question.js';
import type { ReviewLabel, RunResults } from '../store/types.js';
import { figure, type Figure } from '../verify/figures.js';
import { isMissingAnswer } from '../verify/metrics.js';
import { HalluProbeError, problem } from '../errors.js';
import type { Problem } from '../problem.js';
import { slotOf } from './sample.js';
import { countingLabels } from './trust.js';
import type { ReaderClass } from './strata.js';

interface CorpusEntry {
    id: string;
    reader: string;
    expect: { label: ReaderClass; rationale?: boolean };
    question: Question;
    response: string;
    model: string;
    sample: number;
    reviewer: string;
}

/** The labelled answers of a run (the label that counts per answer; unsure ones left out) as corpus lines. */
export function corpusLines(results: Pick<RunResults, 'run' | 'questions' | 'answers'>, labels: readonly ReviewLabel[]): string {
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const responses = new Map(results.answers.map(a => [slotOf(a), a.text]));
    const out: string[] = [];
    for (const l of countingLabels(labels).values()) {
        const q = questions.get(l.questionId);
        if (!q || l.label === 'unsure') continue;
        const e: CorpusEntry = {
            id: `${results.run.id}/${l.questionId}/${l.model}/${l.sample}`,
            reader: q.kind,
            expect: { label: l.label },
            question: q,
            response: responses.get(slotOf(l)) ?? '',
            model: l.model,
            sample: l.sample,
            reviewer: l.reviewer,
        };
        if (l.rationale !== undefined) e.expect.rationale = l.rationale;
        out.push(JSON.stringify(e));
    }
    return out.join('\n') + (out.length ? '\n' : '');
}

export interface ReaderCheck {
    families: { family: string; agreement: Figure }[];
    disagreements: { id: string; family: string; expected: ReaderClass; read: ReaderClass; answer: string; response: string }[];
}

/** This version's reader on a corpus file: agreement per family and each disagreement. Bad lines are located problems. */
export function readerCheck(file: string): ReaderCheck {
    const lines = readFileSync(file, 'utf8').split('\n');
    const problems: Problem[] = [];
    const by = new Map<string, { agree: number; n: number }>();
    const disagreements: ReaderCheck['disagreements'] = [];
    lines.forEach((text, i) => {
        if (!text.trim()) return;
        const at = { file, range: { start: { line: i, character: 0 }, end: { line: i, character: 0 } } };
        let e: CorpusEntry;
        try {
            e = JSON.parse(text) as CorpusEntry;
        } catch {
            problems.push(problem('corpus-line', 'Not a JSON line.', undefined, at));
            return;
        }
        if (!e.question?.kind || typeof e.response !== 'string' || !['pass', 'fail', 'unreadable'].includes(e.expect?.label)) {
            problems.push(
                problem(
                    'corpus-line',
                    'A corpus line needs question (with its kind), response and expect.label (pass, fail or unreadable).',
                    'Write the file with halluprobe review --export.',
                    at,
                ),
            );
            return;
        }
        const family = coreOf(e.question.kind);
        const parsed = family.parse(e.response, e.question);
        const read: ReaderClass = family.score(e.question, parsed, e.response).correct
            ? 'pass'
            : isMissingAnswer(parsed)
              ? 'unreadable'
              : 'fail';
        const s = by.get(e.question.kind) ?? { agree: 0, n: 0 };
        s.n++;
        if (read === e.expect.label) s.agree++;
        else
            disagreements.push({
                id: e.id,
                family: e.question.kind,
                expected: e.expect.label,
                read,
                answer: parsed.answer,
                response: e.response,
            });
        by.set(e.question.kind, s);
    });
    if (problems.length) throw new HalluProbeError(problems);
    return { families: [...by].map(([family, s]) => ({ family, agreement: figure(s.agree, s.n) })), disagreements };
}
