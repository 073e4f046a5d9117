/**
 * What the extension remembers per spec file: the last generation (questions, data) and the latest run's
 * results. Everything is loaded through the engine on demand and dropped when the spec or its data change.
 */
import * as vscode from 'vscode';
import { DATA_GLOB } from './settings.js';
import type * as Engine from './engine.js';
import type { ReviewLabel, RunRecord, RunResults } from '../core/store/index.js';
import type { Ctx } from './context.js';
import * as settings from './settings.js';
import { refusedMessage, SourceTrust } from './source-trust.js';

export type EngineModule = typeof Engine;

let engineModule: Promise<EngineModule> | undefined;
/** The engine is loaded on first use, which keeps activation fast (Langium and the store load later). */
export function engine(): Promise<EngineModule> {
    engineModule ??= import('./engine.js').catch(async (err: unknown) => {
        engineModule = undefined;
        // The data layer loads better-sqlite3 with the engine: say what is wrong and how to fix it.
        const { sqliteStatus } = await import('./native.js');
        const sqlite = sqliteStatus();
        throw sqlite.ok ? err : new Error(sqlite.message);
    });
    return engineModule;
}

export class SpecState implements vscode.Disposable {
    private readonly generations = new Map<string, Promise<Engine.Generated>>();
    private readonly latest = new Map<string, RunResults>();
    /** Per spec: a run newer than the one shown that has no verdicts (it did not replace the figures). */
    private readonly later = new Map<string, RunRecord>();
    private readonly unfinished = new vscode.EventEmitter<{ file: string; run: RunRecord }>();
    /** Fires with a spec's newest run when it did not finish (found after a reload): the run can be resumed. */
    readonly onDidFindUnfinished = this.unfinished.event;
    private readonly changed = new vscode.EventEmitter<string>();
    private readonly specChanged = new vscode.EventEmitter<string>();
    /** Fires with the spec file whose results changed. */
    readonly onDidChangeResults = this.changed.event;
    /** Fires with the spec file that changed on disk (or any spec, '' , when data changed). */
    readonly onDidChangeSpec = this.specChanged.event;
    private readonly edited = new vscode.EventEmitter<string>();
    /** Fires (debounced) with a spec file whose unsaved text changed: views that follow edits listen. */
    readonly onDidEditSpec = this.edited.event;
    private editTimer: ReturnType<typeof setTimeout> | undefined;
    /** Review labels per spec and run, read once and read again after a label is given (the CodeLens's trust line). */
    private readonly labelsRead = new Map<string, Promise<ReviewLabel[]>>();
    readonly sources: SourceTrust;

    constructor(private readonly ctx: Ctx) {
        this.sources = new SourceTrust({
            folders: () => (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.fsPath),
            trusted: () => vscode.workspace.isTrusted,
            memory: ctx.extension.workspaceState,
            ask: async files =>
                (await vscode.window.showWarningMessage(
                    `HalluProbe: this spec reads data outside the workspace folders:\n${files.join('\n')}\nRead ${files.length === 1 ? 'it' : 'them'}?`,
                    { modal: true },
                    'Read',
                )) === 'Read',
        });
        const watcher = vscode.workspace.createFileSystemWatcher(DATA_GLOB);
        const touch = (uri: vscode.Uri) => {
            if (uri.fsPath.includes(`${'.halluprobe'}`)) return;
            if (uri.fsPath.endsWith('.probe')) this.invalidate(uri.fsPath);
            else this.invalidate();
        };
        ctx.push(watcher.onDidChange(touch));
        ctx.push(watcher.onDidCreate(touch));
        ctx.push(watcher.onDidDelete(touch));
        ctx.push(watcher);
        ctx.push(
            vscode.workspace.onDidSaveTextDocument(d => {
                if (d.languageId === 'probe') this.invalidate(d.uri.fsPath);
            }),
        );
        ctx.push(
            vscode.workspace.onDidChangeTextDocument(e => {
                if (e.document.languageId !== 'probe' || e.contentChanges.length === 0) return;
                const file = e.document.uri.fsPath;
                clearTimeout(this.editTimer);
                this.editTimer = setTimeout(() => this.edited.fire(file), 300);
            }),
        );
    }

    invalidate(file?: string): void {
        if (file) this.generations.delete(file);
        else this.generations.clear();
        this.specChanged.fire(file ?? '');
    }

