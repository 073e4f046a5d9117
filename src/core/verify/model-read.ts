/**
 * The model reader (issue 28, item 4): a probe of any family with `read_with MODEL` has MODEL read every answer
 * too, in JSON mode, beside the pattern reader — what it reads is what the family's answers are (`readAs`): a label
 * among the family's (`readLabels`, yes / no / unsure by default), the option chosen (one, several, none of the
 * above), a short answer's words, or the claims stated (subject, relation phrase, object, polarity; the family then
 * checks them against the data as it checks the pattern reader's). Each call is cached by request and recorded with
 * the run at its price. `decide_by reader` lets the model's reading decide the verdict (the family scores it; the
 * pattern reader's answer is kept beside it) where the two agree; a reading that disagrees is held for review and the
 * patterns decide meanwhile (issue 40: an answer must not talk the reader into its verdict). `decide_by patterns`
 * (the default) only compares. The report shows how often the two agree and how many readings are held, per family
 * (`modelReadAgreement`). An answer the model could not read — or a reading quoting words the answer does not have —
 * leaves the patterns deciding, and says why.
 */
import type { Question } from '../probes/question.js';
import type { ModelStepRun } from '../probes/contract/model-steps.js';
import type { FamilyCore } from '../probes/contract/core.js';
import type { ReadAs } from '../probes/contract/core.js';
import { coreOf } from '../probes/registry.js';
import { askJson, modelsOnDemand, scrubParsed } from '../run/side-call.js';
import type { ModelRead, Verdict } from './types.js';
import type { ParsedAnswer } from './answer.js';
import { judgeQuestionGroups } from './groups.js';
import { parseReading, quoteProblem, readingMessages, spanOf, type ModelReading } from './model-read-requests.js';
import { PROBE_SETTINGS } from '../probes/settings.js';
import type { Problem } from '../problem.js';

export { READ_SYSTEM, readingMessages, parseReading } from './model-read-requests.js';

/** The model reader as a model step: without it, the pattern reader decides. */
const READ_STEP = { setting: 'read_with', fallback: 'the pattern reader decides' };

const DEFAULT_LABELS = ['yes', 'no', 'unsure'] as const;

export interface ModelReadOutcome {
    calls: number;
    cached: number;
    unreadable: number;
    /** Why a probe's reader could not be used (located warnings: its patterns decide). */
    problems: Problem[];
}

/** Runs the model reader of every probe that names one, over a verified run's verdicts. */
export async function readWithModels(run: ModelStepRun): Promise<ModelReadOutcome> {
    const { store, runId, spec, signal } = run;
    const outcome: ModelReadOutcome = { calls: 0, cached: 0, unreadable: 0, problems: [] };
    const readers = new Map<string, { model: string; decides: boolean }>();
    for (const p of spec.probes) {
        const s = PROBE_SETTINGS.read(p.settings);
        if (s.read_with !== undefined) readers.set(p.name, { model: s.read_with, decides: s.decide_by === 'reader' });
    }
    if (readers.size === 0) return outcome;
    const results = await store.loadRunResults(runId);
    if (!results) return outcome;
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const answers = new Map(results.answers.map(a => [`${a.questionId}\u0000${a.model}\u0000${a.sample}`, a.text]));
    const clientFor = modelsOnDemand(
        spec,
        READ_STEP,
        run.keyFor,
        (model, key) => ({ model, client: run.client(model, key) }),
        outcome.problems,
    );
    const updated: Verdict[] = [];
    for (const v of results.verdicts) {
        if (signal?.aborted) break;
        const q = questions.get(v.questionId);
        const reader = q ? readers.get(q.probe) : undefined;
        const response = answers.get(`${v.questionId}\u0000${v.model}\u0000${v.sample}`);
        if (!q || !reader || response === undefined) continue;
        const family = coreOf(q.kind);
        const readAs = family.readAs ?? 'labels';
        const context = { labels: family.readLabels ?? DEFAULT_LABELS, options: q.options?.length ?? 0 };
        const c = await clientFor(reader.model, q.probe);
        if (typeof c === 'string') {
            updated.push(withReading(family, q, v, response, { model: reader.model, reads: readAs, error: c }));
            continue;
        }
        let text: string;
        try {
            text = await askJson(
                store,
                c,
                readingMessages(readAs, q.question, response, context),
                { run: runId, question: q.id, sample: v.sample, step: 'read' },
                outcome,
                signal,
            );
        } catch (e) {
            updated.push(
                withReading(family, q, v, response, {
                    model: reader.model,
                    reads: readAs,
                    error: `the call failed: ${e instanceof Error ? e.message : String(e)}`,
                }),
            );
            continue;
        }
        const parsed = scrubParsed(c.client, parseReading(readAs, text, context));
        // A reading must quote the answer: one quoting words it does not have was talked into, or made up.
        const reading = typeof parsed === 'string' ? parsed : (quoteProblem(parsed, response) ?? parsed);
        if (typeof reading === 'string') {
            outcome.unreadable++;
            updated.push(withReading(family, q, v, response, { model: reader.model, reads: readAs, error: reading }));
            continue;
        }
        updated.push(read(family, q, v, response, reader, readAs, reading));
    }
    if (updated.length) {
        await store.saveVerdicts(runId, updated);
        // Question groups (twins, swaps, levels) judge their members' verdicts: judged again on the readings that decide now.
        const fresh = new Map(updated.map(v => [`${v.questionId}\u0000${v.model}\u0000${v.sample}`, v]));
        await store.saveGroupVerdicts(
            runId,
            judgeQuestionGroups(
                results.questions,
                results.verdicts.map(v => fresh.get(`${v.questionId}\u0000${v.model}\u0000${v.sample}`) ?? v),
            ),
        );
    }
    return outcome;
}

