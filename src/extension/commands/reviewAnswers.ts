import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { argField, withResultsStore } from './pick.js';
import { graphArgOfTestItem } from '../testing/item-args.js';
import { ReviewPanel } from '../panels/review.js';

/** The arguments the CodeLens, the Test Explorer and the failure peek give: which spec, run, line's probes, model, question. */
function reviewArg(arg: unknown): unknown {
    // A failure's peek gives { test, message }; a Test Explorer item gives the item.
    const test = typeof arg === 'object' && arg !== null && 'test' in arg ? (arg as { test: unknown }).test : arg;
    return graphArgOfTestItem(test) ?? arg;
}

/**
 * HalluProbe: Review Answers — label a run's answers one by one by keyboard (the engine's review round, as
 * `halluprobe review`): the spec's latest answered run, or the one the CodeLens names; a CodeLens line's probes and model
 * only; from a question (Test Explorer, failure peek), that question's answers first.
 */
export function reviewAnswers(s: Services, raw?: unknown): Promise<void> {
    const arg = reviewArg(raw);
    return withResultsStore(s, arg, async (e, db, file) => {
        const runId = argField(arg, 'run') ?? (s.state.results(file) ?? (await s.state.loadLatest(file)))?.run.id;
        if (!runId) {
            void vscode.window.showInformationMessage(
                'HalluProbe: this spec has no run with verdicts to review yet. Run it first.',
            );
            return;
        }
        const given = typeof arg === 'object' && arg !== null ? (arg as { probes?: unknown }).probes : undefined;
        const probes = Array.isArray(given) && given.every(p => typeof p === 'string') ? (given as string[]) : undefined;
        const model = argField(arg, 'model');
        const first = argField(arg, 'questionId');
        const panel = ReviewPanel.show(s);
        panel.busy('Choosing the answers to review…');
        const { round, view } = await e.openReview(db, runId, {
            ...(probes ? { probes } : {}),
            ...(model ? { model } : {}),
            ...(first ? { first } : {}),
        });
        panel.start(file, round, view);
    });
}
