import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { argField, pickSpec } from './pick.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';
import { GraphPanel } from '../panels/graph.js';
import { graphArgOfTestItem } from '../testing/item-args.js';

/**
 * HalluProbe: Open Graph — the schema of the spec, or (with a question id, from a failure, the Test
 * Explorer, the gutter mark of a failed question, or the preview) the KG path behind that question with its hop verdicts.
 */
export async function openGraph(s: Services, arg?: unknown): Promise<void> {
    // From a failed question's mark in the editor or the Test Explorer: that question's graph.
    arg = graphArgOfTestItem(arg) ?? arg;
    const file = await pickSpec(arg);
    const questionId = argField(arg, 'questionId');
    if (!file) return;
    try {
        const e = await engine();
        const view = await e.specView(file);
        const panel = GraphPanel.show(s, file);
        const schema = e.schemaView(view.spec, file);
        if (!questionId) { panel.show(schema); return; }
        const results = s.state.results(file) ?? await s.state.loadLatest(file);
        let question = results?.questions.find(q => q.id === questionId);
        if (!question) question = (await s.state.generation(file)).questions.find(q => q.id === questionId);
        if (!question) { panel.show(schema); void vscode.window.showWarningMessage(`HalluProbe: question ${questionId} is not in the latest run or generation.`); return; }
        const model = argField(arg, 'model');
        const verdict = results?.verdicts.find(v => v.questionId === questionId && (!model || v.model === model));
        const answer = verdict && results?.answers.find(a => a.questionId === questionId && a.model === verdict.model && a.sample === verdict.sample);
        panel.show(e.questionView(question, verdict, answer?.text, schema.schema));
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}
