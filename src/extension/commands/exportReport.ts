import * as vscode from 'vscode';
import * as path from 'node:path';
import * as fs from 'node:fs';
import type { Services } from '../services.js';
import { withResultsStore } from './pick.js';
import { showHtmlReport, showMarkdownPreview } from '../panels/report.js';
import type { ReportFormat } from '../engine.js';

const FORMATS: { format: ReportFormat; label: string; ext: string }[] = [
    { format: 'html', label: 'HTML (one self-contained file)', ext: 'html' },
    { format: 'md', label: 'Markdown', ext: 'md' },
    { format: 'json', label: 'JSON (metrics per group)', ext: 'json' },
    { format: 'csv', label: 'CSV', ext: 'csv' },
    { format: 'jsonl', label: 'JSONL (one line per question with its verdict)', ext: 'jsonl' },
    { format: 'junit', label: 'JUnit XML (for CI)', ext: 'xml' },
    { format: 'erbench', label: "ERBench tables (the paper's layout, Markdown)", ext: 'md' },
];

/** HalluProbe: Export Report — the latest (or a picked) run in one of the engine's report formats. */
export function exportReport(s: Services, arg?: unknown): Promise<void> {
    return withResultsStore(s, arg, async (e, db, file) => {
        const run = await e.latestRun(db);
        if (!run) {
            void vscode.window.showInformationMessage('HalluProbe: no runs to export yet.');
            return;
        }
        const choice = await vscode.window.showQuickPick(
            FORMATS.map(f => ({ ...f, description: f.format })),
            { title: `HalluProbe: export run ${run.id} as` },
        );
        if (!choice) return;
        const target = await vscode.window.showSaveDialog({
            defaultUri: vscode.Uri.file(path.join(path.dirname(file), `halluprobe-${run.id}.${choice.ext}`)),
            filters: { [choice.label]: [choice.ext] },
        });
        if (!target) return;
        const { text, note } = await e.report(db, run.id, choice.format);
        if (note) void vscode.window.showWarningMessage(`HalluProbe: ${note}`);
        fs.writeFileSync(target.fsPath, text);
        const open = 'Open';
        if (
            (await vscode.window.showInformationMessage(
                `HalluProbe: report written to ${vscode.workspace.asRelativePath(target)}.`,
                open,
            )) === open
        ) {
            // Rendered: HTML in a webview, Markdown in VS Code's preview; the data formats as text.
            if (choice.format === 'html') showHtmlReport(`Report · ${run.id}`, text);
            else if (choice.ext === 'md') await showMarkdownPreview(target);
            else await vscode.commands.executeCommand('vscode.open', target);
        }
    });
}
