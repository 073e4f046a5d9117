/**
 * The adapter between the extension and the engine rooms (data, probes, run, store, verify, report): calls into
 * them with the shapes engine.ts needs. The store, runner and reports are imported lazily: better-sqlite3 is
 * native, and a missing prebuild must become a message (see native.ts), not a failure to load the extension.
 */
import type { SpecModel } from '../core/spec/index.js';
import type { LoadedData } from '../core/data/index.js';
import type { ChatMessage } from '../core/probes/index.js';
import type { Store } from '../core/store/index.js';
import type { GenerateOptions } from '../core/probes/index.js';
import type { ReportFormat } from '../core/report/index.js';
import type { ModelDecl } from '../core/spec/index.js';
import type { ConfirmHost, SecretSource } from '../core/models/index.js';
import type { RunSpecResult } from '../core/run/index.js';
import type { ReviewAction, ReviewRound } from '../core/review/index.js';
import type { ReviewLabel } from '../core/store/index.js';
import type { ReviewView } from '../protocol/webview.js';
import { countMessageTokens } from '../core/models/index.js';
import { problemWords } from '../core/errors.js';
import { loadData as loadTables, DataCache } from '../core/data/index.js';
import {
    previewSpec,
    powerSummary,
    suitePower as enginePower,
    type Preview,
    type PreviewBlocked,
    type PreviewRequest,
} from '../core/run/index.js';

/**
 * `generating`: the questions are still being generated, so `total` is only what has been generated so far.
 * `batches`: a batch run's provider batches and their states.
 */
export interface RunProgress {
    done: number;
    total: number;
    generating: boolean;
    questions: number;
    cached: number;
    failed: number;
    cost: number;
    batches?: { id: string; status: string; requests: number; done: number; failed: number }[];
    /** The store stopped taking writes: what is held in memory and what to do (the engine's words, as the CLI prints them). */
    held?: string;
}

export interface RunRequest extends GenerateOptions {
    file: string;
    /** Model name (declared in the spec or in settings); undefined → the suite's models, else the offline simulator. */
    model?: string;
    /** Only these questions (a Test Explorer selection); undefined → the whole suite / probe. */
    questionIds?: string[];
    db: string;
    concurrency: number;
    extraModels: ModelDecl[];
    secrets: SecretSource;
    confirmHost: ConfirmHost;
    /** Asked when the cost estimate is above the threshold (the same gate as the CLI's). */
    confirmCost: (usd: number) => Promise<boolean>;
    /** Send it to the provider's Batch API (true), ask now (false), or as the suite says (undefined). */
    batch?: boolean;
    signal: AbortSignal;
    onProgress: (p: RunProgress) => void;
}

const cache = new DataCache();

export function loadData(spec: SpecModel, signal?: AbortSignal): Promise<LoadedData> {
    return loadTables(spec, cache, signal);
}

/** The engine's preview step with the extension's data cache. */
export function preview(
    file: string,
    options: GenerateOptions,
    load: PreviewRequest['load'],
    signal?: AbortSignal,
): Promise<Preview | PreviewBlocked> {
    return previewSpec({ spec: file, ...options, load, cache, signal });
}

/** The engine's power before a run (`halluprobe estimate --power`) of one suite, in the words the run picker shows. */
export async function suitePower(
    file: string,
    suite: string,
    load: PreviewRequest['load'],
    signal?: AbortSignal,
): Promise<string | undefined> {
    const r = await enginePower({ spec: file, suite, load, cache, signal });
    return r.blocked ? undefined : powerSummary(r);
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
    try {
        return await fn(store);
    } finally {
        await store.close();
    }
}

