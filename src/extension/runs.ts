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
import { questionPassed } from '../core/verify/index.js';
import { usd } from '../core/run/light.js';
import { problemsNotice, RUN_ACTIONS, runFinishedMessage, SHOW_PROBLEMS } from './results/summary.js';
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
}

interface Active { label: string; file: string; abort: AbortController; progress: RunProgress; started: number }

export class Runs implements vscode.Disposable {
    private active: Active | undefined;
    private readonly item: vscode.StatusBarItem;
    private readonly finished = new vscode.EventEmitter<{ file: string; outcome?: RunSpecResult }>();
    readonly onDidFinish = this.finished.event;

    constructor(private readonly ctx: Ctx, private readonly state: SpecState) {
        this.item = vscode.window.createStatusBarItem('halluprobe.run', vscode.StatusBarAlignment.Left, 50);
        this.item.name = 'HalluProbe run';
        this.item.command = 'halluprobe.showRunProgress';
        ctx.push(this.item);
    }

    get running(): boolean { return this.active !== undefined; }

    /** Refuses in an untrusted workspace, or when another run is active or the store cannot load. */
    async start(req: StartRun): Promise<RunSpecResult | undefined> {
        if (!vscode.workspace.isTrusted) {
            void vscode.window.showWarningMessage('HalluProbe: this workspace is not trusted, so nothing calls a model. Trust the workspace to run probes; editing and Preview Questions work meanwhile.');
            return undefined;
        }
        if (this.active) {
            void vscode.window.showWarningMessage(`HalluProbe: a run is already active (${this.active.label}). Stop it first (HalluProbe: Stop Run).`);
            return undefined;
        }
        const sqlite = sqliteStatus();
        if (!sqlite.ok) { showError(this.ctx, sqlite.message); return undefined; }
        const abort = new AbortController();
        const active: Active = { label: req.label, file: req.file, abort, progress: { done: 0, total: 0, generating: true, questions: 0, cached: 0, failed: 0, cost: 0 }, started: Date.now() };
        this.active = active;
        this.ctx.setContext('halluprobe.running', true);
        this.render();
        req.token?.onCancellationRequested(() => abort.abort());
        try {
            return await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `HalluProbe: ${req.label}`, cancellable: true }, async (progress, token) => {
                token.onCancellationRequested(() => abort.abort());
                let reported = 0;
                let shown = 0;
                await this.state.readable(req.file);
                const e = await engine();
                const uri = vscode.Uri.file(req.file);
                const outcome = await e.run({
                    file: req.file, suite: req.suite, probe: req.probe, model: req.model, questionIds: req.questionIds,
                    db: settings.storePath(req.file), concurrency: settings.concurrency(uri), extraModels: settings.settingModels(uri),
                    secrets: new KeyStore(this.ctx.extension.secrets), confirmHost, confirmCost, signal: abort.signal,
                    onProgress: p => {
                        active.progress = { ...p };
                        // Every answer reports progress; the UI needs a few updates a second, not hundreds.
                        const now = Date.now();
                        if (now - shown < 200 && (p.generating || p.done < p.total)) return;
                        shown = now;
                        const pct = p.total > 0 && !p.generating ? (p.done / p.total) * 100 : 0;
                        progress.report({ message: progressText(p), increment: pct - reported });
                        reported = pct;
                        this.render();
                    },
                });
                this.ctx.output.info(`run ${outcome.run.id}: ${outcome.results.answers.length} answers in ${((Date.now() - active.started) / 1000).toFixed(1)} s`);
                this.state.setResults(req.file, outcome.results);
                this.finished.fire({ file: req.file, outcome });
                const verdicts = outcome.results.verdicts;
                const questions = new Map(outcome.results.questions.map(q => [q.id, q]));
                const failed = verdicts.filter(v => { const q = questions.get(v.questionId); return q !== undefined && !questionPassed(q, v); }).length;
                // Questions whose calls failed are counted too: a run never reads as all passed when some went unasked.
                const unasked = outcome.counts.failed ? `, ${outcome.counts.failed} not answered: the calls failed` : '';
                this.ctx.output.info(`run ${outcome.run.id} (${req.label}) ${outcome.status}: ${verdicts.length} verdicts, ${failed} failed${unasked} · store ${settings.storePath(req.file)}`);
                // The count first, so a narrow toast never cuts it; it counts the whole run's answers (a CodeLens counts one probe's).
                const done = runFinishedMessage(failed, verdicts.length, req.label, outcome.status, outcome.counts.failed);
                void vscode.window.showInformationMessage(done.text, ...done.actions).then(action => {
                    if (action === RUN_ACTIONS.failures) void vscode.commands.executeCommand('halluprobe.showFailures', { file: req.file });
                    if (action === RUN_ACTIONS.report) void vscode.commands.executeCommand('halluprobe.showResults', { file: req.file, run: outcome.run.id });
                });
                return outcome;
            });
        } catch (err) {
            const problems = (err as Partial<HalluProbeError> | undefined)?.problems;
            const notice = Array.isArray(problems) ? problemsNotice(problems) : undefined;
            if (abort.signal.aborted) void vscode.window.showInformationMessage('HalluProbe: run stopped; run it again to resume where it stopped.');
            else if (notice) {
                // Every problem is in the Problems panel (the language server's diagnostics) and in the log.
                this.ctx.output.error(errorText(err));
                void vscode.window.showErrorMessage(notice, SHOW_PROBLEMS).then(a => { if (a === SHOW_PROBLEMS) void vscode.commands.executeCommand('workbench.actions.view.problems'); });
            } else showError(this.ctx, errorText(err), err);
            this.finished.fire({ file: req.file });
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
        if (!a) { this.item.hide(); return; }
        const p = a.progress;
        this.item.text = `$(beaker~spin) ${p.done}/${p.generating || !p.total ? '…' : p.total} · $${p.cost.toFixed(p.cost < 1 ? 4 : 2)}`;
        this.item.tooltip = `HalluProbe: ${a.label} — ${progressText(p)}. Click for details.`;
        this.item.show();
    }

    dispose(): void {
        this.active?.abort.abort();
        this.finished.dispose();
    }
}

export function progressText(p: RunProgress): string {
    const of = p.generating ? `${p.done} answered (generating… ${p.questions} questions so far)` : `${p.done}/${p.total} answered`;
    return `${of}${p.cached ? ` (${p.cached} cached)` : ''}${p.failed ? `, ${p.failed} failed` : ''} · $${p.cost.toFixed(4)}`;
}

/** The cost gate's question, as a modal (the engine decides when to ask: above the same threshold as the CLI). */
async function confirmCost(amount: number): Promise<boolean> {
    const run = 'Run';
    return (await vscode.window.showWarningMessage(`HalluProbe: this run is estimated to cost about ${usd(amount)}. Spend it?`, { modal: true }, run)) === run;
}
