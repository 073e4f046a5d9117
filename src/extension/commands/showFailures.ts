import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { argField, pickSpec } from './pick.js';
import { worstExamples } from '../../core/report/light.js';
import { engine } from '../state.js';

/**
 * The CodeLens / hover target: the failed questions of a probe or FD in the latest run, worst first;
 * picking one opens it in the graph panel.
 */
export async function showFailures(s: Services, arg?: unknown): Promise<void> {
    const file = await pickSpec(arg);
    if (!file) return;
    const results = s.state.results(file) ?? (await s.state.loadLatest(file));
    if (!results) {
        void vscode.window.showInformationMessage('HalluProbe: no results yet; run a suite first.');
        return;
    }
    const key = argField(arg, 'key');
    const model = argField(arg, 'model');
    const questions = new Map(results.questions.map(q => [q.id, q]));
    const fdProbes = key?.startsWith('fd:')
        ? new Set((await (await engine()).specView(file)).spec.probes.filter(p => p.fd === key.slice(3)).map(p => p.name))
        : undefined;
    const verdicts = results.verdicts.filter(v => {
        if (model && v.model !== model) return false;
        const q = questions.get(v.questionId);
        if (!key || !q) return true;
        return key.startsWith('probe:') ? q.probe === key.slice(6) : (fdProbes?.has(q.probe) ?? true);
    });
    const examples = worstExamples(questions, verdicts, 500, results.answers);
    if (examples.length === 0) {
        void vscode.window.showInformationMessage('HalluProbe: nothing failed here.');
        return;
    }
    // The question's own line: an open question's prompt goes on with its whole context, which is not a label.
    const label = (text: string) => {
        const first = text.split('\n')[0]!.trim();
        return first.length > 160 ? `${first.slice(0, 159)}…` : first;
    };
    // Each row names whose answer failed: with several models one question fails once per model.
    const pick = await vscode.window.showQuickPick(
        examples.map(e => ({
            label: label(e.question),
            description: e.model,
            detail: `${e.model}: ${e.line}`,
            questionId: e.questionId,
            model: e.model,
            sample: e.sample,
        })),
        {
            title: `HalluProbe: ${examples.length} failed answer${examples.length === 1 ? '' : 's'}`,
            matchOnDescription: true,
            matchOnDetail: true,
        },
    );
    if (pick)
        await vscode.commands.executeCommand('halluprobe.openGraph', {
            file,
            questionId: pick.questionId,
            model: pick.model,
            sample: pick.sample,
        });
}
