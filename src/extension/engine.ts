/**
 * The one door from the extension to the engine. Commands, the Test Explorer and the panels call these
 * functions and only shape their results for VS Code; no generation, running or verification logic lives
 * in the extension. Everything here is plain data in, plain data out (no 'vscode' import).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSpec, type SpecDiagnostic } from '../core/spec/index.js';
import type { ModelDecl, SpecModel } from '../core/spec/index.js';
import { isPostgresUrl, type LoadedData } from '../core/data/index.js';
import { goldText, type Question } from '../core/probes/index.js';
import { resolveModel, forecastCost } from '../core/models/index.js';
import type { RunCounts, RunRecord, RunResults } from '../core/store/index.js';
import type { ReportFormat } from '../core/report/index.js';
import { neighbourhoodView, questionView as kgQuestionView, schemaView as kgSchemaView, type NodeRef } from '../core/kg/index.js';
import { previewRule, previewText } from '../core/rules/index.js';
import { fromDiagnostic, HalluProbeError } from '../core/errors.js';
import type { DrawnGraph, ModelCostForecast, PreviewData, PreviewRow } from '../protocol/webview.js';
import type { GenerateOptions } from '../core/probes/index.js';
import {
    availableModels as specAndSettingModels,
    batchable,
    defaultModel,
    priceText,
    suiteRunModel,
    type RunSpecResult,
} from '../core/run/index.js';
import * as core from './core-adapter.js';
import type { RunRequest } from './core-adapter.js';

export type { GenerateOptions, RunSpecResult, ReportFormat };
export type { RunProgress, RunRequest } from './core-adapter.js';

export interface SpecView {
    file: string;
    spec: SpecModel;
    diagnostics: SpecDiagnostic[];
}

export interface Generated {
    file: string;
    spec: SpecModel;
    data: LoadedData;
    questions: Question[];
    /** Why rows were skipped, and generation problems, in words. */
    notes: string[];
    /** True when `limit` cut the generation short. */
    truncated: boolean;
}

/** The spec as written; `texts` holds unsaved editor text by path (the graph and CodeLens follow edits). */
export function specView(file: string, texts?: ReadonlyMap<string, string>): Promise<SpecView> {
    return serialised(async () => {
        const { model, diagnostics } = await loadSpec(file, texts);
        return { file, spec: model, diagnostics };
    });
}

let queue: Promise<unknown> = Promise.resolve();
/** loadSpec shares one Langium workspace: the CodeLens, the graph and the Test Explorer take turns. */
function serialised<T>(fn: () => Promise<T>): Promise<T> {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
}

/**
 * The engine's preview step (`previewSpec`, as `halluprobe preview` uses it), up to `limit` questions. Spec errors
 * and data that cannot be read (a missing file or column) are thrown as one message, as the CLI stops on them.
 */
export async function generate(file: string, options: GenerateOptions, signal?: AbortSignal): Promise<Generated> {
    const load = (spec: string) => serialised(() => loadSpec(spec));
    const preview = await core.preview(file, options, load, signal);
    if (preview.blocked) throw new HalluProbeError(preview.diagnostics.map(fromDiagnostic));
    return {
        file,
        spec: preview.spec,
        data: preview.data,
        questions: preview.questions,
        notes: preview.notes,
        truncated: preview.limited,
    };
}

/** Per suite, what a paired comparison of its questions can detect (undefined: the spec or its data stop generation). */
export function suitePower(file: string, suite: string, signal?: AbortSignal): Promise<string | undefined> {
    return core.suitePower(file, suite, spec => serialised(() => loadSpec(spec)), signal);
}

/** Every model a spec can run: its own declarations, then those from settings not shadowed by them (the engine's rule). */
export function availableModels(spec: Pick<SpecModel, 'models'> | undefined, extra: readonly ModelDecl[]): ModelDecl[] {
    return specAndSettingModels(spec?.models ?? [], extra);
}

export { defaultModel, suiteRunModel };

export function costForecasts(
    questions: readonly Question[],
    models: readonly ModelDecl[],
    tokens?: readonly number[],
): ModelCostForecast[] {
    const requests = questions.map((q, i) => ({ messages: q.messages, ...(tokens ? { tokens: tokens[i]! } : {}) }));
    return models.map(decl => {
        const { model } = resolveModel(decl);
        if (!model)
            return {
                model: decl.name,
                questions: questions.length,
                inputTokens: 0,
                outputTokens: 0,
                cost: null,
                costText: priceText(null),
            };
        const e = forecastCost(model, requests);
        return {
            model: decl.name,
            questions: e.requests,
            inputTokens: e.inputTokens,
            outputTokens: e.outputTokens,
            cost: e.usd ?? null,
            costText: priceText(e.usd),
        };
    });
}

/** The preview table's rows (token counts included) and notes. */
export function previewData(gen: Generated, models: readonly ModelDecl[], title: string): PreviewData {
    const rows: PreviewRow[] = gen.questions.map(q => {
        const src = q.source.rows[0];
        return {
            id: q.id,
            probe: q.probe,
            kind: q.kind,
            phrasing: q.phrasing,
            question: q.question,
            gold: goldText(q),
            keywords: q.keywords.map(h => h.map(k => k.value)),
            tokens: core.tokens(q.messages),
            ...(src ? { source: { file: src.file, line: src.line, label: `${path.basename(src.file)}:${src.line}` } } : {}),
        };
    });
    const notes = [...gen.notes];
    if (gen.truncated) notes.push(`Showing the first ${gen.questions.length} questions (setting halluprobe.preview.limit).`);
    return {
        title,
        spec: gen.file,
        rows,
        forecasts: costForecasts(
            gen.questions,
            models,
            rows.map(r => r.tokens),
        ),
        notes,
    };
}

