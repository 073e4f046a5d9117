import type * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
    // Filled in by the extension work: client, commands, Test Explorer, panels.
}

export function deactivate(): void {}
