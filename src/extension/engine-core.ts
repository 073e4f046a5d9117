/**
 * Calls into the engine rooms (data, probes, run, store, verify, report) with the shapes engine.ts needs.
 * The store, runner and reports are imported lazily: better-sqlite3 is native, and a missing prebuild must
 * become a message (see native.ts), not a failure to load the extension.
 */
import * as path from 'node:path';
import type { SpecModel } from '../core/spec/model.js';
import type { LoadedData } from '../core/data/types.js';
import type { ChatMessage, Question } from '../core/probes/question.js';
import type { Store } from '../core/store/index.js';
import type { GenerateOptions, RunRequest, ReportFormat } from './engine.js';
import type { RunSpecResult } from '../core/run/spec-run.js';
import { countMessageTokens } from '../core/models/index.js';
import { loadData as loadTables, DataCache } from '../core/data/index.js';
import { generateQuestions as generate } from '../core/probes/index.js';

const cache = new DataCache();

export function loadData(spec: SpecModel, signal?: AbortSignal): Promise<LoadedData> {
    return loadTables(spec, cache, signal);
}

/** The data behind a run, with the run's gate (a missing file or column stops it). */
export async function loadRunData(spec: SpecModel, signal?: AbortSignal): ReturnType<typeof import('../core/run/spec-run.js').loadRunData> {
    const { loadRunData: load } = await import('../core/run/spec-run.js');
    return load(spec, cache, signal);
}

/** Collects the streamed generation up to `limit`, and says in words what was skipped and why. */
export function generateQuestions(spec: SpecModel, data: LoadedData, options: GenerateOptions): { questions: Question[]; notes: string[]; truncated: boolean } {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const gen = generate(spec, data, { ...options, limit: Number.isFinite(limit) ? limit + 1 : undefined });
    const questions: Question[] = [];
    for (const q of gen.questions) questions.push(q);
    const truncated = questions.length > limit;
    if (truncated) questions.length = limit;
    const notes = gen.diagnostics.map(d => `${path.basename(d.file)}:${d.range.start.line + 1}: ${d.message}`);
    for (const [probe, st] of Object.entries(gen.stats.byProbe)) {
        const skipped = [
            st.skippedNull && `${st.skippedNull} with empty values`, st.skippedViolating && `${st.skippedViolating} in FD-violating groups`,
            st.skippedDangling && `${st.skippedDangling} with dangling FKs`, st.skippedCycle && `${st.skippedCycle} on cycles`, st.skippedInvalid && `${st.skippedInvalid} invalid`,
            st.skippedUnderived && `${st.skippedUnderived} with no derived fact`,
        ].filter(Boolean);
        if (skipped.length) notes.push(`${probe}: skipped rows — ${skipped.join(', ')}.`);
        for (const n of st.notes ?? []) notes.push(`${probe}: ${n}`);
    }
    return { questions, notes, truncated };
}

export function tokens(messages: ChatMessage[]): number {
    return countMessageTokens(messages);
}

async function openStore(db: string): Promise<Store> {
    const { openStore: open } = await import('../core/store/index.js');
    return open(db);
}

export async function withStore<T>(db: string, fn: (store: Store) => T | Promise<T>): Promise<T> {
    const store = await openStore(db);
    try { return await fn(store); } finally { store.close(); }
}


/** The engine's own run step (`runSpec`, as `halluprobe run` uses it) with the editor's callbacks. */
export async function runSuite(req: RunRequest): Promise<RunSpecResult> {
    const { runSpec } = await import('../core/run/spec-run.js');
    return runSpec({
        spec: req.file, suite: req.suite, probe: req.probe, questionIds: req.questionIds, limit: req.limit, seed: req.seed,
        models: req.model ? [req.model] : undefined, extraModels: req.extraModels, db: req.db, concurrency: req.concurrency,
        secrets: req.secrets, confirmHost: req.confirmHost, confirmCost: usd => req.confirmCost(usd), cache, signal: req.signal, origin: 'vscode',
        onProgress: p => req.onProgress({ done: p.done, total: p.total, generating: p.generating, questions: p.questions, cached: p.cached, failed: p.failed, cost: p.cost }),
    });
}

/** The engine's report step (`loadReport`, as `halluprobe report` uses it), rendered. */
export async function report(db: string, runId: string, format: ReportFormat): Promise<{ text: string; note?: string }> {
    const { loadReport, renderReport } = await import('../core/report/index.js');
    return withStore(db, async store => {
        const { data, note } = await loadReport(store, runId, { cache });
        return note ? { text: renderReport(data, format), note } : { text: renderReport(data, format) };
    });
}

export async function compare(db: string, a: string, b: string): Promise<string> {
    const { loadReport, compareRuns, renderComparison } = await import('../core/report/index.js');
    return withStore(db, async store => {
        const ra = await loadReport(store, a, { cache });
        const rb = await loadReport(store, b, { cache });
        return renderComparison(compareRuns(ra.data, rb.data));
    });
}
