/**
 * The calls the families' model steps make per answer (open: the G-Eval judge `judge_with`), resolved to their
 * models, so that the cost gate counts and prices them before the run like the answers themselves.
 */
import type { SpecModel } from '../spec/model.js';
import type { ChatMessage, Question } from '../probes/question.js';
import { findCapability } from '../probes/registry.js';
import { modelFromFlag, resolveModel, type ResolvedModel } from '../models/providers.js';

/** The step calls for one answer of a question (the answer a stand-in of the expected length before the run). */
export type AnswerSteps = (question: Question, answer: string) => { model: ResolvedModel; messages: ChatMessage[] }[];

/** The spec's answer steps; undefined when no probe has one. */
export function answerStepsOf(spec: SpecModel): AnswerSteps | undefined {
    const probes = new Map(
        spec.probes.flatMap(p => {
            const steps = findCapability(p.kind, 'modelSteps')?.answerSteps?.(p);
            return steps ? [[p.name, steps] as const] : [];
        }),
    );
    if (probes.size === 0) return undefined;
    const models = new Map<string, ResolvedModel | undefined>();
    const resolved = (name: string) => {
        if (!models.has(name)) {
            const decl = modelFromFlag(name, spec.models);
            models.set(name, decl ? resolveModel(decl).model : undefined);
        }
        return models.get(name);
    };
    return (q, answer) => {
        const steps = probes.get(q.probe);
        if (!steps) return [];
        return steps(q, answer).flatMap(c => {
            const model = resolved(c.model);
            return model ? [{ model, messages: c.messages }] : [];
        });
    };
}
