import * as vscode from 'vscode';
import type { CompareGrid } from '../../protocol/webview.js';
import type { Ctx } from '../context.js';
import { Panel } from './base.js';

/** Compare Models: the engine's paired matrices of a run's models × variants as grids; a cell opens its flipped questions. The grids are wide: the panel opens in the active column. */
export class ComparePanel extends Panel {
    private static current: ComparePanel | undefined;
    private initialised = false;

    private constructor(ctx: Ctx, panel: vscode.WebviewPanel) {
        super(ctx, panel, 'compare', 'Compare Models');
    }

    static show(ctx: Ctx): ComparePanel {
        if (ComparePanel.current) {
            ComparePanel.current.panel.reveal(undefined, true);
            return ComparePanel.current;
        }
        const panel = vscode.window.createWebviewPanel(
            'halluprobe.compare',
            'Compare Models',
            { viewColumn: vscode.ViewColumn.Active },
            Panel.options(),
        );
        const p = new ComparePanel(ctx, panel);
        ComparePanel.current = p;
        p.onDidDispose(() => {
            ComparePanel.current = undefined;
        });
        return p;
    }

    show(data: CompareGrid): void {
        this.post(this.initialised ? { type: 'update', panel: 'compare', data } : { type: 'init', panel: 'compare', data });
        this.initialised = true;
    }
}
