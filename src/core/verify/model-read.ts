/**
 * The model reader (issue 28, item 4): a probe of any family with `read_with MODEL` has MODEL read every answer
 * too, in JSON mode — the answer's label among the family's (`readLabels`, yes / no / unsure by default) and the
 * words it read as the answer — beside the pattern reader. Each call is cached by request and recorded with the
 * run like every model call. `decide_by reader` lets the model's reading decide the verdict (the pattern reader's
 * answer is kept beside it); `decide_by patterns` (the default) only compares. The report shows how often the two
 * agree (`modelReadAgreement`). An answer the model could not read leaves the patterns deciding, and says why.
 */
import type { ChatMessage, Question } from '../probes/question.js';
import type { ModelStepRun } from '../probes/family.js';
import { familyOf } from '../probes/families.js';
import { askSide, modelsOnDemand } from '../run/side-call.js';
import type { ModelRead, Verdict } from './types.js';
import type { ParsedAnswer } from './answer.js';

const DEFAULT_LABELS = ['yes', 'no', 'unsure'] as const;

export const READ_SYSTEM = 'You read answers given by another model. Reply with one JSON object and nothing else: '
    + '{"answer": "<one of the labels given>", "quote": "<the exact words of the answer that give it, copied>"}. '
    + 'An answer that says it does not know, cannot tell or refuses is "unsure" (or the label given for it); an answer '
    + 'with a caveat is still an answer.';

/** The reading request for one answer. */
export function readingMessages(question: string, answer: string, labels: readonly string[]): ChatMessage[] {
    return [{ role: 'system', content: READ_SYSTEM }, {
        role: 'user',
        content: `Question:\n"""\n${question}\n"""\nAnswer:\n"""\n${answer}\n"""\nLabels: ${labels.join(', ')}.`,
    }];
}

/** The label and quote of a reading answer, or why it is not the JSON asked for. */
export function parseReading(text: string, labels: readonly string[]): { answer: string; quote?: string } | string {
    const body = text.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
    let json: unknown;
    try { json = JSON.parse(body); } catch { return `the answer is not JSON (${JSON.stringify(text.slice(0, 60))})`; }
    const x = json as { answer?: unknown; quote?: unknown };
    if (!x || typeof x !== 'object' || typeof x.answer !== 'string') return 'the JSON has no "answer"';
    const answer = x.answer.trim().toLowerCase();
    if (!labels.includes(answer)) return `"${x.answer}" is none of ${labels.join(', ')}`;
    return typeof x.quote === 'string' && x.quote.trim() ? { answer, quote: x.quote.trim() } : { answer };
}

export interface ModelReadOutcome { calls: number; cached: number; unreadable: number; problems: string[] }

/** Runs the model reader of every probe that names one, over a verified run's verdicts. */
export async function readWithModels(run: ModelStepRun): Promise<ModelReadOutcome> {
    const { store, runId, spec, signal } = run;
    const outcome: ModelReadOutcome = { calls: 0, cached: 0, unreadable: 0, problems: [] };
    const readers = new Map<string, { model: string; decides: boolean }>();
    for (const p of spec.probes) {
        if (typeof p.settings.read_with === 'string') readers.set(p.name, { model: p.settings.read_with, decides: p.settings.decide_by === 'reader' });
    }
    if (readers.size === 0) return outcome;
    const results = store.loadRunResults(runId);
    if (!results) return outcome;
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const answers = new Map(results.answers.map(a => [`${a.questionId}\u0000${a.model}\u0000${a.sample}`, a.text]));
    const clientFor = modelsOnDemand(spec, 'read_with', run.keyFor, (model, key) => ({ model, client: run.client(model, key) }), outcome.problems);
    const updated: Verdict[] = [];
    for (const v of results.verdicts) {
        if (signal?.aborted) break;
        const q = questions.get(v.questionId);
        const reader = q ? readers.get(q.probe) : undefined;
        const response = answers.get(`${v.questionId}\u0000${v.model}\u0000${v.sample}`);
        if (!q || !reader || response === undefined) continue;
        const labels = familyOf(q.kind).readLabels ?? DEFAULT_LABELS;
        if (labels.length === 0) {
            const note = `read_with on probe ${q.probe}: ${q.kind} answers are not labels; the pattern reader reads them`;
            if (!outcome.problems.includes(note)) outcome.problems.push(note);
            continue;
        }
        const c = await clientFor(reader.model);
        if (typeof c === 'string') { updated.push(withReading(v, { model: reader.model, error: c })); continue; }
        const messages = readingMessages(q.question, response, labels);
        let text: string;
        try {
            const answered = await askSide(store, c, messages, { temperature: 0, json: true }, { run: runId, question: q.id, sample: v.sample, step: 'read' }, signal);
            text = answered.text;
            if (answered.cached) outcome.cached++;
            else outcome.calls++;
        } catch (e) {
            updated.push(withReading(v, { model: reader.model, error: `the call failed: ${e instanceof Error ? e.message : String(e)}` }));
            continue;
        }
        const reading = parseReading(text, labels);
        if (typeof reading === 'string') { outcome.unreadable++; updated.push(withReading(v, { model: reader.model, error: reading })); continue; }
        const read: ModelRead = { model: reader.model, answer: reading.answer };
        if (reading.quote) {
            read.quote = reading.quote;
            const at = response.indexOf(reading.quote);
            if (at >= 0) read.span = [at, at + reading.quote.length];
        }
        updated.push(reader.decides ? decided(q, v, read, response) : withReading(v, read));
    }
    if (updated.length) store.saveVerdicts(runId, updated);
    return outcome;
}

/** The verdict with the model's reading beside the patterns' (the pattern reader's answer restored if it was decided before). */
function withReading(v: Verdict, read: ModelRead): Verdict {
    const out: Verdict = { ...v, modelRead: read };
    if (v.modelRead?.patterns !== undefined) out.answer = v.modelRead.patterns as Verdict['answer'];
    return out;
}

/** `decide_by reader`: the verdict scored on the model's answer, the pattern reader's kept in `modelRead.patterns`. */
function decided(q: Question, v: Verdict, read: ModelRead, response: string): Verdict {
    const patterns = v.modelRead?.patterns ?? v.answer;
    const parsed: ParsedAnswer = { answer: read.answer as ParsedAnswer['answer'], rationaleStart: 0 };
    if (read.span) parsed.span = read.span;
    const score = familyOf(q.kind).score(q, parsed, response);
    return { ...v, answer: parsed.answer, correct: score.correct, modelRead: { ...read, patterns } };
}

/** Per probe and answering model: answers both readers read, and how many they read alike. */
export function modelReadAgreement(rows: readonly { question: Pick<Question, 'probe'>; verdict: Verdict }[]): { probe: string; model: string; reader: string; decides: 'reader' | 'patterns'; n: number; agree: number; unreadable: number }[] {
    const by = new Map<string, { probe: string; model: string; reader: string; decides: 'reader' | 'patterns'; n: number; agree: number; unreadable: number }>();
    for (const { question, verdict: v } of rows) {
        const r = v.modelRead;
        if (!r) continue;
        const key = `${question.probe}\u0000${v.model}\u0000${r.model}`;
        let e = by.get(key);
        if (!e) by.set(key, (e = { probe: question.probe, model: v.model, reader: r.model, decides: r.patterns !== undefined ? 'reader' : 'patterns', n: 0, agree: 0, unreadable: 0 }));
        if (r.answer === undefined) { e.unreadable++; continue; }
        e.n++;
        if (r.answer === (r.patterns ?? v.answer)) e.agree++;
    }
    return [...by.values()];
}
