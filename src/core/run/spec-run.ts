/**
 * `runSpec`: one user action "run this suite (or probe, or these questions)", the same from the CLI and from the
 * editor. Load the spec → resolve the models → data-error gate → generate → prepare (keys, resume, estimate) →
 * cost gate → execute → verify. Faces pass callbacks for what only they can do (ask the user, draw progress)
 * and present the result; they never decide a default, a gate or a verdict themselves.
 */
import * as path from 'node:path';
import { loadSpec } from '../spec/load.js';
import type { ModelDecl, SpecModel } from '../spec/model.js';
import { dataGate, loadData, type DataCache } from '../data/index.js';
import type { LoadedData } from '../data/types.js';
import { generateQuestions } from '../probes/index.js';
import type { Question } from '../probes/question.js';
import {
    createClient,
    domainFromData,
    modelFromFlag,
    resolveKey,
    type ConfirmHost,
    type KeyBindings,
    type CostForecast,
    type SecretSource,
} from '../models/index.js';
import {
    openStore,
    type FailureSummary,
    type RunSettings,
    type RunCounts,
    type RunRecord,
    type RunResults,
    type RunStatus,
} from '../store/index.js';
import { verifyRun } from '../verify/run.js';
import { familyModelSteps } from '../probes/registry.js';
import { answerStepsOf } from './steps.js';
import { readWithModels } from '../verify/model-read.js';
import type { ResolvedModel } from '../models/providers.js';
import { fromDiagnostic, HalluProbeError, problem, type Problem } from '../errors.js';
import { prepareRun, startRun, type AnswerEvent, type PreparedRun, type Progress, type QuestionSource } from './prepare.js';
import { cliCommand } from '../invocation.js';
import { storePath } from '../places.js';
import { closest } from '../language/validation/suggest.js';
import type { ModelAids } from '../probes/contract/core.js';
import { fetchAids } from './aids.js';
import { availableModels, suiteAsksBatch } from './settings.js';
import { MODEL_SETTINGS } from '../models/settings.js';
import { inheritSettings } from '../spec/settings.js';

/** Above this estimate (US dollars) a run asks before spending; HALLUPROBE_CONFIRM_USD changes it. */
const CONFIRM_USD_DEFAULT = 1;

function confirmThreshold(env: NodeJS.ProcessEnv = process.env): number {
    const v = Number(env.HALLUPROBE_CONFIRM_USD);
    return env.HALLUPROBE_CONFIRM_USD !== undefined && Number.isFinite(v) ? v : CONFIRM_USD_DEFAULT;
}

export interface RunSpecRequest {
    /** The spec file (absolute or relative to the working directory). */
    spec: string;
    suite?: string;
    /** Only this probe (instead of a suite). */
    probe?: string;
    /** Only these questions (a Test Explorer selection): always a run of its own. */
    questionIds?: string[];
    limit?: number;
    seed?: number;
    /** Models by name or flag (a declared model, openai:<id>, replay:<file>, offline…); default: the suite's, else the offline simulator. */
    models?: string[];
    /** Models declared outside the spec (the editor's settings), after the spec's own. */
    extraModels?: ModelDecl[];
    /** Replay files named on a command line are relative to this folder (default: the working directory). */
    cwd?: string;
    /** The results store: a file (default: `.halluprobe/results.db` beside the spec) or a postgres:// URL. */
    db?: string;
    /** A server store's password is in this environment variable (else a saved password, PGPASSWORD, ~/.pgpass). */
    dbPasswordEnv?: string;
    /** A run id to continue, 'auto' (the latest unfinished run of this spec and suite) or 'new'. */
    resume?: string;
    concurrency?: number;
    /** Send the run to the provider's Batch API (also the suite setting `batch true`). */
    batch?: boolean;
    /** Be one of several workers on the run (`--join`): each claims chunks of its questions in turn. */
    join?: boolean;
    secrets?: SecretSource;
    confirmHost: ConfirmHost;
    /** Where a custom key variable's first confirmed origin is remembered. */
    bindings?: KeyBindings;
    /** Asked when the estimate is above the threshold; false stops before any call. */
    confirmCost: (usd: number, forecasts: CostForecast[]) => Promise<boolean>;
    env?: NodeJS.ProcessEnv;
    cache?: DataCache;
    signal?: AbortSignal;
    /** Called with the checked spec before its data is read (the CLI says where each source resolved to). */
    onSpec?: (spec: SpecModel) => void;
    /** Called once the run is prepared (what will be asked, what it costs), before the cost gate. */
    onPrepared?: (prepared: PreparedRun) => void;
    onProgress?: (p: Progress) => void;
    onAnswer?: (e: AnswerEvent) => void;
    /** Verify when the run completes (default true). */
    verify?: boolean;
    /** Who started the run (recorded with it): 'cli', 'vscode', … */
    origin: string;
}