    /** All questions of a spec (up to the preview limit), generated once and shared by preview, tests and graph. */
    generation(file: string): Promise<Engine.Generated> {
        let g = this.generations.get(file);
        if (!g) {
            g = this.readable(file).then(async () =>
                (await engine()).generate(file, { limit: settings.previewLimit(vscode.Uri.file(file)) }),
            );
            this.generations.set(file, g);
            g.catch(() => {
                if (this.generations.get(file) === g) this.generations.delete(file);
            });
        }
        return g;
    }

    /**
     * Resolves when the spec's data files may be read: sources outside the workspace folders are confirmed first
     * in an untrusted or newly opened workspace (throws, with a remedy, when the user says no).
     */
    async readable(file: string): Promise<void> {
        const view = await (await engine()).specView(file);
        const answer = await this.sources.confirm(view.spec.sources);
        if (!answer.ok) throw new Error(refusedMessage(answer.refused));
    }

    results(file: string): RunResults | undefined {
        return this.latest.get(file);
    }

    /** The specs whose latest run the editor holds (a data file's hover looks for its rows in their runs). */
    specsWithResults(): string[] {
        return [...this.latest.keys()];
    }

    setResults(file: string, results: RunResults): void {
        this.latest.set(file, results);
        this.later.delete(file);
        this.ctx.setContext('halluprobe.hasResults', true);
        this.changed.fire(file);
    }

    /**
     * A run's results as they arrive (a run ended, the store changed): a run without verdicts (a dead server, a cancel,
     * a reload mid-run) never replaces the figures of the last answered run; it is named beside them instead.
     */
    offerResults(file: string, results: RunResults): void {
        const shown = this.latest.get(file);
        if (results.verdicts.length > 0 || !shown || shown.verdicts.length === 0) {
            this.setResults(file, results);
            return;
        }
        if (shown.run.id === results.run.id) return;
        this.later.set(file, results.run);
        this.changed.fire(file);
    }

    /** "Results of run X · later run Y failed: no answers": which run the figures are, and a newer one that did not replace them. */
    shownRun(file: string): string | undefined {
        const shown = this.latest.get(file);
        if (!shown) return undefined;
        const later = this.later.get(file);
        const what = (r: RunRecord) => (r.status === 'running' ? 'did not finish' : r.status);
        return `Results of run ${shown.run.id}${later ? ` · later run ${later.id} ${what(later)}: no answers verified` : ''}`;
    }

    /** A run's review labels (every reviewer's), from the spec's store. */
    labels(file: string, runId: string): Promise<ReviewLabel[]> {
        const key = `${file}\u0000${runId}`;
        let read = this.labelsRead.get(key);
        if (!read) {
            read = engine().then(e => e.reviewLabels(settings.storePath(file), runId));
            this.labelsRead.set(key, read);
            read.catch(() => {
                if (this.labelsRead.get(key) === read) this.labelsRead.delete(key);
            });
        }
        return read;
    }

    /** A label was given or undone in a run of this spec: its figures are read again. */
    labelsChanged(file: string, runId: string): void {
        this.labelsRead.delete(`${file}\u0000${runId}`);
        this.changed.fire(file);
    }

    /**
     * The latest answered run of a spec from its store, when the editor has none in memory (e.g. after a reload). A
     * newer run without verdicts is named beside it; one that did not finish is offered to resume (once).
     */
    async loadLatest(file: string): Promise<RunResults | undefined> {
        const known = this.latest.get(file);
        if (known) return known;
        try {
            const { sqliteStatus } = await import('./native.js');
            if (!sqliteStatus().ok) return undefined;
            const e = await engine();
            const { results: res, newer } = await e.latestAnswered(settings.storePath(file), file);
            if (res) this.setResults(file, res);
            const last = newer[0];
            if (last) {
                if (res) {
                    this.later.set(file, last);
                    this.changed.fire(file);
                }
                if (last.status === 'running' || last.status === 'cancelled') this.unfinished.fire({ file, run: last });
            }
            return res;
        } catch (err) {
            this.ctx.output.warn(
                `could not read earlier results for ${file}: ${err instanceof Error ? err.message : String(err)}`,
            );
            return undefined;
        }
    }

    dispose(): void {
        clearTimeout(this.editTimer);
        this.edited.dispose();
        this.unfinished.dispose();
        this.changed.dispose();
        this.specChanged.dispose();
    }
}

/** The unsaved text of every open spec, by absolute path, for the engine to read instead of the disk. */
export function unsavedTexts(): Map<string, string> {
    return new Map(
        vscode.workspace.textDocuments.filter(d => d.isDirty && d.languageId === 'probe').map(d => [d.uri.fsPath, d.getText()]),
    );
}
