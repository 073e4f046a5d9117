import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { withResultsStore } from './pick.js';

/** HalluProbe: Compare Runs — the engine's comparison (changed verdicts, metric deltas) of two runs. */
export function compareRuns(s: Services, arg?: unknown): Promise<void> {
    return withResultsStore(s, arg, async (e, db) => {
        const runs = (await e.runs(db)).reverse();
        if (runs.length < 2) {
            void vscode.window.showInformationMessage('HalluProbe: comparing needs two runs in the store.');
            return;
        }
        const items = runs.map(r => ({ label: r.id, description: `${r.suite} · ${r.status} · ${r.started}` }));
        const picked = await vscode.window.showQuickPick(items, {
            title: 'HalluProbe: pick the two runs to compare (older first)',
            canPickMany: true,
        });
        if (!picked || picked.length !== 2) {
            if (picked) void vscode.window.showWarningMessage('HalluProbe: pick exactly two runs.');
            return;
        }
        const [a, b] = picked.map(p => p.label).sort();
        const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: await e.compare(db, a!, b!) });
        await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    });
}