export interface RunSpecResult {
    /** 'declined': the cost gate said no and nothing was asked. */
    status: RunStatus | 'declined';
    run: RunRecord;
    prepared: PreparedRun;
    spec: SpecModel;
    data: LoadedData;
    store: string;
    progress?: Progress;
    counts: RunCounts;
    failures: FailureSummary[];
    verified: boolean;
    /** Why verification did not run or failed (answers stay stored; a report verifies them later). */
    verifyNote?: string;
    /** Warnings on the way: data rows skipped, generator notes. */
    notes: Problem[];
    results: RunResults;
    /** `questionId\u0000model` of the answers served from the cache. */
    cached: Set<string>;
}

/**
 * The models a run asks: those named, else the suite's, else the offline simulator; each with the model settings
 * the suite sets (`concurrency`, `rpm`, `timeout_ms`, `temperature`, …: those declared `suite`) where it sets none.
 */
export function resolveRunModels(
    spec: SpecModel,
    names: readonly string[] | undefined,
    suite: string | undefined,
    extra: readonly ModelDecl[] = [],
    cwd = process.cwd(),
): ModelDecl[] {
    const chosen = spec.suites.find(s => s.name === suite);
    const inherited = MODEL_SETTINGS.decls.filter(d => d.suite);
    return namedModels(spec, names, chosen?.models ?? [], extra, cwd).map(m => ({
        ...m,
        settings: inheritSettings(inherited, chosen?.settings, m.settings),
    }));
}

function namedModels(
    spec: SpecModel,
    names: readonly string[] | undefined,
    suiteModels: readonly string[],
    extra: readonly ModelDecl[],
    cwd: string,
): ModelDecl[] {
    const declared = availableModels(spec.models, extra);
    const wanted = names?.length ? names : suiteModels.length ? suiteModels : ['offline'];
    return wanted.map(n => {
        const m = modelFromFlag(n, declared);
        if (!m) {
            const names = [...declared.map(d => d.name), 'offline'];
            // A typo, or the start of one name ("simm" → "simulator": a cut-short name is too far for edit distance).
            const starts = n.length >= 3 ? names.filter(d => d.toLowerCase().startsWith(n.slice(0, 3).toLowerCase())) : [];
            const guess = closest(n, names) ?? (starts.length === 1 ? starts[0] : undefined);
            throw new HalluProbeError(
                problem(
                    'unknown-model',
                    `Unknown model "${n}"${guess ? `; did you mean "${guess}"?` : '.'}`,
                    `Use a model declared in the spec (${declared.map(d => d.name).join(', ') || 'none'}), openai:<id>, ollama:<id>, azure:<id>, openrouter:<id>, replay:<file>[+<file>…] or offline.`,
                ),
            );
        }
        // A file typed on a command line is relative to where the command runs, not to the spec.
        if (m.provider === 'replay' && !declared.includes(m)) {
            const files = (MODEL_SETTINGS.read(m.settings).file ?? []).map(f => path.resolve(cwd, f));
            return { ...m, settings: { ...m.settings, file: files.length === 1 ? files[0]! : files } };
        }
        return m;
    });
}

/** Loads and checks the spec; throws its errors as one HalluProbeError. */
export async function loadCheckedSpec(file: string): Promise<SpecModel> {
    const loaded = await loadSpec(path.resolve(file));
    const errors = loaded.diagnostics.filter(d => d.severity === 'error');
    if (errors.length > 0) throw new HalluProbeError(errors.map(fromDiagnostic));
    return loaded.model;
}

/**
 * Loads the data; problems that make generation impossible (a missing file or column, an unreadable source) stop
 * the run, the rest (key, FD, FK violations) only make the generator skip rows and come back as notes.
 */
