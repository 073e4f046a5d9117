import * as vscode from 'vscode';
import * as path from 'node:path';
import type { Services } from '../services.js';
import { argField, withResultsStore } from './pick.js';
import { reportFile, showMarkdownReport } from '../panels/report.js';

/** HalluProbe: Show Results — a run of the spec's store (`{ run }` names it), as the engine's Markdown report, rendered beside the spec. */
export function showResults(s: Services, arg?: unknown): Promise<void> {
    return withResultsStore(s, arg, async (e, db, file) => {
        const runs = (await e.runs(db)).reverse();
        if (runs.length === 0) {
            void vscode.window.showInformationMessage(
                `HalluProbe: no runs yet in ${vscode.workspace.asRelativePath(db)}. Run a suite first.`,
            );
            return;
        }
        const asked = argField(arg, 'run');
        const run = asked
            ? runs.find(r => r.id === asked)
            : runs.length === 1
              ? runs[0]!
              : (
                    await vscode.window.showQuickPick(
                        runs.map(r => ({
                            label: r.id,
                            description: `${path.basename(r.spec)} · ${r.suite} · ${r.status}`,
                            run: r,
                        })),
                        { title: 'HalluProbe: show which run?' },
                    )
                )?.run;
        if (!run) return;
        const results = await e.results(db, run.id);
        if (results) s.state.setResults(file, results);
        const { text, note } = await e.report(db, run.id, 'md');
        if (note) void vscode.window.showWarningMessage(`HalluProbe: ${note}`);
        // Rendered, in VS Code's Markdown preview, from a file beside the store (not a dirty Untitled buffer).
        await showMarkdownReport(reportFile(db, file, run.id), text);
    });
}
