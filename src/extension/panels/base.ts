/**
 * What the preview and graph panels share: one panel per spec, the ready handshake (messages posted before
 * the webview's script runs are queued, then flushed on `ready`), validation of every incoming message,
 * and request/response pairing.
 */
import * as vscode from 'vscode';
import {
    isWebviewToHost,
    PROTOCOL_VERSION,
    type HostToWebview,
    type PanelName,
    type WebviewToHost,
    type WebviewRequest,
} from '../../protocol/webview.js';
import type { Ctx } from '../context.js';
import { resourceRoots, webviewHtml } from './html.js';

export abstract class Panel implements vscode.Disposable {
    private ready = false;
    private queue: HostToWebview[] = [];
    private last: HostToWebview | undefined;
    private readonly subscriptions: vscode.Disposable[] = [];
    private readonly disposed = new vscode.EventEmitter<void>();
    readonly onDidDispose = this.disposed.event;

    protected constructor(
        protected readonly ctx: Ctx,
        readonly panel: vscode.WebviewPanel,
        name: PanelName,
        title: string,
    ) {
        panel.webview.options = { enableScripts: true, localResourceRoots: resourceRoots(ctx.extension.extensionUri) };
        panel.webview.html = webviewHtml(panel.webview, ctx.extension.extensionUri, name, title);
        this.subscriptions.push(panel.webview.onDidReceiveMessage(m => void this.receive(m)));
        this.subscriptions.push(panel.onDidDispose(() => this.dispose()));
    }

    static options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
        return { enableScripts: true, retainContextWhenHidden: true, enableFindWidget: true };
    }

    protected post(msg: HostToWebview): void {
        if (msg.type === 'init' || msg.type === 'update') this.last = msg;
        if (this.ready) void this.panel.webview.postMessage(msg);
        else this.queue.push(msg);
    }

    busy(message: string): void {
        this.post({ type: 'busy', message });
    }
    error(message: string): void {
        this.post({ type: 'error', message });
    }

    private async receive(raw: unknown): Promise<void> {
        if (!isWebviewToHost(raw)) {
            this.ctx.output.warn('ignored a malformed message from a HalluProbe webview');
            return;
        }
        const msg: WebviewToHost = raw;
        if (msg.type === 'ready') {
            if (msg.version !== PROTOCOL_VERSION)
                this.ctx.output.warn(`webview protocol ${msg.version}, host ${PROTOCOL_VERSION}`);
            this.ready = true;
            // A reloaded webview (e.g. moved to another group) gets the last state again.
            const pending = this.queue.length ? this.queue : this.last ? [this.last] : [];
            this.queue = [];
            for (const m of pending) void this.panel.webview.postMessage(m);
            return;
        }
        if (msg.type === 'log') {
            (msg.level === 'error' ? this.ctx.output.error : this.ctx.output.info).call(
                this.ctx.output,
                `webview: ${msg.message}`,
            );
            return;
        }
        if (msg.type === 'openSource') {
            if (!this.mayOpen(msg.file)) {
                this.ctx.output.warn(`webview asked to open ${msg.file}, which is not one of its sources`);
                return;
            }
            const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(msg.file));
            const line = Math.max(0, Math.min(doc.lineCount - 1, msg.line - 1));
            await vscode.window.showTextDocument(doc, {
                viewColumn: vscode.ViewColumn.One,
                selection: new vscode.Range(line, 0, line, doc.lineAt(line).text.length),
            });
            return;
        }
        if (msg.type === 'request') {
            try {
                const result = await this.handle(msg);
                void this.panel.webview.postMessage({
                    type: 'response',
                    requestId: msg.requestId,
                    ok: true,
                    result,
                } satisfies HostToWebview);
            } catch (err) {
                void this.panel.webview.postMessage({
                    type: 'response',
                    requestId: msg.requestId,
                    ok: false,
                    error: err instanceof Error ? err.message : String(err),
                } satisfies HostToWebview);
            }
            return;
        }
        await this.other(msg);
    }

    protected handle(req: WebviewRequest): Promise<unknown> {
        return Promise.reject(new Error(`this panel does not answer '${req.method}'`));
    }

    protected async other(_msg: WebviewToHost): Promise<void> {}

    /** A webview may only open the data files it was given (its messages are untrusted). */
    protected mayOpen(_file: string): boolean {
        return false;
    }

    dispose(): void {
        for (const s of this.subscriptions.splice(0)) s.dispose();
        this.disposed.fire();
        this.disposed.dispose();
        this.panel.dispose();
    }
}
