/**
 * Results inline in the spec: after a run, a CodeLens above each probe and FD with the paper's metrics per
 * model ("gpt-4o-mini · A .85 R .81 AR .80 H .15 · 45 of 300 rationales failed"); clicking opens the
 * failures; hovering the probe / FD line lists the worst examples. Before a run: Preview and Run.
 */
import * as vscode from 'vscode';
import type { Services } from './services.js';
import { engine, unsavedTexts } from './state.js';
import { figuresLine, questionGroupsLine, modelLabel, summaryLine } from './results/summary.js';
import {
    anchorResults,
    anchorTrust,
    fdOfProbe,
    simulatedModels,
    worstExamples,
    type AnchorFacts,
    type AnchorResult,
    type AnchorTrust,
} from '../core/report/light.js';
import type { RunResults } from '../core/store/index.js';
import type { SpecModel, SpecLocation } from '../core/spec/index.js';

interface Anchor {
    key: string;
    loc: SpecLocation;
}

function anchors(spec: SpecModel, file: string): Anchor[] {
    return [
        ...spec.probes.filter(p => p.loc.file === file).map(p => ({ key: `probe:${p.name}`, loc: p.loc })),
        ...spec.fds.filter(f => f.loc.file === file).map(f => ({ key: `fd:${f.id}`, loc: f.loc })),
        // One lens per rule, on its first clause.
        ...(spec.rules ?? [])
            .filter((r, i, all) => r.loc.file === file && all.findIndex(x => x.name === r.name) === i)
            .map(r => ({ key: `rule:${r.name}`, loc: r.loc })),
    ];
}

export class ResultsLens implements vscode.CodeLensProvider, vscode.HoverProvider {
    private readonly changed = new vscode.EventEmitter<void>();
    readonly onDidChangeCodeLenses = this.changed.event;
    /**
     * The spec view per file, stored as the promise when asked for, so that an edit's `forget` also drops a view
     * still being computed from the text before the edit (storing the result on arrival kept that stale view, and
     * its lines, until the next edit).
     */
    private readonly specs = new Map<string, Promise<SpecModel>>();

    constructor(private readonly s: Services) {
        s.ctx.push(s.state.onDidChangeResults(() => this.changed.fire()));
        const forget = (file: string) => {
            if (file) this.specs.delete(file);
            else this.specs.clear();
            this.changed.fire();
        };
        s.ctx.push(s.state.onDidChangeSpec(forget));
        s.ctx.push(s.state.onDidEditSpec(forget));
        s.ctx.push(this.changed);
    }

    private spec(file: string): Promise<SpecModel> {
        let spec = this.specs.get(file);
        if (!spec) {
            const texts = unsavedTexts();
            const view = engine()
                .then(e => e.specView(file, texts))
                .then(v => v.spec);
            spec = view;
            this.specs.set(file, view);
            view.catch(() => {
                if (this.specs.get(file) === view) this.specs.delete(file);
            });
        }
        return spec;
    }

    /**
     * The review's trust line per spec line × model (the engine's `anchorTrust` over the run's labels); undefined when
     * the labels cannot be read (the metrics lenses stay).
     */
    private async trust(
        file: string,
        results: RunResults,
        spec: SpecModel,
        byAnchor: Map<string, AnchorResult[]>,
    ): Promise<Map<string, AnchorTrust[]> | undefined> {
        try {
            return anchorTrust(results, await this.s.state.labels(file, results.run.id), fdOfProbe(spec), byAnchor);
        } catch (err) {
            this.s.ctx.output.warn(
                `could not read the review labels of run ${results.run.id}: ${err instanceof Error ? err.message : String(err)}`,
            );
            return undefined;
        }
    }

