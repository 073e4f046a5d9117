/**
 * The extension's state in one place: every disposable is registered here (so deactivate is one call),
 * the output channel, the context keys that drive `when` clauses, and the shared services.
 */
import * as vscode from 'vscode';

export type ContextKey = 'halluprobe.ready' | 'halluprobe.running' | 'halluprobe.hasResults';

export class Ctx implements vscode.Disposable {
    readonly output: vscode.LogOutputChannel;
    private readonly disposables: vscode.Disposable[] = [];

    constructor(readonly extension: vscode.ExtensionContext) {
        this.output = vscode.window.createOutputChannel('HalluProbe', { log: true });
        this.push(this.output);
    }

    push<T extends vscode.Disposable>(d: T): T {
        this.disposables.push(d);
        return d;
    }

    setContext(key: ContextKey, value: boolean): void {
        void vscode.commands.executeCommand('setContext', key, value);
    }

    get trusted(): boolean {
        return vscode.workspace.isTrusted;
    }

    /** Absolute path of a file shipped with the extension. */
    asset(...parts: string[]): vscode.Uri {
        return vscode.Uri.joinPath(this.extension.extensionUri, ...parts);
    }

    dispose(): void {
        for (const d of this.disposables.splice(0).reverse()) {
            try {
                d.dispose();
            } catch {
                /* one failing disposable must not keep the others alive */
            }
        }
    }
}

/** Reports an error as a notification with its remedy; never a stack trace for bad input. */
export function showError(ctx: Ctx, message: string, err?: unknown): void {
    if (err !== undefined) ctx.output.error(message, err instanceof Error ? err : String(err));
    void vscode.window.showErrorMessage(`HalluProbe: ${message}`);
}

export function errorText(err: unknown): string {
    return err instanceof Error ? err.message : String(err);
}
