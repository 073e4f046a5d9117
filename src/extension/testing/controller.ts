/**
 * The Test Explorer: mirrors the pure tree (tree.ts) into TestItems, creates question items lazily from the
 * engine's generation, offers one run profile per configured model and reports the engine's verdicts: a
 * failed question's message sits at its probe's line and says what was wrong.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Services } from '../commands/index.js';
import { buildSpecTree, questionNodes, questionIdOf, type TreeNode } from './tree.js';
import { engine } from '../state.js';
import * as settings from '../settings.js';
import { failureText, passed } from '../results/summary.js';
import type { RunResults } from '../../core/store/index.js';
import type { Question } from '../../core/probes/question.js';
import type { SpecModel } from '../../core/spec/model.js';

const toRange = (n: TreeNode) => n.range && new vscode.Range(n.range.start.line, n.range.start.character, n.range.end.line, n.range.end.character);

export class Testing {
    readonly controller: vscode.TestController;
    private readonly nodes = new Map<string, TreeNode>();
    private readonly profiles = new Map<string, vscode.TestRunProfile>();

    constructor(private readonly s: Services) {
        this.controller = vscode.tests.createTestController('halluprobe', 'HalluProbe');
        s.ctx.push(this.controller);
        this.controller.resolveHandler = item => item ? this.resolveChildren(item) : this.discover();
        this.controller.refreshHandler = () => this.discover();
        s.ctx.push(s.state.onDidChangeSpec(file => { if (file) void this.loadSpec(file); else void this.discover(); }));
        s.ctx.push(vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('halluprobe.models') || e.affectsConfiguration('halluprobe.defaultModel')) this.refreshProfiles(); }));
        this.refreshProfiles();
    }

    async discover(): Promise<void> {
        const files = await vscode.workspace.findFiles('**/*.probe', '**/{node_modules,.halluprobe}/**', 200);
        const keep = new Set(files.map(f => f.fsPath));
        this.controller.items.forEach(item => { if (!keep.has(item.id)) this.controller.items.delete(item.id); });
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
            this.refreshProfiles(spec);
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
            item.children.forEach(c => { if (!ids.has(c.id)) item!.children.delete(c.id); });
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
            const items = leaves.map(l => { this.nodes.set(l.id, l); const t = this.controller.createTestItem(l.id, l.label, l.file ? vscode.Uri.file(l.file) : undefined); t.range = toRange(l); t.description = l.description; return t; });
            item.children.replace(items);
            item.error = undefined;
        } catch (err) {
            item.error = err instanceof Error ? err.message : String(err);
        } finally {
            item.busy = false;
        }
    }

    /** One run profile per model (spec models and settings models); the default model's is the default. */
    refreshProfiles(spec?: SpecModel): void {
        void engine().then(e => {
            const models = e.availableModels(spec, settings.settingModels());
            const known = new Set([...this.profiles.keys()]);
            const preferred = settings.defaultModel();
            models.forEach((m, i) => {
                known.delete(m.name);
                if (this.profiles.has(m.name)) return;
                const label = m.provider === 'offline' ? `${m.name} (offline simulator)` : m.name;
                const profile = this.controller.createRunProfile(label, vscode.TestRunProfileKind.Run, (req, token) => this.run(req, token, m.name), preferred ? preferred === m.name : i === 0 && this.profiles.size === 0);
                this.profiles.set(m.name, profile);
            });
            // Models from other specs stay; a profile is dropped only when nothing declares it any more.
            if (spec) return;
            for (const stale of known) { this.profiles.get(stale)?.dispose(); this.profiles.delete(stale); }
        });
    }

    /** The selection grouped per spec as engine run requests (suite, probe, or explicit questions). */
    private async run(req: vscode.TestRunRequest, token: vscode.CancellationToken, model: string): Promise<void> {
        const selected: vscode.TestItem[] = [];
        if (req.include) selected.push(...req.include); else this.controller.items.forEach(i => selected.push(i));
        const bySpec = new Map<string, vscode.TestItem[]>();
        for (const item of selected) {
            const file = this.specOf(item);
            bySpec.set(file, [...(bySpec.get(file) ?? []), item]);
        }
        const run = this.controller.createTestRun(req, `HalluProbe · ${model}`);
        try {
            for (const [file, items] of bySpec) {
                if (token.isCancellationRequested) break;
                const scopes = items.map(i => this.nodes.get(i.id)).filter((n): n is TreeNode => n !== undefined);
                const wholeSpec = scopes.some(n => n.kind === 'spec');
                const suites = new Set(scopes.filter(n => n.kind === 'suite').map(n => n.suite));
                const single = scopes.length === 1 ? scopes[0]! : undefined;
                const gen = await this.s.state.generation(file);
                // Every question below the selection: resolved once here so each gets an item and a result.
                const wanted = gen.questions.filter(q => wholeSpec || scopes.some(n => covers(n, q.probe, q.phrasing, q.id)));
                const excluded = new Set((req.exclude ?? []).map(i => i.id));
                const leaves = this.ensureQuestionItems(file, wanted);
                for (const item of leaves.values()) if (!excluded.has(item.id)) run.enqueued(item);
                for (const item of leaves.values()) if (!excluded.has(item.id)) run.started(item);
                const outcome = await this.s.runs.start({
                    file, model, token,
                    suite: single?.kind === 'suite' && single.suite !== '(no suite)' ? single.suite : suites.size === 1 && [...suites][0] !== '(no suite)' ? [...suites][0] : undefined,
                    questionIds: wholeSpec ? undefined : wanted.map(q => q.id),
                    label: `${wholeSpec ? path.basename(file) : items.map(i => i.label).join(', ')} · ${model}`,
                });
                if (!outcome) { for (const item of leaves.values()) run.skipped(item); continue; }
                this.report(run, file, outcome.results, leaves, model);
            }
        } finally {
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
                if (!t) { t = this.controller.createTestItem(l.id, l.label, l.file ? vscode.Uri.file(l.file) : undefined); t.range = toRange(l); t.description = l.description; parent.children.add(t); }
                out.set(questionIdOf(l)!, t);
            }
        }
        return out;
    }

    private find(id: string): vscode.TestItem | undefined {
        const walk = (c: vscode.TestItemCollection): vscode.TestItem | undefined => {
            let found: vscode.TestItem | undefined;
            c.forEach(i => { if (!found) found = i.id === id ? i : id.startsWith(i.id) ? walk(i.children) : undefined; });
            return found;
        };
        return walk(this.controller.items);
    }

    private report(run: vscode.TestRun, file: string, results: RunResults, leaves: Map<string, vscode.TestItem>, model: string): void {
        const questions = new Map(results.questions.map(q => [q.id, q]));
        const answers = new Map(results.answers.filter(a => a.model === model).map(a => [a.questionId, a.text]));
        for (const v of results.verdicts) {
            if (v.model !== model) continue;
            const item = leaves.get(v.questionId);
            const q = questions.get(v.questionId);
            if (!item || !q) continue;
            if (passed(v)) { run.passed(item); continue; }
            const msg = new vscode.TestMessage(failureText(q, v, answers.get(v.questionId)));
            const loc = q.source.probe;
            msg.location = new vscode.Location(vscode.Uri.file(loc.file), new vscode.Range(loc.range.start.line, loc.range.start.character, loc.range.start.line, loc.range.end.line === loc.range.start.line ? loc.range.end.character : 1000));
            msg.expectedOutput = `gold: ${q.gold}`;
            msg.actualOutput = `answer: ${v.answer}\n${answers.get(v.questionId) ?? v.rationaleText}`;
            run.failed(item, msg);
            run.appendOutput(`${q.question}\r\n${failureText(q, v).replace(/\n/g, '\r\n')}\r\n\r\n`, msg.location, item);
        }
        for (const [id, item] of leaves) if (!results.verdicts.some(v => v.questionId === id && v.model === model)) run.errored(item, new vscode.TestMessage('No answer was recorded for this question (see the HalluProbe log for the error).'));
        this.s.ctx.output.info(`Test Explorer: reported ${results.verdicts.length} verdicts of ${path.basename(file)} for ${model}`);
    }
}

function covers(n: TreeNode, probe: string, phrasing: string, id: string): boolean {
    switch (n.kind) {
        case 'spec': return true;
        case 'suite': return n.children.some(p => p.probe === probe);
        case 'probe': return n.probe === probe;
        case 'phrasing': return n.probe === probe && n.phrasing === phrasing;
        case 'question': return questionIdOf(n) === id;
    }
}
