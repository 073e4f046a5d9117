/**
 * `previewSpec`: one user action "show me the questions of this spec", the same from `halluprobe preview` and from
 * the editor's Preview Questions. Load and check the spec → the run's data gate (a missing file or column, an
 * unreadable source stops it; key / FD / FK violations only make rows skip) → generate (up to `limit`) → say in
 * words what was skipped and why. No model is called. The faces print or show the result; they never word a skip
 * reason, decide the gate or count on their own.
 */
import * as path from 'node:path';
import { loadSpec, type LoadedSpec, type SpecDiagnostic } from '../spec/load.js';
import { dataOptionsFor } from '../spec/check.js';
import type { SpecModel } from '../spec/model.js';
import { dataGate, loadData, type DataCache } from '../data/index.js';
import type { LoadedData } from '../data/types.js';
import {
    generateQuestions,
    probeDiagnostics,
    type GenerateOptions,
    type GenerationStats,
    type ProbeStats,
} from '../probes/index.js';
import type { Question } from '../probes/question.js';
import { existsSync } from 'node:fs';
import { isPostgresUrl, openStore } from '../store/index.js';
import { storePath } from '../places.js';
import { CacheView, readAheadAids, StoreAids, storeAids } from './aids.js';

export interface PreviewRequest extends GenerateOptions {
    /** The spec file (absolute or relative to the working directory). */
    spec: string;
    /** How to load and check the spec (default: `loadSpec`; the editor queues its loads on one Langium workspace). */
    load?: (file: string) => Promise<{ model: SpecModel; diagnostics: SpecDiagnostic[] }>;
    cache?: DataCache;
    signal?: AbortSignal;
    /** Called with the checked spec before its data is read (the CLI says where each source resolved to). */
    onSpec?: (spec: SpecModel) => void;
    /** Called with each question as it is generated; when given, `questions` stays empty (nothing is held). */
    onQuestion?: (q: Question) => void;
    /**
     * The results store whose cache holds the answers of the models generation reads (evidence enrich_with, open
     * embeddings); default `.halluprobe/results.db` beside the spec. Read only when it exists; nothing is asked.
     */
    db?: string;
}

/** The preview stopped before generating: the spec has errors, or its data cannot be read. */
export interface PreviewBlocked {
    blocked: 'spec' | 'data';
    /** The errors that stopped it. */
    diagnostics: SpecDiagnostic[];
}

export interface Preview {
    blocked?: undefined;
    spec: SpecModel;
    data: LoadedData;
    questions: Question[];
    stats: GenerationStats;
    /** True when the limit stopped generation (more rows were left to read). */
    limited: boolean;
    /** Data errors that did not stop the preview (key, FD, FK violations): their rows are skipped. */
    dataProblems: SpecDiagnostic[];
    /** Why a selected probe, suite or variant gives fewer questions than it might (generation and probe checks). */
    problems: SpecDiagnostic[];
    /** The whole account in one line: questions per probe and the rows each read, rows per relation, rows skipped. */
    summary: string;
    /** Per probe, in words: problems, rows skipped and why, the family's own notes. */
    notes: string[];
}

