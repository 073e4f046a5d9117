/**
 * Overrides: a user marks a verdict wrong (the answer or the rationale), with who, when and why. The store keeps
 * them (`Store.recordOverride` / `Store.overrides`); they are applied before metrics are computed and listed in
 * every report.
 */
import type { OverriddenRead, Override, Verdict } from './types.js';

export type { Override } from './types.js';

/** What a verdict reads as the answer, to store with an override of it: the model reader's words when it decided. */
export function overriddenRead(v: Verdict): OverriddenRead | undefined {
    const m = v.modelRead;
    if (m?.patterns !== undefined && m.span) {
        const words = m.quote ?? m.text;
        if (words) return { text: words, span: m.span, by: m.model };
    }
    return v.read?.text ? { text: v.read.text, span: v.read.span, by: 'patterns' } : undefined;
}

/** Copies of the verdicts with each override attached (the verifier's own fields stay as they were). */
export function applyOverrides(verdicts: Verdict[], overrides: Override[]): Verdict[] {
    if (overrides.length === 0) return verdicts;
    const key = (q: string, m: string, s: number) => `${q}\u0000${m}\u0000${s}`;
    const byKey = new Map(overrides.map(o => [key(o.questionId, o.model, o.sample), o]));
    return verdicts.map(v => {
        const o = byKey.get(key(v.questionId, v.model, v.sample));
        if (!o) return v;
        const override: NonNullable<Verdict['override']> = { by: o.by, at: o.at, why: o.why };
        if (o.correct !== undefined) override.correct = o.correct;
        if (o.rationale !== undefined) override.rationale = o.rationale;
        if (o.read) override.read = o.read;
        return { ...v, override };
    });
}
