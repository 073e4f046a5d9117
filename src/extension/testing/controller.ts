/**
 * The Test Explorer: mirrors the pure tree (tree.ts) into TestItems, creates question items lazily from the
 * engine's generation, offers one run profile per configured model and reports the engine's verdicts: a
 * failed question's message sits at its probe's line and says what was wrong. Every run reaches the Testing
 * view, whatever started it (a palette command, a CodeLens, a CLI run into the same store): results that did not
 * come from a Test Explorer run are reported as a run of their own.
 */
import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { buildSpecTree, covers, planRuns, questionNodes, questionIdOf, type TreeNode } from './tree.js';
import { goldText } from '../../core/probes/index.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';
import { batchStates, failureText } from '../results/summary.js';
import type { RunEvent } from '../runs.js';
import type { RunSpecResult } from '../engine.js';
import { questionPassed } from '../../core/verify/index.js';
import type { RunResults } from '../../core/store/index.js';
import type { Question } from '../../core/probes/index.js';
import type { ModelDecl, SpecModel } from '../../core/spec/index.js';

const toRange = (n: TreeNode) =>
    n.range && new vscode.Range(n.range.start.line, n.range.start.character, n.range.end.line, n.range.end.character);

export class Testing {
    readonly controller: vscode.TestController;
    private readonly nodes = new Map<string, TreeNode>();
    private readonly profiles = new Map<string, vscode.TestRunProfile>();
    private readonly specModels = new Map<string, ModelDecl[]>();
    /** The results each spec last showed ("run id · verdict count"), so one run is reported once. */
    private readonly shown = new Map<string, string>();
    /** A Test Explorer run reports its own results; results arriving meanwhile are its own. */
    private explorerRuns = 0;
    /** Batch runs started elsewhere (Run Suite), shown as a test run of their own while they wait, per spec. */
    private readonly batchRuns = new Map<string, { run: vscode.TestRun; leaves: Map<string, vscode.TestItem>; shown: string }>();
    private storeTimer: ReturnType<typeof setTimeout> | undefined;
    /** Per question id: the model whose result its item shows last (Open Graph on the item draws that model's answer). */
    private readonly failedModel = new Map<string, string>();

    modelShown(questionId: string): string | undefined {
        return this.failedModel.get(questionId);
    }

    constructor(private readonly s: Services) {
        this.controller = vscode.tests.createTestController('halluprobe', 'HalluProbe');
        s.ctx.push(this.controller);
        this.controller.resolveHandler = item => (item ? this.resolveChildren(item) : this.discover());
        this.controller.refreshHandler = () => this.discover();
        s.ctx.push(
            s.state.onDidChangeSpec(file => {
                if (file) void this.loadSpec(file);
                else void this.discover();
            }),
        );
        s.ctx.push(
            vscode.workspace.onDidChangeConfiguration(e => {
                if (e.affectsConfiguration('halluprobe.models') || e.affectsConfiguration('halluprobe.defaultModel'))
                    this.refreshProfiles();
            }),
        );
        s.ctx.push(s.state.onDidChangeResults(file => void this.showStored(file)));
        s.ctx.push(s.runs.onDidProgress(e => void this.showBatch(e)));
        s.ctx.push(s.runs.onDidFinish(e => this.endBatch(e.file, e.outcome)));
        // A run by the CLI (or another window) writes the store: pick up its latest run of each spec.
        const stores = vscode.workspace.createFileSystemWatcher('**/*.db*');
        const changed = (uri: vscode.Uri) => {
            clearTimeout(this.storeTimer);
            this.storeTimer = setTimeout(() => void this.reloadFromStore(uri.fsPath.replace(/-(wal|shm|journal)$/, '')), 800);
        };
        for (const d of [
            stores,
            stores.onDidChange(changed),
            stores.onDidCreate(changed),
            { dispose: () => clearTimeout(this.storeTimer) },
        ])
            s.ctx.push(d);
        this.refreshProfiles();
    }