export async function previewSpec(req: PreviewRequest): Promise<Preview | PreviewBlocked> {
    const loaded = await (req.load ?? loadSpec)(path.resolve(req.spec));
    const specErrors = loaded.diagnostics.filter(d => d.severity === 'error');
    if (specErrors.length > 0) return { blocked: 'spec', diagnostics: specErrors };
    const spec = loaded.model;
    req.onSpec?.(spec);
    // The run's gate (runSpec's loadRunData): the questions previewed are the questions a run would ask.
    // Placed as `check` places them (a broken key at its `key (…)`, not at its relation): one mistake, one place.
    const placed =
        'documents' in loaded ? dataOptionsFor(loaded as Pick<LoadedSpec, 'model' | 'documents'>, loaded.diagnostics) : undefined;
    const data = await loadData(spec, req.cache, req.signal, placed);
    const { blocking, skipping } = dataGate(data.diagnostics);
    if (blocking.length > 0) return { blocked: 'data', diagnostics: blocking };

    const { spec: _, load: __, cache: ___, signal: ____, onSpec: _____, onQuestion, db, ...options } = req;
    // Answers of the models generation reads come from the store's cache, as a run reads them; none is asked here.
    const file = storePath(db, path.resolve(req.spec));
    const store = isPostgresUrl(file) || existsSync(file) ? await openStore(file) : undefined;
    try {
        const generate = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as GenerateOptions;
        const view = store && new CacheView(store);
        if (view) await readAheadAids(spec, data, generate, view);
        const aids = view ? storeAids(spec, view) : new StoreAids(spec, () => undefined);
        const generation = generateQuestions(spec, data, { ...generate, aids });
        const questions: Question[] = [];
        for (const q of generation.questions) {
            if (onQuestion) onQuestion(q);
            else questions.push(q);
        }
        const seen = new Set(generation.diagnostics.map(diagnosticKey));
        const problems = [...generation.diagnostics, ...probeDiagnostics(spec, data).filter(d => !seen.has(diagnosticKey(d)))];
        const stats = generation.stats;
        const notes = previewNotes(stats, problems);
        if (aids.wanted.size > 0)
            notes.push(
                `${aids.wanted.size} model answer(s) that generation reads (enrich_with, embeddings) are not in the store yet: a run asks for them; until then those cases are left out or fall back.`,
            );
        return {
            spec,
            data,
            questions,
            stats,
            limited: stats.limited === true,
            dataProblems: skipping,
            problems,
            summary: previewSummary(stats, data.tables),
            notes,
        };
    } finally {
        await store?.close();
    }
}

const diagnosticKey = (d: SpecDiagnostic) => `${d.file}:${d.range.start.line}:${d.code}:${d.message}`;

type SkipField = 'skippedNull' | 'skippedViolating' | 'skippedDangling' | 'skippedCycle' | 'skippedInvalid' | 'skippedUnderived';

/** Why rows were skipped, in words (the one wording of every face). */
const SKIP_REASONS: ReadonlyArray<readonly [SkipField, string]> = [
    ['skippedNull', 'with empty values'],
    ['skippedViolating', 'in FD-violating groups or repeating a key'],
    ['skippedDangling', 'with a dangling fk'],
    ['skippedCycle', 'on a cyclic path'],
    ['skippedInvalid', 'where a condition failed'],
    ['skippedUnderived', 'with no derived fact of the rule'],
];

/** "3 with empty values", "1 with a dangling fk", … for each reason that skipped rows. */
function skippedRows(stats: ProbeStats): string[] {
    return SKIP_REASONS.filter(([k]) => (stats[k] ?? 0) > 0).map(([k, s]) => `${stats[k]} ${s}`);
}

const skippedText = (stats: ProbeStats) => {
    const skipped = skippedRows(stats);
    return skipped.length ? `rows skipped: ${skipped.join(', ')}` : 'no rows skipped';
};

/**
 * Says what each count counts: questions per probe and the rows each probe read (a probe reads its relation's
 * rows once per phrasing), and the rows each relation has, so "360 questions" from a 60-row file adds up.
 */
export function previewSummary(stats: GenerationStats, tables: ReadonlyMap<string, { rowCount: number }>): string {
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const probes = Object.entries(stats.byProbe)
        .map(([name, s]) => `${name} ${s.generated} from ${plural(s.rows, 'row')}`)
        .join(', ');
    const relations = [...tables].map(([name, t]) => `${name} ${plural(t.rowCount, 'row')}`).join(', ');
    // The families' own accounts (Plan.summary), e.g. evidence swaps dropped by validation.
    const notes = Object.entries(stats.byProbe)
        .flatMap(([name, s]) => (s.notes ?? []).map(n => `\n${name}: ${n}`))
        .join('');
    return `${plural(stats.generated, 'question')}${probes ? ` (${probes})` : ''}; data: ${relations || 'none'}; ${skippedText(stats)}.${notes}`;
}

/** The preview's notes, one per line: generation problems (`file:line: message`), then per probe what it skipped and its own notes. */
function previewNotes(stats: GenerationStats, problems: readonly SpecDiagnostic[]): string[] {
    const notes = problems.map(d => `${path.basename(d.file)}:${d.range.start.line + 1}: ${d.message}`);
    for (const [probe, st] of Object.entries(stats.byProbe)) {
        if (skippedRows(st).length) notes.push(`${probe}: ${skippedText(st)}.`);
        for (const n of st.notes ?? []) notes.push(`${probe}: ${n}`);
    }
    return notes;
}