export async function loadRunData(
    spec: SpecModel,
    cache?: DataCache,
    signal?: AbortSignal,
): Promise<{ data: LoadedData; notes: Problem[] }> {
    const data = await loadData(spec, cache, signal);
    const { blocking, skipping } = dataGate(data.diagnostics);
    if (blocking.length > 0) throw new HalluProbeError(blocking.map(fromDiagnostic));
    return { data, notes: skipping.map(d => ({ ...fromDiagnostic(d), severity: 'warning' as const })) };
}

export async function runSpec(req: RunSpecRequest): Promise<RunSpecResult> {
    const specFile = path.resolve(req.spec);
    const spec = await loadCheckedSpec(specFile);
    const suite = req.probe !== undefined || req.questionIds ? req.suite : (req.suite ?? spec.suites[0]?.name);
    if (suite !== undefined && !spec.suites.some(s => s.name === suite)) {
        throw new HalluProbeError(
            problem(
                'unknown-suite',
                `No suite "${suite}" in ${path.basename(specFile)}.`,
                `Suites: ${spec.suites.map(s => s.name).join(', ') || '(none)'}.`,
            ),
        );
    }
    const models = resolveRunModels(spec, req.models, suite, req.extraModels, req.cwd);
    req.onSpec?.(spec);
    const { data, notes } = await loadRunData(spec, req.cache, req.signal);

    const store = await openStore(storePath(req.db, specFile), { passwordEnv: req.dbPasswordEnv });
    try {
        // Models a probe's generation reads (evidence enrich_with, open embeddings): asked before the questions exist.
        const fetched = await fetchAids({
            spec,
            data,
            store,
            options: { suite, probe: req.probe, limit: req.questionIds ? undefined : req.limit, seed: req.seed },
            keyFor: model => resolveKey(model, req.secrets, req.confirmHost, req.env ?? process.env, req.bindings),
            client: (model, key) => createClient(model, { key }),
            confirm: req.confirmCost,
            threshold: confirmThreshold(req.env),
            signal: req.signal,
        });
        if (fetched.declined) {
            throw new HalluProbeError(
                problem(
                    'cost-declined',
                    'The calls the questions need before they are asked (enrich_with, embeddings) were not confirmed; nothing was asked.',
                    'Run again and confirm, or raise HALLUPROBE_CONFIRM_USD.',
                ),
            );
        }
        notes.push(...fetched.problems);
        const questions = questionSource(spec, data, req, suite, notes, fetched.aids);
        const { prepared, problems } = await prepareRun({
            store,
            spec: specFile,
            suite: suite ?? req.probe ?? '',
            questions,
            models,
            // A selection is a run of its own (its answers still come from the cache).
            resume: req.questionIds ? 'new' : (req.resume ?? 'auto'),
            secrets: req.secrets,
            confirmHost: req.confirmHost,
            bindings: req.bindings,
            env: req.env,
            domain: domainFromData(data),
            baseDir: path.dirname(specFile),
            concurrency: req.concurrency,
            settings: runSettings(req),
            onProgress: req.onProgress,
            batch: req.batch ?? suiteAsksBatch(spec.suites.find(s => s.name === suite)),
            join: req.join,
            steps: answerStepsOf(spec),
        });
        if (!prepared) throw new HalluProbeError(problems);
        for (const call of fetched.calls) await store.recordSideCall({ ...call, run: prepared.run.id });
        req.onPrepared?.(prepared);
        const finish = async (
            status: RunSpecResult['status'],
            progress?: Progress,
            verified = false,
            verifyNote?: string,
        ): Promise<RunSpecResult> => {
            const id = prepared.run.id;
            const out: RunSpecResult = {
                status,
                run: (await store.getRun(id))!,
                prepared,
                spec,
                data,
                store: store.location,
                counts: await store.counts(id),
                failures: await store.failures(id),
                verified,
                notes,
                results: (await store.loadRunResults(id))!,
                cached: await store.cachedAnswers(id),
            };
            if (progress) out.progress = progress;
            if (verifyNote) out.verifyNote = verifyNote;
            return out;
        };
        const spend = prepared.forecasts.reduce((n, e) => n + (e.usd ?? 0), 0);
        if (spend > confirmThreshold(req.env) && !(await req.confirmCost(spend, prepared.forecasts))) {
            await store.setStatus(prepared.run.id, 'cancelled');
            return await finish('declined');
        }
        const outcome = await startRun(store, prepared, {
            signal: req.signal,
            onProgress: req.onProgress,
            onAnswer: req.onAnswer,
        });
        if (outcome.status !== 'completed' || req.verify === false) return await finish(outcome.status, outcome.progress);
        if (outcome.verifies === false)
            return await finish(outcome.status, outcome.progress, false, 'another worker finished the run and verifies it');
        try {
            await verifyRun(store, prepared.run.id, spec, data);
            // The families' model steps (rule: claim extraction `extract_with`, embeddings `embeddings`; evidence: the
            // entailment judge `judge_with`; open: the G-Eval judge `judge_with`), after the model reader (`read_with`), whose verdicts a rule probe's
            // extraction reads: keys only where bound.
            const stepRun = {
                store,
                runId: prepared.run.id,
                spec,
                signal: req.signal,
                client: (model: ResolvedModel, key: string) => createClient(model, { key }),
                keyFor: (model: ResolvedModel) =>
                    resolveKey(model, req.secrets, req.confirmHost, req.env ?? process.env, req.bindings),
            };
            // Each step's problems are located warnings with a remedy that says what the step does meanwhile.
            notes.push(...(await readWithModels(stepRun)).problems, ...(await familyModelSteps(stepRun)));
            return await finish(outcome.status, outcome.progress, true);
        } catch (e) {
            return await finish(
                outcome.status,
                outcome.progress,
                false,
                `verification failed: ${e instanceof Error ? e.message : String(e)}`,
            );
        }
    } finally {
        await store.close();
    }
}