    /** The latest run of every known spec whose store is `db`, when it is newer than what the editor shows. */
    private async reloadFromStore(db: string): Promise<void> {
        const files: string[] = [];
        this.controller.items.forEach(i => {
            if (settings.storePath(i.id) === db) files.push(i.id);
        });
        if (files.length === 0) return;
        try {
            const e = await engine();
            for (const file of files) {
                const latest = await e.latestRun(db, file);
                if (!latest) continue;
                const res = await e.results(db, latest.id);
                const known = this.s.state.results(file);
                // A newer run without verdicts (a dead server, a cancel) never replaces the figures shown; it is named beside them.
                if (res && (known?.run.id !== res.run.id || known.verdicts.length !== res.verdicts.length))
                    this.s.state.offerResults(file, res);
            }
        } catch (err) {
            this.s.ctx.output.warn(`Test Explorer: could not read ${db}: ${err instanceof Error ? err.message : String(err)}`);
        }
    }

    /** Results that did not come from a Test Explorer run, as a test run of their own (one per model). */
    private async showStored(file: string): Promise<void> {
        const results = this.s.state.results(file);
        if (!results || this.explorerRuns > 0) return;
        const key = `${results.run.id} · ${results.verdicts.length}`;
        if (this.shown.get(file) === key) return;
        this.shown.set(file, key);
        // A batch run shown while it waited reports its results into that test run (endBatch).
        if (this.batchRuns.has(file)) return;
        if (!this.nodes.has(file) && !(await this.loadSpec(file))) return;
        const leaves = this.ensureQuestionItems(file, results.questions);
        for (const model of new Set(results.verdicts.map(v => v.model))) {
            const run = this.controller.createTestRun(
                new vscode.TestRunRequest(),
                `HalluProbe · run ${results.run.id} · ${model}`,
                false,
            );
            try {
                this.report(run, results, leaves, model, false, new Set());
            } finally {
                run.end();
            }
        }
    }

    /**
     * A batch run started by a command: a test run of its own while it waits for the provider (hours, maybe), its
     * questions queued, the batches' states in its output as they change.
     */
    private async showBatch({ req, progress }: RunEvent): Promise<void> {
        if (req.fromExplorer || !(req.batch || progress.batches)) return;
        let shown = this.batchRuns.get(req.file);
        if (!shown) {
            shown = {
                run: this.controller.createTestRun(new vscode.TestRunRequest(), `HalluProbe · ${req.label}`, false),
                leaves: new Map(),
                shown: '',
            };
            this.batchRuns.set(req.file, shown);
            shown.run.appendOutput(
                `Batch run of ${req.label}: the provider answers within 24 h; results are reported here when they arrive.\r\n`,
            );
            try {
                if (!this.nodes.has(req.file)) await this.loadSpec(req.file);
                const [gen, view] = await Promise.all([
                    this.s.state.generation(req.file),
                    engine().then(e => e.specView(req.file)),
                ]);
                const probes = new Set(
                    view.spec.suites.find(x => x.name === req.suite)?.probes ?? view.spec.probes.map(p => p.name),
                );
                shown.leaves = this.ensureQuestionItems(
                    req.file,
                    gen.questions.filter(q => probes.has(q.probe)),
                );
                for (const item of shown.leaves.values()) shown.run.started(item);
            } catch (err) {
                this.s.ctx.output.warn(`Test Explorer: ${err instanceof Error ? err.message : String(err)}`);
            }
        }
        const line = progress.batches ? batchStates(progress.batches) : '';
        if (line && line !== shown.shown) {
            shown.run.appendOutput(`${line}\r\n`);
            shown.shown = line;
        }
    }