    /** The spec a document belongs to: itself (imports are resolved by the engine from the entry file). */
    async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
        const file = doc.uri.fsPath;
        let spec: SpecModel;
        try {
            spec = await this.spec(file);
        } catch {
            return [];
        }
        const results = this.s.state.results(file) ?? (await this.s.state.loadLatest(file));
        const byAnchor = results ? anchorResults(results, fdOfProbe(spec)) : new Map<string, AnchorResult[]>();
        const shown = modelLabel(results?.run);
        const simulated = results ? simulatedModels(results.run) : new Set<string>();
        const trust = results && byAnchor.size > 0 ? await this.trust(file, results, spec, byAnchor) : undefined;
        const lenses: vscode.CodeLens[] = [];
        // Which run the figures are (and a newer run that did not replace them): on the spec's first line.
        const which = results && byAnchor.size > 0 ? this.s.state.shownRun(file) : undefined;
        if (which)
            lenses.push(
                new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
                    title: which,
                    command: 'halluprobe.showResults',
                    arguments: [{ file, run: results!.run.id }],
                    tooltip: "Open this run's report",
                }),
            );
        for (const a of anchors(spec, file)) {
            const range = new vscode.Range(a.loc.range.start.line, 0, a.loc.range.start.line, 0);
            const found = byAnchor.get(a.key) ?? [];
            for (const g of found) {
                lenses.push(
                    new vscode.CodeLens(range, {
                        title: summaryLine(shown(g.model), g),
                        command: 'halluprobe.showFailures',
                        arguments: [{ file, key: a.key, model: g.model }],
                        tooltip: 'Show the failed questions',
                    }),
                );
                // How far to trust the line: the reader's agreement with the review labels (or that nobody reviewed it).
                // Not for the offline simulator: its answers are made from the golds, there is no model to check the
                // reader on (its row keeps within 100 columns; the hover still says how it stands).
                const t =
                    g.metrics.n > 0 && !simulated.has(g.model) ? trust?.get(a.key)?.find(x => x.model === g.model) : undefined;
                if (t) {
                    const probes = a.key.startsWith('probe:')
                        ? [a.key.slice(6)]
                        : spec.probes.filter(p => `fd:${p.fd}` === a.key).map(p => p.name);
                    lenses.push(
                        new vscode.CodeLens(range, {
                            title: `Review answers · ${t.lens}`,
                            command: 'halluprobe.reviewAnswers',
                            arguments: [{ file, run: results!.run.id, probes, model: g.model }],
                            tooltip: "Label these answers by keyboard; the reader's agreement with the labels is measured",
                        }),
                    );
                }
            }
            if (a.key.startsWith('rule:')) {
                lenses.push(
                    new vscode.CodeLens(range, {
                        title: 'Preview derived facts',
                        command: 'halluprobe.previewRule',
                        arguments: [{ file, rule: a.key.slice(5) }],
                    }),
                );
            }
            if (a.key.startsWith('probe:') && found.length === 0) {
                const probe = a.key.slice(6);
                lenses.push(
                    new vscode.CodeLens(range, {
                        title: 'Preview questions',
                        command: 'halluprobe.previewQuestions',
                        arguments: [{ file }],
                    }),
                );
                if (vscode.workspace.isTrusted)
                    lenses.push(
                        new vscode.CodeLens(range, {
                            title: 'Run',
                            command: 'halluprobe.runProbe',
                            arguments: [{ file, probe }],
                        }),
                    );
            }
        }
        return lenses;
    }

    async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
        const file = doc.uri.fsPath;
        const results = this.s.state.results(file);
        if (!results) return undefined;
        let spec: SpecModel;
        try {
            spec = await this.spec(file);
        } catch {
            return undefined;
        }
        const anchor = anchors(spec, file).find(a => a.loc.range.start.line === pos.line);
        if (!anchor) return undefined;
        const questions = new Map(results.questions.map(q => [q.id, q]));
        const group = anchorResults(results, fdOfProbe(spec)).get(anchor.key);
        if (!group?.length) return undefined;
        const shown = modelLabel(results.run);
        const trust = (await this.trust(file, results, spec, new Map([[anchor.key, group]])))?.get(anchor.key);
        const md = new vscode.MarkdownString(undefined, false);
        md.isTrusted = { enabledCommands: ['halluprobe.showFailures', 'halluprobe.openGraph', 'halluprobe.openFact'] };
        for (const g of group) {
            md.appendMarkdown(`**${escapeMd(summaryLine(shown(g.model), g))}**\n\n`);
            const groupText = questionGroupsLine(g);
            if (groupText) md.appendMarkdown(`${escapeMd(groupText)}\n\n`);
            const figureText = figuresLine(g);
            if (figureText) md.appendMarkdown(`${escapeMd(figureText)}\n\n`);
            const t = g.metrics.n > 0 ? trust?.find(x => x.model === g.model) : undefined;
            if (t) md.appendMarkdown(`Review: ${escapeMd(t.line)}\n\n`);
            // One fact, every family: the engine's line of this line's facts (docs/facts.md).
            if (g.facts) appendFacts(md, file, g.model, g.facts);
            const worst = worstExamples(questions, g.verdicts, 5, results.answers);
            if (worst.length === 0) {
                md.appendMarkdown('No failures.\n\n');
                continue;
            }
            md.appendMarkdown('Worst examples:\n\n');
            for (const w of worst) {
                const args = encodeURIComponent(JSON.stringify([{ file, questionId: w.questionId, model: g.model }]));
                md.appendMarkdown(
                    `- ${escapeMd(w.question)} — ${escapeMd(w.line)} ([graph](command:halluprobe.openGraph?${args}))\n`,
                );
            }
            const all = encodeURIComponent(JSON.stringify([{ file, key: anchor.key, model: g.model }]));
            md.appendMarkdown(`\n[All failures](command:halluprobe.showFailures?${all})\n\n`);
        }
        return new vscode.Hover(md);
    }
}

/**
 * The facts of a hovered line (an FD's, a data row's key) across families, as the engine summarised them: its line, then
 * the first few facts each linking to the graph panel's fact view (command `halluprobe.openFact`).
 */
export function appendFacts(md: vscode.MarkdownString, file: string, model: string, facts: AnchorFacts): void {
    md.appendMarkdown(`${escapeMd(facts.line)}\n\n`);
    if (facts.shown.length === 0) return;
    const links = facts.shown.map(f => {
        const args = encodeURIComponent(JSON.stringify([{ file, fact: f.id, model }]));
        return `[${escapeMd(f.label)}](command:halluprobe.openFact?${args} "Open the fact view") (${escapeMd(f.class)})`;
    });
    md.appendMarkdown(`Fact view: ${links.join(' · ')}\n\n`);
}

/** Model and data text in a hover: every Markdown / HTML character escaped. */
export function escapeMd(text: string): string {
    return text.replace(/[\\`*_{}[\]()#+\-.!|<>&]/g, c => `\\${c}`).replace(/\r?\n/g, ' ');
}
