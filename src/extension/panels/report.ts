/**
 * Reports opened rendered (issue 36 item 4): a Markdown report is written beside the results store and shown in VS
 * Code's Markdown preview (no dirty Untitled buffer); an HTML report is shown in a webview of its own. The HTML
 * report is the engine's self-contained page with every model and data text escaped; here it runs with scripts off
 * and a CSP that lets in nothing but its own inline styles and images.
 */
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where Show Results writes a run's Markdown report: `reports/<run>.md` beside a file store, else beside the spec. */
export function reportFile(db: string, spec: string, run: string): string {
    const dir = /^postgres(ql)?:\/\//.test(db) ? path.join(path.dirname(spec), '.halluprobe') : path.dirname(db);
    return path.join(dir, 'reports', `${run}.md`);
}

/** Writes `text` to `file` and opens it in the Markdown preview beside the editor. */
export async function showMarkdownReport(file: string, text: string): Promise<void> {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    await showMarkdownPreview(vscode.Uri.file(file));
}

export async function showMarkdownPreview(uri: vscode.Uri): Promise<void> {
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri);
}

/** The CSP of a report page: no script, no request; its own inline styles, data images. */
const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

/** The report page with its scripts removed and the CSP in its head (scripts are off in the webview too). */
function reportPage(html: string): string {
    const meta = `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`;
    const clean = html.replace(/<script\b[\s\S]*?<\/script>/gi, '');
    return /<head[^>]*>/i.test(clean) ? clean.replace(/<head[^>]*>/i, m => `${m}\n${meta}`) : `${meta}\n${clean}`;
}

let panel: vscode.WebviewPanel | undefined;

/** Shows an HTML report rendered, in one report panel beside the editor (reused). */
export function showHtmlReport(title: string, html: string): void {
    if (!panel) {
        panel = vscode.window.createWebviewPanel(
            'halluprobe.report',
            title,
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
            { enableScripts: false, localResourceRoots: [] },
        );
        panel.onDidDispose(() => {
            panel = undefined;
        });
    } else panel.reveal(undefined, false);
    panel.title = title;
    panel.webview.html = reportPage(html);
}