    /** A batch run's results arrived (or it stopped): reported into the test run that showed it waiting. */
    private endBatch(file: string, outcome: RunSpecResult | undefined): void {
        const shown = this.batchRuns.get(file);
        if (!shown) return;
        this.batchRuns.delete(file);
        if (outcome) {
            this.shown.set(file, `${outcome.results.run.id} · ${outcome.results.verdicts.length}`);
            for (const model of new Set(outcome.results.verdicts.map(v => v.model)))
                this.report(shown.run, outcome.results, shown.leaves, model, false, outcome.cached);
        } else {
            for (const item of shown.leaves.values()) shown.run.skipped(item);
        }
        shown.run.end();
    }

    async discover(): Promise<void> {
        const files = await vscode.workspace.findFiles('**/*.probe', '**/{node_modules,.halluprobe}/**', 200);
        const keep = new Set(files.map(f => f.fsPath));
        this.controller.items.forEach(item => {
            if (!keep.has(item.id)) {
                this.controller.items.delete(item.id);
                this.specModels.delete(item.id);
            }
        });
        await Promise.all(files.map(f => this.loadSpec(f.fsPath)));
        this.refreshProfiles();
    }

    /** (Re)builds one spec's tree; items keep their ids, so earlier results stay attached. */
    async loadSpec(file: string): Promise<vscode.TestItem | undefined> {
        try {
            const e = await engine();
            const { spec } = await e.specView(file);
            const tree = buildSpecTree(file, spec, vscode.workspace.asRelativePath(file));
            const item = this.mirror(tree, undefined);
            this.refreshProfiles(file, spec);
            return item;
        } catch (err) {
            this.s.ctx.output.warn(`Test Explorer: could not read ${file}: ${err instanceof Error ? err.message : String(err)}`);
            return undefined;
        }
    }

    private mirror(node: TreeNode, parent: vscode.TestItem | undefined): vscode.TestItem {
        this.nodes.set(node.id, node);
        const collection = parent ? parent.children : this.controller.items;
        let item = collection.get(node.id);
        const uri = node.file && node.file !== 'settings.json' ? vscode.Uri.file(node.file) : undefined;
        if (!item || item.uri?.fsPath !== uri?.fsPath) {
            item = this.controller.createTestItem(node.id, node.label, uri);
            collection.add(item);
        }
        item.label = node.label;
        item.description = node.description;
        item.range = toRange(node);
        item.canResolveChildren = node.lazy === true;
        if (!node.lazy) {
            const ids = new Set(node.children.map(c => c.id));
            item.children.forEach(c => {
                if (!ids.has(c.id)) item!.children.delete(c.id);
            });
            for (const c of node.children) this.mirror(c, item);
        }
        return item;
    }

    private specOf(item: vscode.TestItem): string {
        let top = item;
        while (top.parent) top = top.parent;
        return top.id;
    }

    /** A phrasing's questions, from the (shared, cached) generation of its spec. */
    private async resolveChildren(item: vscode.TestItem): Promise<void> {
        const node = this.nodes.get(item.id);
        if (!node || node.kind !== 'phrasing') return;
        item.busy = true;
        try {
            const file = this.specOf(item);
            const gen = await this.s.state.generation(file);
            const leaves = questionNodes(node, gen.questions, settings.questionLimit(vscode.Uri.file(file)));
            const items = leaves.map(l => {
                this.nodes.set(l.id, l);
                const t = this.controller.createTestItem(l.id, l.label, l.file ? vscode.Uri.file(l.file) : undefined);
                t.range = toRange(l);
                t.description = l.description;
                return t;
            });
            item.children.replace(items);
            item.error = undefined;
        } catch (err) {
            item.error = err instanceof Error ? err.message : String(err);
        } finally {
            item.busy = false;
        }
    }

