import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { withResultsStore } from './pick.js';
import { ComparePanel } from '../panels/compare.js';

/** HalluProbe: Compare Models — the engine's paired matrices of one run's models × variants (or of several runs), in a panel. */
export function compareModels(s: Services, arg?: unknown): Promise<void> {
    return withResultsStore(s, arg, async (e, db) => {
        const runs = (await e.runs(db)).reverse();
        if (!runs.length) {
            void vscode.window.showInformationMessage('HalluProbe: no run in the store yet.');
            return;
        }
        const items = runs.map(r => ({ label: r.id, description: `${r.suite} · ${r.status} · ${r.started}` }));
        const picked = await vscode.window.showQuickPick(items, {
            title: 'HalluProbe: the run(s) whose models and variants to compare',
            canPickMany: true,
        });
        if (!picked?.length) return;
        const panel = ComparePanel.show(s.ctx);
        panel.busy('Comparing…');
        panel.show(await e.compareModels(db, picked.map(p => p.label).sort()));
    });
}