/** The graph panel's views, as the engine's kg computes and draws them. */
export const schemaView = kgSchemaView;
export const questionView = kgQuestionView;

/** Whether a model can be run as a batch (the Test Explorer offers a batch profile for it). */
export function batchableModel(decl: ModelDecl): boolean {
    return batchable([decl]);
}

/**
 * Whether a run of this suite (with its models, or `model`) can go to a provider's Batch API, and whether the suite
 * asks for that itself (`batch true`): the run picker offers a batch run then.
 */
export async function batchOffer(
    file: string,
    suite: string | undefined,
    model: string | undefined,
    extra: ModelDecl[],
): Promise<{ can: boolean; suiteSays: boolean }> {
    const { spec } = await specView(file);
    const { resolveRunModels, batchable, suiteAsksBatch } = await import('../core/run/index.js');
    const said = suiteAsksBatch(spec.suites.find(s => s.name === suite));
    try {
        return { can: batchable(resolveRunModels(spec, model ? [model] : undefined, suite, extra)), suiteSays: said };
    } catch {
        return { can: false, suiteSays: false };
    }
}

export async function run(req: RunRequest): Promise<RunSpecResult> {
    if (!isPostgresUrl(req.db)) fs.mkdirSync(path.dirname(req.db), { recursive: true });
    return core.runSuite(req);
}

/** A store that has no results yet: a file not made (a server store is asked). */
const noStoreYet = (db: string) => !isPostgresUrl(db) && !fs.existsSync(db);

export async function results(db: string, runId?: string): Promise<RunResults | undefined> {
    if (noStoreYet(db)) return undefined;
    return core.withStore(db, async store => {
        const id = runId ?? (await store.latestRun())?.id;
        return id ? store.loadRunResults(id) : undefined;
    });
}

/** The runs of a store, newest first. */
export async function runs(db: string): Promise<RunRecord[]> {
    if (noStoreYet(db)) return [];
    return core.withStore(db, store => store.listRuns());
}

/** The newest run of a store (of one spec, when given). */
export async function latestRun(db: string, spec?: string): Promise<RunRecord | undefined> {
    return newestRun(await runs(db), spec);
}

/**
 * The newest run of a spec that has verdicts (what the CodeLens, failures and graph show), and the newer runs of that
 * spec without any (a run against a dead server, one cancelled or interrupted before verifying): those never replace
 * the figures, they are named beside them. Looks at the spec's ten newest runs.
 */
export async function latestAnswered(db: string, spec: string): Promise<{ results?: RunResults; newer: RunRecord[] }> {
    const mine = (await runs(db)).filter(r => r.spec === spec).slice(0, 10);
    const newer: RunRecord[] = [];
    for (const run of mine) {
        const res = await results(db, run.id);
        if (res && res.verdicts.length > 0) return { results: res, newer };
        newer.push(run);
    }
    return { newer };
}

/** A run's counts (what a cancelled or interrupted run kept, to resume). */
export async function runCounts(db: string, runId: string): Promise<RunCounts | undefined> {
    if (noStoreYet(db)) return undefined;
    return core.withStore(db, store => store.counts(runId));
}

/** The newest of runs listed as the store lists them (newest first). */
export function newestRun(list: readonly RunRecord[], spec?: string): RunRecord | undefined {
    return list.find(r => spec === undefined || r.spec === spec);
}

/** The same report as `halluprobe report`: missing answers verified, overrides applied. */
export function report(db: string, runId: string, format: ReportFormat): Promise<{ text: string; note?: string }> {
    return core.report(db, runId, format);
}

export function compareModels(db: string, runIds: string[]): ReturnType<typeof core.compareModels> {
    return core.compareModels(db, runIds);
}

/** Review Answers: the round and its view, a key on it, and a run's labels (the engine's review steps; core-adapter.ts). */
export const openReview = core.openReview;
export const reviewKey = core.reviewKey;
export async function reviewLabels(db: string, runId: string): Promise<import('../core/store/index.js').ReviewLabel[]> {
    if (noStoreYet(db)) return [];
    return core.reviewLabels(db, runId);
}
export type { ReviewOpenOptions } from './core-adapter.js';

export function compare(db: string, a: string, b: string): Promise<string> {
    return core.compare(db, a, b);
}

/** The same import as `halluprobe import`: a SQLite file, a folder of CSV files or a postgres:// URL → a spec file. */
export async function importDatabase(
    options: import('../core/schema/index.js').ImportOptions,
): Promise<import('../core/schema/index.js').ImportResult> {
    const { importDatabase: run } = await import('../core/schema/index.js');
    return run(options);
}

/** A spec and its data (the data from the shared cache), without generating any question. */
export async function specData(file: string): Promise<Pick<Generated, 'spec' | 'data'>> {
    const { spec } = await specView(file);
    return { spec, data: await core.loadData(spec) };
}

/** What a rule derives, as the text the "Preview derived facts" lens shows (the engine's rules/preview). */
export async function rulePreview(file: string, rule: string): Promise<string> {
    const { spec, data } = await specData(file);
    return previewText(previewRule(spec, data, rule, 20));
}

/** What expanding a graph node adds: the data one hop from it, drawn by the engine's kg. */
export function neighbourhood(gen: Pick<Generated, 'spec' | 'data'>, node: NodeRef): DrawnGraph {
    return neighbourhoodView(gen.spec, gen.data, node);
}