    /**
     * One run profile per model declared by any open spec or in settings; the default model's profile is
     * the default. `spec` updates what one spec file declares.
     */
    refreshProfiles(file?: string, spec?: SpecModel): void {
        if (file && spec) this.specModels.set(file, spec.models);
        void engine().then(e => {
            const declared = [...this.specModels.values()].flat();
            const models = e.availableModels({ models: declared }, settings.settingModels());
            const preferred = e.defaultModel(models, settings.defaultModel(), true);
            const stale = new Set(this.profiles.keys());
            models.forEach(m => {
                stale.delete(m.name);
                stale.delete(`${m.name}\u0000batch`);
                const isDefault = preferred === m.name;
                const existing = this.profiles.get(m.name);
                if (existing) {
                    existing.isDefault = isDefault;
                    return;
                }
                const label = m.provider === 'offline' ? `${m.name} (offline simulator)` : m.name;
                this.profiles.set(
                    m.name,
                    this.controller.createRunProfile(
                        label,
                        vscode.TestRunProfileKind.Run,
                        (req, token) => this.run(req, token, m.name),
                        isDefault,
                    ),
                );
                // A model with a Batch API can also be run as a batch: the test run stays open until the results arrive.
                if (e.batchableModel(m)) {
                    this.profiles.set(
                        `${m.name}\u0000batch`,
                        this.controller.createRunProfile(
                            `${m.name} · batch (half price, within 24 h)`,
                            vscode.TestRunProfileKind.Run,
                            (req, token) => this.run(req, token, m.name, true),
                            false,
                        ),
                    );
                }
            });
            for (const name of stale) {
                this.profiles.get(name)?.dispose();
                this.profiles.delete(name);
            }
        });
    }

    /** The selection grouped per spec as engine run requests (suite, probe, or explicit questions). */
    private async run(
        req: vscode.TestRunRequest,
        token: vscode.CancellationToken,
        model: string,
        batch?: boolean,
    ): Promise<void> {
        const selected: vscode.TestItem[] = [];
        if (req.include) selected.push(...req.include);
        else this.controller.items.forEach(i => selected.push(i));
        const bySpec = new Map<string, vscode.TestItem[]>();
        for (const item of selected) {
            const file = this.specOf(item);
            bySpec.set(file, [...(bySpec.get(file) ?? []), item]);
        }
        const run = this.controller.createTestRun(req, `HalluProbe · ${model}${batch ? ' · batch' : ''}`);
        this.explorerRuns++;
        let states = '';
        const watch = batch
            ? this.s.runs.onDidProgress(({ progress }) => {
                  const line = progress.batches ? batchStates(progress.batches) : '';
                  if (line && line !== states) {
                      run.appendOutput(`${line}\r\n`);
                      states = line;
                  }
              })
            : undefined;
        try {
            for (const [file, items] of bySpec) {
                const tree = this.nodes.get(file);
                if (!tree) continue;
                const gen = await this.s.state.generation(file);
                const excluded = new Set((req.exclude ?? []).map(i => i.id));
                const selectedNodes = items.map(i => this.nodes.get(i.id)).filter((n): n is TreeNode => n !== undefined);
                for (const unit of planRuns(tree, selectedNodes)) {
                    if (token.isCancellationRequested) break;
                    // Every question below the selection gets an item (created now if its phrasing was never expanded).
                    const wanted = gen.questions.filter(q => unit.scopes.some(n => covers(n, q.probe, q.phrasing, q.id)));
                    const leaves = this.ensureQuestionItems(file, wanted);
                    for (const [id, item] of leaves) if (excluded.has(item.id)) leaves.delete(id);
                    for (const item of leaves.values()) run.enqueued(item);
                    for (const item of leaves.values()) run.started(item);
                    const outcome = await this.s.runs.start({
                        file,
                        model,
                        token,
                        suite: unit.suite,
                        fromExplorer: true,
                        ...(batch ? { batch } : {}),
                        questionIds: unit.explicit ? [...leaves.keys()] : undefined,
                        label: `${unit.suite ? `suite ${unit.suite}` : unit.scopes.map(n => n.label).join(', ')} · ${model}${batch ? ' · batch' : ''}`,
                    });
                    if (!outcome) {
                        for (const item of leaves.values()) run.skipped(item);
                        continue;
                    }
                    this.shown.set(file, `${outcome.results.run.id} · ${outcome.results.verdicts.length}`);
                    this.report(run, outcome.results, leaves, model, unit.explicit, outcome.cached);
                }
            }
        } finally {
            watch?.dispose();
            this.explorerRuns--;
            run.end();
        }
    }

