import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { argField } from './pick.js';
import { errorText, showError } from '../context.js';
import { GraphPanel } from '../panels/graph.js';
import { factView } from '../../core/report/light.js';

/**
 * HalluProbe: Open Fact View — from the hover of an FD or of a data row's key (docs/facts.md): the graph panel's fact
 * view of one fact and model in the spec's latest run, as the engine computes it (`factView`).
 */
export async function openFact(s: Services, arg?: unknown): Promise<void> {
    const file = argField(arg, 'file'),
        fact = argField(arg, 'fact'),
        model = argField(arg, 'model');
    if (!file || !fact || !model) {
        void vscode.window.showWarningMessage(
            'HalluProbe: Open Fact View opens from the hover of an FD or a data row after a run.',
        );
        return;
    }
    try {
        const results = s.state.results(file) ?? (await s.state.loadLatest(file));
        const view = results && factView(results, fact, model);
        if (!view) {
            void vscode.window.showWarningMessage(
                `HalluProbe: the latest run of ${file} has no verdict on that fact for ${model}.`,
            );
            return;
        }
        GraphPanel.show(s, file).show(view);
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}
