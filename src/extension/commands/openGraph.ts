import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { argField, pickSpec } from './pick.js';
import { errorText, showError } from '../context.js';
import { engine } from '../state.js';
import { GraphPanel } from '../panels/graph.js';
import { graphArgOfTestItem } from '../testing/item-args.js';
import { questionPassed, type Verdict } from '../../core/verify/index.js';
import type { Question } from '../../core/probes/index.js';

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
        if (!questionId) {
            panel.show(schema);
            return;
        }
        const results = s.state.results(file) ?? (await s.state.loadLatest(file));
        let question = results?.questions.find(q => q.id === questionId);
        if (!question) question = (await s.state.generation(file)).questions.find(q => q.id === questionId);
        if (!question) {
            panel.show(schema);
            void vscode.window.showWarningMessage(`HalluProbe: question ${questionId} is not in the latest run or generation.`);
            return;
        }
        const model =
            argField(arg, 'model') ??
            s.testing?.modelShown(questionId) ??
            (await whoseAnswer(results?.verdicts.filter(v => v.questionId === questionId) ?? [], question));
        if (model === null) return;
        const sample =
            typeof (arg as { sample?: unknown } | undefined)?.sample === 'number'
                ? (arg as { sample: number }).sample
                : undefined;
        const verdict = results?.verdicts.find(
            v => v.questionId === questionId && (!model || v.model === model) && (sample === undefined || v.sample === sample),
        );
        const answer =
            verdict &&
            results?.answers.find(a => a.questionId === questionId && a.model === verdict.model && a.sample === verdict.sample);
        panel.show(e.questionView(question, verdict, answer?.text, schema.schema));
    } catch (err) {
        showError(s.ctx, errorText(err), err);
    }
}

/**
 * Whose answer to draw when the caller did not say: the one model that answered, or the one that failed; with several
 * failed answers, the user picks (null: dismissed). Never silently the first model's.
 */
async function whoseAnswer(verdicts: readonly Verdict[], question: Question): Promise<string | undefined | null> {
    const models = [...new Set(verdicts.map(v => v.model))];
    if (models.length <= 1) return models[0];
    const failed = [...new Set(verdicts.filter(v => !questionPassed(question, v)).map(v => v.model))];
    if (failed.length === 1) return failed[0];
    const choice = await vscode.window.showQuickPick(
        (failed.length ? failed : models).map(m => ({ label: m, description: failed.includes(m) ? 'failed' : 'passed' })),
        { title: 'HalluProbe: whose answer?' },
    );
    return choice ? choice.label : null;
}
