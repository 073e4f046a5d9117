/**
 * The HTML shell of every HalluProbe webview: a strict CSP (nothing but our own script, by nonce, and our
 * stylesheet), narrow resource roots, and no data in the page — data only arrives by postMessage.
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { PanelName } from '../../protocol/webview.js';

function nonce(): string {
    return randomBytes(16).toString('base64');
}

/** Resource roots of a panel: the built webview scripts and the media folder, nothing else. */
export function resourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
    return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

function csp(webview: vscode.Webview, scriptNonce: string): string {
    return [
        "default-src 'none'",
        `img-src ${webview.cspSource} data: blob:`,
        `style-src ${webview.cspSource}`,
        `font-src ${webview.cspSource}`,
        `script-src 'nonce-${scriptNonce}'`,
    ].join('; ');
}

/** The page for webview `name` (dist/webview/<name>.js, media/<name>.css). `title` is ours, not data. */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, name: PanelName, title: string): string {
    const n = nonce();
    const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', `${name}.js`));
    const common = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'webview.css'));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', `${name}.css`));
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp(webview, n)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${common}">
<link rel="stylesheet" href="${style}">
<title>${title.replace(/[<>&"]/g, '')}</title>
</head>
<body data-panel="${name}">
<div id="app" role="main"><p class="status" id="status">Loading…</p></div>
<script nonce="${n}" src="${script}"></script>
</body>
</html>`;
}