/** The model's reading as the family scores it: its label, option, words or claims, the rest the pattern reader's. */
function parsedFrom(readAs: ReadAs, reading: ModelReading, patterns: ParsedAnswer, response: string): ParsedAnswer {
    if (readAs === 'claims') return { ...patterns, claims: reading.claims ?? [] };
    const out: ParsedAnswer = { answer: reading.answer as ParsedAnswer['answer'], rationaleStart: patterns.rationaleStart };
    if (reading.option !== undefined) out.option = reading.option;
    if (readAs === 'short') out.text = reading.text ?? '';
    const span = spanOf(response, reading.quote);
    if (span) out.span = span;
    return out;
}

/** Lower case, letters and digits only, single spaces: what two readings of a short answer are compared on. */
const words = (s: string) =>
    ` ${s
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()} `;

/** Do the two readers read alike? (What "alike" means depends on what they read.) */
function alike(
    readAs: ReadAs,
    model: ParsedAnswer,
    patterns: ParsedAnswer,
    response: string,
    claims: { model?: string[]; patterns?: string[] },
): boolean {
    if (model.answer !== patterns.answer) return false;
    if (readAs === 'option') return model.option === patterns.option;
    if (readAs === 'short' && model.answer === 'answer') {
        // The same words, or one reading inside the other ("Rome" read from "The capital is Rome").
        const [a, b] = [
            words(model.text ?? ''),
            words(patterns.span ? response.slice(patterns.span[0], patterns.span[1]) : response),
        ];
        return a.trim() !== '' && (a.includes(b) || b.includes(a));
    }
    if (readAs === 'claims') {
        // The same facts supported and contradicted (claims cut differently may still state the same facts).
        const decided = (list: string[] | undefined) => [...new Set(list ?? [])].sort().join('\n');
        return decided(claims.model) === decided(claims.patterns);
    }
    return true;
}

/** The supported and contradicted facts of a family's checked claims, as "status edge". */
const factsOf = (claims: { status: string; edge?: string }[] | undefined) =>
    claims?.filter(c => c.status !== 'unverifiable').map(c => `${c.status} ${c.edge ?? ''}`);

