/**
 * One fact, every family in a data file (docs/facts.md): hovering a row of a CSV file that a spec with a run reads
 * shows, per model, the cross-family summary of the facts of that row's key in the spec's latest run — the same model
 * as an FD line's hover (`rowFactResults` → `AnchorFacts`), with links to the graph panel's fact view.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from './services.js';
import { engine } from './state.js';
import { appendFacts, escapeMd } from './codelens.js';
import { modelLabel } from './results/summary.js';
import { rowFactResults, rowsAtLine, type RowFacts } from '../core/report/light.js';

export class RowFactsHover implements vscode.HoverProvider {
    constructor(private readonly s: Services) {}

    async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
        const sections: { spec: string; run: string; label: string; r: RowFacts }[] = [];
        // The specs open in the editor (their latest run read from their store) and those whose run the editor holds.
        const open = vscode.workspace.textDocuments.filter(d => d.languageId === 'probe').map(d => d.uri.fsPath);
        for (const spec of new Set([...this.s.state.specsWithResults(), ...open])) {
            const results = this.s.state.results(spec) ?? (await this.s.state.loadLatest(spec));
            if (!results) continue;
            try {
                // Reads the spec's data only when its sources were allowed (the graph panel's rule).
                await this.s.state.readable(spec);
                const { spec: model, data } = await (await engine()).specData(spec);
                const rows = rowsAtLine(model, data, doc.uri.fsPath, pos.line + 1);
                const shown = modelLabel(results.run);
                for (const r of rowFactResults(results, rows))
                    sections.push({ spec, run: results.run.id, label: shown(r.model), r });
            } catch (err) {
                this.s.ctx.output.warn(
                    `facts of ${doc.uri.fsPath}:${pos.line + 1}: ${err instanceof Error ? err.message : String(err)}`,
                );
            }
        }
        if (sections.length === 0) return undefined;
        // The facts asked in two families or more first: those the cross-family summary is about (the engine counts them).
        const md = new vscode.MarkdownString(undefined, false);
        md.isTrusted = { enabledCommands: ['halluprobe.openFact'] };
        for (const { spec, run, label, r } of sections.sort((a, b) => b.r.across - a.r.across)) {
            md.appendMarkdown(
                `**${escapeMd(`${r.relation}(${r.key.join(', ')})`)}** · ${escapeMd(label)} · ${escapeMd(path.basename(spec))}, run ${escapeMd(run)}\n\n`,
            );
            appendFacts(md, spec, r.model, r.facts);
        }
        return new vscode.Hover(md);
    }
}