    /** Question items for these questions (creating a phrasing's children when it was not expanded yet). */
    private ensureQuestionItems(file: string, questions: readonly Question[]): Map<string, vscode.TestItem> {
        const out = new Map<string, vscode.TestItem>();
        for (const ph of [...this.nodes.values()].filter(n => n.kind === 'phrasing' && n.id.startsWith(file))) {
            const parent = this.find(ph.id);
            if (!parent) continue;
            for (const l of questionNodes(ph, questions, Number.MAX_SAFE_INTEGER)) {
                this.nodes.set(l.id, l);
                let t = parent.children.get(l.id);
                if (!t) {
                    t = this.controller.createTestItem(l.id, l.label, l.file ? vscode.Uri.file(l.file) : undefined);
                    t.range = toRange(l);
                    t.description = l.description;
                    parent.children.add(t);
                }
                out.set(questionIdOf(l)!, t);
            }
        }
        return out;
    }

    private find(id: string): vscode.TestItem | undefined {
        const walk = (c: vscode.TestItemCollection): vscode.TestItem | undefined => {
            let found: vscode.TestItem | undefined;
            c.forEach(i => {
                if (!found) found = i.id === id ? i : id.startsWith(i.id) ? walk(i.children) : undefined;
            });
            return found;
        };
        return walk(this.controller.items);
    }

    /** Verdicts onto items; questions a sampled suite did not ask are skipped, an explicit one without an answer errored. */
    private report(
        run: vscode.TestRun,
        results: RunResults,
        leaves: Map<string, vscode.TestItem>,
        model: string,
        explicit: boolean,
        cached: ReadonlySet<string>,
    ): void {
        const questions = new Map(results.questions.map(q => [q.id, q]));
        const answers = new Map(results.answers.filter(a => a.model === model).map(a => [a.questionId, a.text]));
        for (const v of results.verdicts) {
            if (v.model !== model) continue;
            const item = leaves.get(v.questionId);
            const q = questions.get(v.questionId);
            if (!item || !q) continue;
            // A cached answer cost nothing and took no time: shown in the item's description and as 0 ms.
            const fromCache = cached.has(`${v.questionId}\u0000${model}`);
            item.description = `gold ${goldText(q)}${fromCache ? ' · cached answer' : ''}`;
            this.failedModel.set(v.questionId, model);
            if (questionPassed(q, v)) {
                run.passed(item, fromCache ? 0 : undefined);
                continue;
            }
            const msg = new vscode.TestMessage(failureText(q, v, answers.get(v.questionId)));
            // The failure's peek offers Review Answers (package.json: testing/message/context).
            msg.contextValue = 'halluprobe.failure';
            const loc = q.source.probe;
            msg.location = new vscode.Location(
                vscode.Uri.file(loc.file),
                new vscode.Range(
                    loc.range.start.line,
                    loc.range.start.character,
                    loc.range.start.line,
                    loc.range.end.line === loc.range.start.line ? loc.range.end.character : 1000,
                ),
            );
            run.failed(item, msg, fromCache ? 0 : undefined);
            run.appendOutput(`${q.question}\r\n${failureText(q, v).replace(/\n/g, '\r\n')}\r\n\r\n`, msg.location, item);
        }
        const judged = new Set(results.verdicts.filter(v => v.model === model).map(v => v.questionId));
        const asked = new Set(results.questions.map(q => q.id));
        for (const [id, item] of leaves) {
            if (judged.has(id)) continue;
            if (!explicit && !asked.has(id)) run.skipped(item);
            else
                run.errored(
                    item,
                    new vscode.TestMessage('No answer was recorded for this question (see the HalluProbe log for the error).'),
                );
        }
    }
}