/** What the run records about how it was asked for: what chose its questions (a selection by its ids) and who asked. */
function runSettings(req: RunSpecRequest): RunSettings {
    const settings: RunSettings = { limit: req.limit, seed: req.seed, probe: req.probe, from: req.origin };
    if (req.questionIds) settings.questionIds = req.questionIds;
    return settings;
}

/**
 * The run's questions as a stream: generation is deterministic, so each pass generates them afresh and none is
 * held for long. The first pass is started here to find out, before a run is created, whether there is any.
 */
function questionSource(
    spec: SpecModel,
    data: LoadedData,
    req: RunSpecRequest,
    suite: string | undefined,
    notes: Problem[],
    aids: ModelAids,
): QuestionSource {
    let problems: Problem[] = [];
    const own = {
        probe: req.probe,
        limit: req.questionIds ? undefined : req.limit,
        seed: req.seed,
        questionIds: req.questionIds,
    };
    const pass = ({ questionIds, ...options }: typeof own): Iterator<Question> => {
        const generation = generateQuestions(spec, data, { suite, ...options, aids });
        problems = generation.diagnostics.map(fromDiagnostic);
        const wanted = questionIds && new Set(questionIds);
        return wanted ? filtered(generation.questions, q => wanted.has(q.id)) : generation.questions;
    };
    const first = pass(own);
    const head = first.next();
    if (head.done) {
        const errors = problems.filter(p => p.severity === 'error');
        throw new HalluProbeError(
            errors.length
                ? errors
                : [
                      problem(
                          'no-questions',
                          'No questions to ask: the selection generates none.',
                          `${notes.length ? 'See the data problems above; ' : ''}"${cliCommand()} preview ${path.basename(req.spec)}" (or Preview Questions) shows which rows were skipped and why.`,
                      ),
                  ],
        );
    }
    // Some probes generate: what the others could not do is a warning of this run.
    notes.push(...problems.map(p => ({ ...p, severity: 'warning' as const })));
    let started: Iterator<Question> | undefined = first;
    return from => {
        // A run continued after it stopped mid-generation keeps the options that chose its questions.
        const options = from
            ? {
                  probe: from.probe,
                  limit: from.questionIds ? undefined : from.limit,
                  seed: from.seed,
                  questionIds: from.questionIds,
              }
            : own;
        const same =
            options.probe === own.probe &&
            options.limit === own.limit &&
            options.seed === own.seed &&
            options.questionIds === own.questionIds;
        const rest = started && same ? started : pass(options);
        const lead = started && same ? [head.value] : [];
        started = undefined;
        return {
            [Symbol.iterator]: function* () {
                yield* lead;
                for (let r = rest.next(); !r.done; r = rest.next()) yield r.value;
            },
        };
    };
}

function* filtered(questions: Iterator<Question>, keep: (q: Question) => boolean): Generator<Question> {
    for (let r = questions.next(); !r.done; r = questions.next()) if (keep(r.value)) yield r.value;
}