/** The engine's own run step (`runSpec`, as `halluprobe run` uses it) with the editor's callbacks. */
export async function runSuite(req: RunRequest): Promise<RunSpecResult> {
    const { heldLine, runSpec } = await import('../core/run/index.js');
    return runSpec({
        spec: req.file,
        suite: req.suite,
        probe: req.probe,
        questionIds: req.questionIds,
        limit: req.limit,
        seed: req.seed,
        models: req.model ? [req.model] : undefined,
        extraModels: req.extraModels,
        db: req.db,
        concurrency: req.concurrency,
        batch: req.batch,
        secrets: req.secrets,
        confirmHost: req.confirmHost,
        confirmCost: usd => req.confirmCost(usd),
        cache,
        signal: req.signal,
        origin: 'vscode',
        onProgress: p => {
            const held = heldLine(p);
            req.onProgress({
                done: p.done,
                total: p.total,
                generating: p.generating,
                questions: p.questions,
                cached: p.cached,
                failed: p.failed,
                cost: p.cost,
                ...(p.batches
                    ? {
                          batches: p.batches.map(b => ({
                              id: b.id,
                              status: b.status,
                              requests: b.requests,
                              done: b.done,
                              failed: b.failed,
                          })),
                      }
                    : {}),
                ...(held ? { held } : {}),
            });
        },
    });
}

/** The engine's report step (`loadReport`, as `halluprobe report` uses it), rendered. */
export async function report(db: string, runId: string, format: ReportFormat): Promise<{ text: string; note?: string }> {
    const { loadReport, renderReport } = await import('../core/report/index.js');
    return withStore(db, async store => {
        const { data, problems } = await loadReport(store, runId, { cache });
        // A toast has no place for a location: each problem as its message and remedy.
        const note = problems.map(problemWords).join(' ');
        return note ? { text: renderReport(data, format), note } : { text: renderReport(data, format) };
    });
}

/** The engine's paired comparison of the runs' cells (`halluprobe compare`), as the Compare Models panel shows it. */
export async function compareModels(db: string, runIds: string[]) {
    const { loadReport, compareCells, compareGrid } = await import('../core/report/index.js');
    return withStore(db, async store => {
        const reports = [];
        for (const id of runIds) reports.push((await loadReport(store, id, { cache })).data);
        return compareGrid(compareCells(reports));
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

/** Which answers a review takes and who labels them (the editor's Review Answers, as `halluprobe review` takes them). */
export interface ReviewOpenOptions {
    reviewer?: string;
    probes?: string[];
    model?: string;
    seed?: number;
    target?: number;
    first?: string;
}

/** The engine's review step (`reviewSample`, as `halluprobe review` uses it) as a round, and the panel's view of it. */
export async function openReview(
    db: string,
    runId: string,
    o: ReviewOpenOptions,
): Promise<{ round: ReviewRound; view: ReviewView }> {
    const { reviewSample, ReviewRound: Round, defaultReviewer } = await import('../core/review/index.js');
    const reviewer = o.reviewer ?? defaultReviewer();
    const { reviewView } = await import('../core/report/index.js');
    return withStore(db, async store => {
        const session = await reviewSample(store, runId, {
            reviewer,
            seed: o.seed ?? 1,
            ...(o.probes ? { probes: o.probes } : {}),
            ...(o.model ? { model: o.model } : {}),
        });
        const round = new Round(session, reviewer, o.target, o.first);
        return { round, view: reviewView(round) };
    });
}

/** A key of the review on the answer `shown` (the label stored at once, as in the terminal); the panel's next view. */
export async function reviewKey(
    db: string,
    round: ReviewRound,
    action: ReviewAction,
    shown?: string,
): Promise<{ view: ReviewView; stored: boolean }> {
    const { reviewView } = await import('../core/report/index.js');
    return withStore(db, async store => {
        const outcome = await round.act(store, action, shown);
        return { view: reviewView(round, outcome), stored: outcome.kind === 'labelled' || outcome.kind === 'undone' };
    });
}

/** A run's review labels (every reviewer's), for the CodeLens's trust line. */
export async function reviewLabels(db: string, runId: string): Promise<ReviewLabel[]> {
    return withStore(db, store => store.labels(runId));
}
