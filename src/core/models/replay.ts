/**
 * Replay: answers recorded elsewhere (JSONL, CSV or a published ERBench log), matched to questions by id or by
 * question text, so people can verify answers they already collected. Recorded text is untrusted: it is stored
 * and verified, never executed or interpreted.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { isChoiceLog, parseErbenchChoiceLog, parseErbenchLog } from './erbench-log.js';
import { ModelError, type Completion, type CompletionRequest, type ModelClient } from './types.js';
import type { Problem } from '../problem.js';

export interface ReplayRecord {
    id?: string;
    question?: string;
    answer: string;
    sample?: number;
    /** ERBench logs: K of "N-Kth question", the question's position among its entity's questions. */
    position?: number;
    /** ERBench logs: the record carries a gold answer (a measured question, not a knowledge question). */
    graded?: boolean;
    /** The log records a failed call here ("RESPONSE ERROR"), not an answer: replaying it is that recorded error. */
    error?: string;
}

/** Questions match whatever the whitespace and case of the transcript. */
export function textKey(text: string): string {
    return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A logged prompt without its "Q:" / "A:" frame (the ERBench multiple-choice logs frame every question so). */
function unframed(key: string): string {
    return key.replace(/^q:\s*/, '').replace(/\s*a:$/, '');
}

const ANSWER_FIELDS = ['answer', 'response', 'text', 'output', 'completion'];
const ID_FIELDS = ['id', 'question_id', 'questionId'];
const QUESTION_FIELDS = ['question', 'prompt', 'input'];

function field(row: Record<string, unknown>, names: string[]): string | undefined {
    for (const n of names) {
        const v = row[n];
        if (typeof v === 'string' || typeof v === 'number') return String(v);
    }
    return undefined;
}

function fromRow(row: Record<string, unknown>): ReplayRecord | undefined {
    const answer = field(row, ANSWER_FIELDS);
    if (answer === undefined) return undefined;
    const rec: ReplayRecord = { answer };
    const id = field(row, ID_FIELDS);
    const question = field(row, QUESTION_FIELDS);
    const sample = Number(field(row, ['sample']));
    if (id) rec.id = id;
    if (question) rec.question = question;
    if (Number.isInteger(sample)) rec.sample = sample;
    return rec;
}

export type ReplayFormat = 'jsonl' | 'csv' | 'erbench';

function detectFormat(file: string, explicit?: string): ReplayFormat {
    if (explicit === 'jsonl' || explicit === 'csv' || explicit === 'erbench') return explicit;
    const ext = path.extname(file).toLowerCase();
    if (ext === '.csv') return 'csv';
    if (ext === '.log' || ext === '.txt') return 'erbench';
    return 'jsonl';
}

/** A record of a transcript that is no answer (code `replay-record`), with its line where it has one. */
function unread(message: string, line?: number, remedy?: string): Problem {
    return {
        severity: 'warning',
        code: 'replay-record',
        message,
        ...(remedy ? { remedy } : {}),
        ...(line !== undefined ? { lines: [line] } : {}),
    };
}

const NO_ANSWER = `Give the record one of the fields ${ANSWER_FIELDS.join(', ')}.`;

/** Reads a transcript; `problems` names the records that could not be read (warnings, their lines in `lines`). */
export function readTranscript(text: string, format: ReplayFormat): { records: ReplayRecord[]; problems: Problem[] } {
    const problems: Problem[] = [];
    if (format === 'erbench') {
        const records = isChoiceLog(text) ? parseErbenchChoiceLog(text) : parseErbenchLog(text);
        // The authors logged a failed API call as the answer "RESPONSE ERROR" (and left it out of their figures):
        // it is no answer of the model — replaying it is that recorded error (its question unanswered, not scored).
        const failed = records.filter(r => r.answer.trim() === 'RESPONSE ERROR');
        for (const r of failed)
            problems.push(unread(`record ${r.row}-${r.phrasing}: "RESPONSE ERROR" is a failed call, not an answer`));
        return {
            records: records.map(r => {
                const rec: ReplayRecord = {
                    question: r.question,
                    answer: r.answer,
                    position: r.phrasing,
                    graded: r.gold !== '' && r.gold !== 'none',
                };
                if (r.answer.trim() === 'RESPONSE ERROR') {
                    rec.answer = '';
                    rec.error = 'RESPONSE ERROR';
                }
                return rec;
            }),
            problems,
        };
    }
    if (format === 'csv') {
        const rows = parseCsv(text, { columns: true, skip_empty_lines: true, relax_column_count: true, bom: true }) as Record<
            string,
            unknown
        >[];
        const records: ReplayRecord[] = [];
        rows.forEach((row, i) => {
            const rec = fromRow(row);
            if (rec) records.push(rec);
            else problems.push(unread(`row ${i + 2}: no answer column (${ANSWER_FIELDS.join(', ')})`, i + 2, NO_ANSWER));
        });
        return { records, problems };
    }
    const records: ReplayRecord[] = [];
    text.split(/\r?\n/).forEach((line, i) => {
        if (line.trim() === '') return;
        try {
            const rec = fromRow(JSON.parse(line) as Record<string, unknown>);
            if (rec) records.push(rec);
            else problems.push(unread(`line ${i + 1}: no answer field (${ANSWER_FIELDS.join(', ')})`, i + 1, NO_ANSWER));
        } catch {
            problems.push(unread(`line ${i + 1}: not JSON`, i + 1, 'Write one JSON object a line.'));
        }
    });
    return { records, problems };
}

export class ReplayClient implements ModelClient {
    readonly cacheable = false;
    readonly displayName: string;
    private readonly byId = new Map<string, ReplayRecord[]>();
    private readonly byText = new Map<string, ReplayRecord[]>();
    private readonly records: ReplayRecord[];
    /** Knowledge records by position, then by word of their question (built on the first match by entity). */
    private byWord: Map<number, Map<string, ReplayRecord[]>> | undefined;
    /** The records of its files that are no answer, each located at its file. */
    readonly problems: Problem[];
    readonly size: number;

    constructor(name: string, records: ReplayRecord[], problems: Problem[] = []) {
        this.displayName = `${name} (replay)`;
        this.problems = problems;
        this.size = records.length;
        this.records = records;
        for (const r of records) {
            if (r.id) push(this.byId, r.id, r);
            if (r.question) {
                const key = textKey(r.question);
                push(this.byText, key, r);
                if (unframed(key) !== key) push(this.byText, unframed(key), r);
            }
        }
    }

    static fromFile(name: string, file: string, format?: string): ReplayClient {
        return ReplayClient.fromFiles(name, [file], format);
    }

    static fromFiles(name: string, files: string[], format?: string): ReplayClient {
        const records: ReplayRecord[] = [];
        const problems: Problem[] = [];
        for (const file of files) {
            let text: string;
            try {
                text = readFileSync(file, 'utf8');
            } catch (e) {
                throw new ModelError(
                    'request',
                    `replay file ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}); check the file setting.`,
                );
            }
            const read = readTranscript(text, detectFormat(file, format));
            records.push(...read.records);
            problems.push(...read.problems.map(p => ({ ...p, location: { file } })));
        }
        return new ReplayClient(name, records, problems);
    }

    private readonly used = new Set<ReplayRecord>();

    /** Recorded answers that no question asked so far matched (a phrasing the spec lacks, a row it skipped). */
    unmatched(): { unmatched: number; records: number } {
        return { unmatched: this.records.length - this.used.size, records: this.records.length };
    }

    lookup(request: CompletionRequest): ReplayRecord | undefined {
        const q = request.question;
        const candidates =
            (q && this.byId.get(q.id)) ??
            (q && (this.byText.get(textKey(q.question)) ?? this.byText.get(unframed(textKey(q.question))))) ??
            this.byText.get(textKey(lastUser(request) ?? '')) ??
            (q?.replayByEntity !== undefined ? this.byEntity(q.entity.key, q.replayByEntity) : undefined);
        if (!candidates) return undefined;
        // a logged failed call answers only when no record of the same question holds an answer
        const answered = candidates.some(c => c.error) ? candidates.filter(c => !c.error) : candidates;
        const pool = answered.length > 0 ? answered : candidates;
        return pool.find(c => c.sample === request.sample) ?? pool[Math.min(request.sample, pool.length - 1)];
    }

    /**
     * The recorded knowledge question (no gold) at `position` that names every one of the entity's key values as
     * words; of several, the shortest ("Up" before "Up in the Air"). Undefined when none does.
     */
    private byEntity(key: readonly string[], position: number): ReplayRecord[] | undefined {
        const values = key.map(textKey).filter(Boolean);
        if (values.length === 0) return undefined;
        const index = (this.byWord ??= this.indexWords()).get(position);
        const anchor = values.flatMap(words).sort((a, b) => b.length - a.length)[0];
        const pool = anchor ? index?.get(anchor) : undefined;
        if (!pool) return undefined;
        const hits = pool.filter(r => {
            const text = textKey(r.question!);
            return values.every(v => containsWords(text, v));
        });
        if (hits.length === 0) return undefined;
        const shortest = Math.min(...hits.map(r => r.question!.length));
        return hits.filter(r => r.question!.length === shortest);
    }

    private indexWords(): Map<number, Map<string, ReplayRecord[]>> {
        const out = new Map<number, Map<string, ReplayRecord[]>>();
        for (const r of this.records) {
            if (r.graded || !r.question) continue;
            const position = r.position ?? 0;
            let byWord = out.get(position);
            if (!byWord) {
                byWord = new Map();
                out.set(position, byWord);
            }
            for (const w of new Set(words(textKey(r.question)))) push(byWord, w, r);
        }
        return out;
    }

    async complete(request: CompletionRequest): Promise<Completion> {
        const rec = this.lookup(request);
        if (rec) this.used.add(rec);
        if (!rec) throw new ModelError('no_answer', `no recorded answer for question ${request.question?.id ?? ''}`.trim());
        if (rec.error)
            throw new ModelError(
                'recorded_error',
                `the replayed log records a failed call for this question ("${rec.error}"), not an answer`,
            );
        return { text: rec.answer, tokens: { input: 0, output: 0 }, latencyMs: 0, finishReason: 'replay' };
    }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
}

function words(text: string): string[] {
    return text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** `value`'s words appear in `text` in a row, not as part of longer words ("up" is not in "update"). */
function containsWords(text: string, value: string): boolean {
    const want = words(value).join(' ');
    return want !== '' && ` ${words(text).join(' ')} `.includes(` ${want} `);
}

function lastUser(request: CompletionRequest): string | undefined {
    for (let i = request.messages.length - 1; i >= 0; i--)
        if (request.messages[i]!.role === 'user') return request.messages[i]!.content;
    return undefined;
}
