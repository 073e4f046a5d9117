/**
 * The one key that tells result groups apart — model · probe · phrasing · variant (with its parameters, e.g.
 * `few_shot(2)`) · evaluation mode — and the one way it is rendered. Every output (Markdown, HTML charts and
 * tables, compare, the --max-h gate, the preview table, JUnit names, CodeLens) labels its groups through here,
 * so two groups of one report never look alike.
 */
import type { Question } from '../probes/question.js';
import { MODE_LABELS, type EvaluationMode, type GroupMetrics } from '../verify/figures.js';

export interface GroupKey {
    model?: string;
    probe?: string;
    phrasing?: string;
    /** The variant as written, parameters included (`few_shot(2)`), or its kind for questions stored before ids were kept. */
    variant?: string;
    mode?: EvaluationMode;
}

export type LabelPart = keyof GroupKey;
/** The order in which parts appear in every label and table. */
export const LABEL_PARTS: readonly LabelPart[] = ['model', 'probe', 'phrasing', 'variant', 'mode'];

/** A question's variant with its parameters (questions stored by older versions only have the kind). */
export function variantId(q: Pick<Question, 'variant' | 'variantId'>): string {
    return q.variantId ?? q.variant;
}

export function groupKey(g: GroupMetrics): Required<GroupKey> {
    return { model: g.model, probe: g.probe, phrasing: g.phrasing, variant: g.variantId ?? g.variant, mode: g.mode };
}

export function questionKey(q: Question, model?: string): GroupKey {
    const key: GroupKey = { probe: q.probe, phrasing: q.phrasing, variant: variantId(q) };
    if (model !== undefined) key.model = model;
    return key;
}

/** One part as text, the same in a table cell and in a joined label. */
export function partText(key: GroupKey, part: LabelPart): string {
    const v = key[part];
    if (v === undefined) return '';
    return part === 'mode' ? MODE_LABELS[v as EvaluationMode] : v;
}

/** Parts every group has by default and that a label may leave out: zero-shot prompts, all questions. */
const isDefault = (key: GroupKey, part: LabelPart) =>
    (part === 'variant' && key.variant === 'zero_shot') || (part === 'mode' && key.mode === 'all');

/**
 * The label of a group: the chosen parts joined by " · ", defaults (zero_shot, all questions) left out. Pass
 * only the parts a context does not already say (a chart titled by probe labels its bars without it).
 */
export function groupLabel(key: GroupKey, parts: readonly LabelPart[] = LABEL_PARTS): string {
    return LABEL_PARTS.filter(p => parts.includes(p) && key[p] !== undefined && !isDefault(key, p))
        .map(p => partText(key, p))
        .join(' · ');
}

/** Labels that more than one distinct group key renders to (empty when every group is told apart). */
export function sharedLabels(keys: GroupKey[], parts: readonly LabelPart[] = LABEL_PARTS): string[] {
    const seen = new Map<string, string>();
    const shared = new Set<string>();
    for (const k of keys) {
        const label = groupLabel(k, parts);
        const id = JSON.stringify(LABEL_PARTS.map(p => k[p] ?? null));
        const before = seen.get(label);
        if (before !== undefined && before !== id) shared.add(label);
        seen.set(label, id);
    }
    return [...shared];
}

/** The group key as table columns and cells: every table of groups (metrics, a family's sections, compare) starts so. */

export function keyCells(g: GroupMetrics): string[] {
    const key = groupKey(g);
    // "Entities all models know" says which models it covers (those with knowledge verdicts).
    return LABEL_PARTS.map(p => (p === 'mode' && g.covers ? `${partText(key, p)} (${g.covers.join(', ')})` : partText(key, p)));
}
