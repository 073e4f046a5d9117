/**
 * The active run: one at a time, with a progress notification that can cancel it, a status bar item
 * (done / total, cost so far) that reopens the progress, and the results handed to SpecState at the end.
 * The run itself is the engine's (engine.run); nothing here asks a model.
 */
import * as vscode from 'vscode';
import type { Ctx } from './context.js';
import { errorText, showError } from './context.js';
import { engine, type SpecState } from './state.js';
import { KeyStore, confirmHost } from './secrets.js';
import * as settings from './settings.js';
import type { RunSpecResult, RunProgress } from './engine.js';
import { sqliteStatus } from './native.js';
import { failedVerdicts } from '../core/verify/index.js';
import { usd } from '../core/run/light.js';
import {
    batchStates,
    problemsNotice,
    RUN_ACTIONS,
    runFinishedMessage,
    SHOW_PROBLEMS,
    unfinishedRunMessage,
    unverifiedRunMessage,
} from './results/summary.js';
import type { RunRecord } from '../core/store/index.js';
import * as path from 'node:path';
import type { HalluProbeError } from '../core/errors.js';

export interface StartRun {
    file: string;
    suite?: string;
    probe?: string;
    model?: string;
    questionIds?: string[];
    /** Shown in progress and the status bar. */
    label: string;
    /** A Test Explorer run's token also cancels. */
    token?: vscode.CancellationToken;
    /** Send it to the provider's Batch API (the run picker's choice); undefined: as the suite says. */
    batch?: boolean;
    /** The Test Explorer started it (and shows it itself). */
    fromExplorer?: boolean;
}

/** `heard`: the engine has reported progress (until then the status bar says the run is starting, not "0/…"). */
interface Active {
    label: string;
    file: string;
    abort: AbortController;
    progress: RunProgress;
    started: number;
    batch: boolean;
    heard?: boolean;
}

/** A run as it starts and goes: what the Test Explorer shows of a run it did not start (a long batch run). */
export interface RunEvent {
    req: StartRun;
    progress: RunProgress;
}

export class Runs implements vscode.Disposable {
    private active: Active | undefined;
    private readonly item: vscode.StatusBarItem;
    private readonly finished = new vscode.EventEmitter<{ file: string; outcome?: RunSpecResult; req: StartRun }>();
    readonly onDidFinish = this.finished.event;
    private readonly progressed = new vscode.EventEmitter<RunEvent>();
    /** Fired when a run starts, and on each progress step shown (a few a second at most). */
    readonly onDidProgress = this.progressed.event;

    constructor(
        private readonly ctx: Ctx,
        private readonly state: SpecState,
    ) {
        this.item = vscode.window.createStatusBarItem('halluprobe.run', vscode.StatusBarAlignment.Left, 50);
        this.item.name = 'HalluProbe run';
        this.item.command = 'halluprobe.showRunProgress';
        ctx.push(this.item);
        ctx.push(state.onDidFindUnfinished(e => void this.offerResume(e.file, e.run)));
    }

    private readonly offered = new Set<string>();

    /**
     * A spec's newest run did not finish (the window was reloaded mid-run, or it was stopped): say what it kept and
     * offer to resume it, once per run.
     */
    private async offerResume(file: string, run: RunRecord): Promise<void> {
        if (this.offered.has(run.id) || this.active?.file === file) return;
        this.offered.add(run.id);
        const counts = await (await engine()).runCounts(settings.storePath(file), run.id).catch(() => undefined);
        const text = unfinishedRunMessage(run, path.basename(file), counts);
        this.ctx.output.info(text);
        if ((await vscode.window.showInformationMessage(text, RUN_ACTIONS.resume)) !== RUN_ACTIONS.resume) return;
        await this.start({ file, suite: run.suite || undefined, label: run.suite ? `suite ${run.suite}` : path.basename(file) });
    }

    get running(): boolean {
        return this.active !== undefined;
    }

