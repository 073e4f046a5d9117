/**
 * Which of a run's slots (question × model × sample) have no answer, per probe and model: their calls failed, or
 * were not made yet. Every report format and the editor's per-probe lines count them from here, so a run whose
 * calls failed never reads as "all passed". A leaf: types only, loaded eagerly by the editor.
 */
import type { Question } from '../probes/question.js';
import type { RunSettings } from '../store/types.js';

export interface Unanswered {
    probe: string;
    model: string;
    failed: number;
    notAnswered: number;
}

export interface SlotInput {
    settings?: RunSettings;
    questions: readonly Question[];
    answers: readonly { questionId: string; model: string; sample: number }[];
    /** The slots whose calls failed (the store's `failures`); absent: every missing slot counts as not answered yet. */
    failures?: readonly { question: string; model: string; sample: number; error: string }[];
}

const slot = (q: string, m: string, s: number) => `${q}\u0000${m}\u0000${s}`;

/**
 * Per probe and model (models named as stored), the unanswered slots; `onMissing` sees each one, with its last error
 * when its calls failed.
 */
export function unansweredSlots(
    input: SlotInput,
    onMissing?: (question: Question, model: string, sample: number, error: string | undefined) => void,
): Unanswered[] {
    const answered = new Set(input.answers.map(a => slot(a.questionId, a.model, a.sample)));
    const failures = new Map((input.failures ?? []).map(f => [slot(f.question, f.model, f.sample), f]));
    const models =
        input.settings?.models?.map(m => ({ name: m.name, samples: Math.max(1, m.samples ?? 1) })) ??
        [...new Set(input.answers.map(a => a.model))].map(name => ({ name, samples: 1 }));
    const selected = input.settings?.questionIds ? new Set(input.settings.questionIds) : undefined;
    const by = new Map<string, Unanswered>();
    for (const q of input.questions) {
        if (selected && !selected.has(q.id)) continue;
        for (const m of models) {
            for (let sample = 0; sample < m.samples; sample++) {
                if (answered.has(slot(q.id, m.name, sample))) continue;
                const failure = failures.get(slot(q.id, m.name, sample));
                const k = `${q.probe}\u0000${m.name}`;
                let u = by.get(k);
                if (!u) by.set(k, (u = { probe: q.probe, model: m.name, failed: 0, notAnswered: 0 }));
                if (failure) u.failed++;
                else u.notAnswered++;
                onMissing?.(q, m.name, sample, failure?.error);
            }
        }
    }
    return [...by.values()];
}
