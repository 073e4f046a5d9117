import * as vscode from 'vscode';
import * as path from 'node:path';
import type { PreviewData, WebviewToHost } from '../../protocol/webview.js';
import type { Ctx } from '../context.js';
import { Panel } from './base.js';

/** The preview table of one spec's questions (virtualised in the webview). */
export class PreviewPanel extends Panel {
    private static readonly open = new Map<string, PreviewPanel>();
    private initialised = false;

    private constructor(
        ctx: Ctx,
        panel: vscode.WebviewPanel,
        readonly file: string,
    ) {
        super(ctx, panel, 'preview', `Questions · ${path.basename(file)}`);
    }

    static show(ctx: Ctx, file: string): PreviewPanel {
        const existing = PreviewPanel.open.get(file);
        if (existing) {
            existing.panel.reveal(undefined, true);
            return existing;
        }
        const panel = vscode.window.createWebviewPanel(
            'halluprobe.preview',
            `Questions · ${path.basename(file)}`,
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
            Panel.options(),
        );
        const p = new PreviewPanel(ctx, panel, file);
        PreviewPanel.open.set(file, p);
        p.onDidDispose(() => PreviewPanel.open.delete(file));
        return p;
    }

    private sources = new Set<string>();

    show(data: PreviewData): void {
        this.sources = new Set(data.rows.flatMap(r => (r.source ? [r.source.file] : [])));
        this.post(this.initialised ? { type: 'update', panel: 'preview', data } : { type: 'init', panel: 'preview', data });
        this.initialised = true;
    }

    protected override mayOpen(file: string): boolean {
        return this.sources.has(file);
    }

    protected override async other(msg: WebviewToHost): Promise<void> {
        if (msg.type === 'openQuestion')
            await vscode.commands.executeCommand('halluprobe.openGraph', { file: this.file, questionId: msg.questionId });
    }
}
