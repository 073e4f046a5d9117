import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';

/** HalluProbe: Preview Derived Facts — a rule's derived facts with their proofs (read-only: data only, no model). */
export async function previewRule(s: Services, arg?: unknown): Promise<void> {
    const a = arg as { file?: string; rule?: string } | undefined;
    if (!a?.file || !a.rule) return;
    try {
        const text = await (await engine()).rulePreview(a.file, a.rule);
        const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
        await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}