    /** Refuses in an untrusted workspace, or when another run is active or the store cannot load. */
    async start(req: StartRun): Promise<RunSpecResult | undefined> {
        if (!vscode.workspace.isTrusted) {
            void vscode.window.showWarningMessage(
                'HalluProbe: this workspace is not trusted, so nothing calls a model. Trust the workspace to run probes; editing and Preview Questions work meanwhile.',
            );
            return undefined;
        }
        if (this.active) {
            void vscode.window.showWarningMessage(
                `HalluProbe: a run is already active (${this.active.label}). Stop it first (HalluProbe: Stop Run).`,
            );
            return undefined;
        }
        const sqlite = sqliteStatus();
        if (!sqlite.ok) {
            showError(this.ctx, sqlite.message);
            return undefined;
        }
        const abort = new AbortController();
        const active: Active = {
            label: req.label,
            file: req.file,
            abort,
            progress: { done: 0, total: 0, generating: true, questions: 0, cached: 0, failed: 0, cost: 0 },
            started: Date.now(),
            batch: req.batch === true,
        };
        this.active = active;
        this.ctx.setContext('halluprobe.running', true);
        this.render();
        req.token?.onCancellationRequested(() => abort.abort());
        this.progressed.fire({ req, progress: active.progress });
        // A batch run waits hours for the provider: its progress sits in the status bar, not in a notification.
        const location = req.batch ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
        try {
            return await vscode.window.withProgress(
                { location, title: `HalluProbe: ${req.label}`, cancellable: true },
                async (progress, token) => {
                    token.onCancellationRequested(() => abort.abort());
                    let reported = 0;
                    let shown = 0;
                    let heldShown: string | undefined;
                    await this.state.readable(req.file);
                    const e = await engine();
                    const uri = vscode.Uri.file(req.file);
                    const outcome = await e.run({
                        file: req.file,
                        suite: req.suite,
                        probe: req.probe,
                        model: req.model,
                        questionIds: req.questionIds,
                        db: settings.storePath(req.file),
                        concurrency: settings.concurrency(uri),
                        extraModels: settings.settingModels(uri),
                        secrets: new KeyStore(this.ctx.extension.secrets),
                        confirmHost,
                        confirmCost,
                        signal: abort.signal,
                        batch: req.batch,
                        onProgress: p => {
                            active.progress = { ...p };
                            active.heard = true;
                            if (p.batches) active.batch = true;
                            // Every answer reports progress; the UI needs a few updates a second, not hundreds.
                            const now = Date.now();
                            // A refused write is shown at once: the user can free space while answers are held.
                            if (p.held && p.held !== heldShown) {
                                heldShown = p.held;
                                this.ctx.output.warn(p.held);
                                void vscode.window.showWarningMessage(`HalluProbe: ${p.held}`);
                            }
                            if (now - shown < 200 && (p.generating || p.done < p.total)) return;
                            shown = now;
                            const pct = p.total > 0 && !p.generating ? (p.done / p.total) * 100 : 0;
                            progress.report({ message: progressText(p), increment: pct - reported });
                            reported = pct;
                            this.render();
                            this.progressed.fire({ req, progress: active.progress });
                        },
                    });
                    this.ctx.output.info(
                        `run ${outcome.run.id}: ${outcome.results.answers.length} answers in ${((Date.now() - active.started) / 1000).toFixed(1)} s`,
                    );
                    // A run without verdicts (a dead server, a cancel) keeps the last answered run's figures on screen.
                    this.state.offerResults(req.file, outcome.results);
                    this.finished.fire({ file: req.file, outcome, req });
                    const verdicts = outcome.results.verdicts;
                    const failed = failedVerdicts(outcome.results);
                    // Questions whose calls failed are counted too: a run never reads as all passed when some went unasked.
                    const unasked = outcome.counts.failed ? `, ${outcome.counts.failed} not answered: the calls failed` : '';
                    this.ctx.output.info(
                        `run ${outcome.run.id} (${req.label}) ${outcome.status}: ${verdicts.length} verdicts, ${failed} failed${unasked} · store ${outcome.store}`,
                    );
                    if (verdicts.length === 0 && !active.batch) {
                        // Nothing verified: say why (the first call's error names the server and the cause, as the CLI does) and what was kept.
                        const ended = unverifiedRunMessage({
                            label: req.label,
                            status: outcome.status,
                            run: outcome.run.id,
                            answered: outcome.counts.answered,
                            slots: outcome.counts.slots,
                            unanswered: outcome.counts.failed,
                            cause: outcome.failures[0] && `${outcome.failures[0].model}: ${outcome.failures[0].error}`,
                            shown: this.state.results(req.file)?.run.id,
                        });
                        for (const f of outcome.failures.slice(0, 3))
                            this.ctx.output.warn(`run ${outcome.run.id}: ${f.question} (${f.model}): ${f.error}`);
                        const show =
                            outcome.status === 'cancelled'
                                ? vscode.window.showInformationMessage
                                : vscode.window.showWarningMessage;
                        void show(ended.text, ...ended.actions).then(action => {
                            if (action === RUN_ACTIONS.resume) void this.start(req);
                            if (action === RUN_ACTIONS.failures)
                                void vscode.commands.executeCommand('halluprobe.showFailures', { file: req.file });
                        });
                        return outcome;
                    }
                    // The count first, so a narrow toast never cuts it; it counts the whole run's answers (a CodeLens counts one probe's).
                    const done = runFinishedMessage(
                        failed,
                        verdicts.length,
                        req.label,
                        outcome.status,
                        outcome.counts.failed,
                        active.batch,
                    );
                    void vscode.window.showInformationMessage(done.text, ...done.actions).then(action => {
                        if (action === RUN_ACTIONS.failures)
                            void vscode.commands.executeCommand('halluprobe.showFailures', { file: req.file });
                        if (action === RUN_ACTIONS.report)
                            void vscode.commands.executeCommand('halluprobe.showResults', {
                                file: req.file,
                                run: outcome.run.id,
                            });
                    });
                    return outcome;
                },
            );
        } catch (err) {
            const problems = (err as Partial<HalluProbeError> | undefined)?.problems;
            const notice = Array.isArray(problems) ? problemsNotice(problems) : undefined;
            // Stopped while the store refused writes: the error names what was lost, so it is shown, not "run stopped".
            if (abort.signal.aborted && !Array.isArray(problems))
                void vscode.window.showInformationMessage('HalluProbe: run stopped; run it again to resume where it stopped.');
            else if (notice) {
                // Every problem is in the Problems panel (the language server's diagnostics) and in the log.
                this.ctx.output.error(errorText(err));
                void vscode.window.showErrorMessage(notice, SHOW_PROBLEMS).then(a => {
                    if (a === SHOW_PROBLEMS) void vscode.commands.executeCommand('workbench.actions.view.problems');
                });
            } else showError(this.ctx, errorText(err), err);
            this.finished.fire({ file: req.file, req });
            return undefined;
        } finally {
            this.active = undefined;
            this.ctx.setContext('halluprobe.running', false);
            this.render();
        }
    }