/** One answer's reading: scored as the family scores, compared with the patterns', deciding under `decide_by reader`. */
function read(
    family: FamilyCore,
    q: Question,
    v: Verdict,
    response: string,
    reader: { model: string; decides: boolean },
    readAs: ReadAs,
    reading: ModelReading,
): Verdict {
    const patterns = family.parse(response, q);
    const patternScore = family.score(q, patterns, response);
    const parsed = parsedFrom(readAs, reading, patterns, response);
    const score = family.score(q, parsed, response);
    const out: ModelRead = { model: reader.model, reads: readAs, answer: reading.answer };
    if (reading.option !== undefined) out.option = reading.option;
    if (reading.options) out.options = reading.options;
    if (reading.text !== undefined) out.text = reading.text;
    if (reading.claims) {
        out.claims = reading.claims.map((c, i) => {
            const checked = score.claims?.[i];
            const claim = { ...c };
            const span = spanOf(response, c.quote);
            if (span) claim.span = span;
            if (checked) claim.status = checked.status;
            if (checked?.edge) claim.edge = checked.edge;
            return claim;
        });
    }
    if (reading.quote) out.quote = reading.quote;
    if (parsed.span) out.span = parsed.span;
    out.agree = alike(readAs, parsed, patterns, response, {
        model: factsOf(score.claims),
        patterns: factsOf(patternScore.claims),
    });
    out.correct = { model: score.correct, patterns: patternScore.correct };
    if (!reader.decides) return withReading(family, q, v, response, out);
    // A reading that disagrees with the patterns does not decide on its own word: it is held for review (the report
    // lists it; an override settles it) and the patterns decide meanwhile.
    if (!out.agree) {
        out.held = `read as ${patternsRead(readAs, parsed, response)}, the pattern reader read ${patternsRead(readAs, patterns, response)}`;
        return withReading(family, q, v, response, out);
    }
    out.patterns = patterns.answer;
    out.patternsRead = patternsRead(readAs, patterns, response);
    const decided: Verdict = { ...v, answer: parsed.answer, correct: score.correct, modelRead: out };
    if (parsed.option !== undefined) decided.option = parsed.option;
    else delete decided.option;
    return decided;
}

/** What the pattern reader read, in words: "option 2", "answer "Rome"", "3 claims". */
function patternsRead(readAs: ReadAs, patterns: ParsedAnswer, response: string): string {
    if (readAs === 'option' && patterns.option !== undefined) return `${patterns.answer} ${patterns.option}`;
    if (readAs === 'short' && patterns.answer === 'answer' && patterns.span)
        return `answer "${response.slice(patterns.span[0], patterns.span[1])}"`;
    return patterns.answer;
}

/**
 * The verdict with the model's reading beside the patterns'. A verdict the model decided before (the spec now says
 * `decide_by patterns`, or the model could not read it this time) gets the pattern reader's answer back.
 */
function withReading(family: FamilyCore, q: Question, v: Verdict, response: string, reading: ModelRead): Verdict {
    const out: Verdict = { ...v, modelRead: reading };
    if (v.modelRead?.patterns === undefined) return out;
    const patterns = family.parse(response, q);
    out.answer = patterns.answer;
    out.correct = family.score(q, patterns, response).correct;
    if (patterns.option !== undefined) out.option = patterns.option;
    else delete out.option;
    return out;
}

export interface ModelReadAgreement {
    kind: string;
    probe: string;
    model: string;
    reader: string;
    /** What the model read: labels, option, short, claims. */
    reads: string;
    decides: 'reader' | 'patterns';
    /** Answers both readers read; how many they read alike; how many got the same verdict either way. */
    n: number;
    agree: number;
    sameVerdict: number;
    unreadable: number;
    /** Readings that disagreed with the patterns under `decide_by reader`, held for review (the patterns decided). */
    held: number;
}

/** Per family, probe and answering model: answers both readers read, how many they read alike, how many they judged alike. */
export function modelReadAgreement(
    rows: readonly { question: Pick<Question, 'probe' | 'kind'>; verdict: Verdict }[],
): ModelReadAgreement[] {
    const by = new Map<string, ModelReadAgreement>();
    for (const { question, verdict: v } of rows) {
        const r = v.modelRead;
        if (!r) continue;
        const key = `${question.probe}\u0000${v.model}\u0000${r.model}`;
        let e = by.get(key);
        if (!e) {
            e = {
                kind: question.kind,
                probe: question.probe,
                model: v.model,
                reader: r.model,
                reads: r.reads ?? 'labels',
                decides: r.patterns !== undefined || r.held !== undefined ? 'reader' : 'patterns',
                n: 0,
                agree: 0,
                sameVerdict: 0,
                unreadable: 0,
                held: 0,
            };
            by.set(key, e);
        }
        if (r.answer === undefined) {
            e.unreadable++;
            continue;
        }
        e.n++;
        if (r.held !== undefined) {
            e.held++;
            e.decides = 'reader';
        }
        if (r.agree ?? r.answer === (r.patterns ?? v.answer)) e.agree++;
        if (r.correct ? r.correct.model === r.correct.patterns : r.answer === (r.patterns ?? v.answer)) e.sameVerdict++;
    }
    return [...by.values()].sort(
        (a, b) => a.kind.localeCompare(b.kind) || a.probe.localeCompare(b.probe) || a.model.localeCompare(b.model),
    );
}