    stop(): boolean {
        if (!this.active) return false;
        this.active.abort.abort();
        return true;
    }

    /** The status of the active run in words (for the status bar command). */
    describe(): string | undefined {
        const a = this.active;
        return a && `${a.label}: ${progressText(a.progress)} · ${Math.round((Date.now() - a.started) / 1000)} s`;
    }

    private render(): void {
        const a = this.active;
        if (!a) {
            this.item.hide();
            return;
        }
        const p = a.progress;
        if (!a.heard) {
            this.item.text = '$(beaker~spin) starting…';
            this.item.tooltip = `HalluProbe: ${a.label} — starting. Click for details.`;
            this.item.show();
            return;
        }
        this.item.text = `$(${a.batch ? 'cloud' : 'beaker'}~spin) ${a.batch ? 'batch ' : ''}${p.done}/${p.generating || !p.total ? '…' : p.total} · ${usd(p.cost)}`;
        this.item.tooltip = `HalluProbe: ${a.label} — ${progressText(p)}. Click for details.`;
        this.item.show();
    }

    dispose(): void {
        this.active?.abort.abort();
        this.finished.dispose();
        this.progressed.dispose();
    }
}

function progressText(p: RunProgress): string {
    if (p.batches) return `${batchStates(p.batches)} · ${p.done}/${p.total} answered · ${usd(p.cost)}`;
    const of = p.generating
        ? `${p.done} answered (generating… ${p.questions} questions so far)`
        : `${p.done}/${p.total} answered`;
    return `${of}${p.cached ? ` (${p.cached} cached)` : ''}${p.failed ? `, ${p.failed} failed` : ''} · ${usd(p.cost)}`;
}

/** The cost gate's question, as a modal (the engine decides when to ask: above the same threshold as the CLI). */
async function confirmCost(amount: number): Promise<boolean> {
    const run = 'Run';
    return (
        (await vscode.window.showWarningMessage(
            `HalluProbe: this run is estimated to cost about ${usd(amount)}. Spend it?`,
            { modal: true },
            run,
        )) === run
    );
}
