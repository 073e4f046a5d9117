/**
 * Answer swapping (ReEval category 1), exact and validated: every occurrence of the gold answer (and its aliases)
 * in the passage is replaced by another answer of the same shape; a case is kept only when the old answer is gone,
 * the new one is there, the shapes match and nothing else in the passage changed.
 */
import { occurrences, unquote } from './text.js';

export type Shape = 'year' | 'number' | 'date' | 'name' | 'text';

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';

/** The kind of value an answer is, so a replacement of the same kind can be chosen. */
export function shapeOf(answer: string): Shape {
    const a = unquote(answer);
    if (/^(1[5-9]|20)\d\d$/.test(a)) return 'year';
    if (/^-?[\d,.]+%?$/.test(a) && /\d/.test(a)) return 'number';
    if (new RegExp(`\\b(${MONTHS})\\b`, 'i').test(a) && /\d/.test(a)) return 'date';
    if (/^\d{4}-\d\d-\d\d$/.test(a)) return 'date';
    if (/^(\p{Lu}[\p{L}'’.-]*)(\s+(\p{Lu}[\p{L}'’.-]*|of|the|and|de|von|van|da|del|la))*$/u.test(a)) return 'name';
    return 'text';
}

export type SwapRejection = 'no-occurrence' | 'old-answer-left' | 'new-answer-missing' | 'type-mismatch' | 'extra-changes' | 'same-answer';

export interface Swap { passage: string; spans: [number, number][]; replacement: string }

/** Replaces every occurrence of the answer's forms by `replacement`; undefined when the answer does not occur. */
export function swapAnswer(passage: string, forms: readonly string[], replacement: string): Swap | undefined {
    const hits = occurrences(passage, forms);
    if (hits.length === 0) return undefined;
    let out = '';
    let at = 0;
    const spans: [number, number][] = [];
    for (const [a, b] of hits) {
        out += passage.slice(at, a);
        spans.push([out.length, out.length + replacement.length]);
        out += replacement;
        at = b;
    }
    return { passage: out + passage.slice(at), spans, replacement };
}

/** Why a swapped passage is not a valid case, or undefined when it is. */
export function validateSwap(original: string, swap: Swap | undefined, oldForms: readonly string[], oldAnswer: string): SwapRejection | undefined {
    if (!swap) return 'no-occurrence';
    const fresh = unquote(swap.replacement);
    if (oldForms.some(f => unquote(f).toLowerCase() === fresh.toLowerCase())) return 'same-answer';
    if (shapeOf(fresh) !== shapeOf(oldAnswer)) return 'type-mismatch';
    // The old answer must be gone everywhere, also where it hides in a possessive ("Avatar's") or an alias.
    if (occurrences(swap.passage, oldForms).some(([a, b]) => !swap.spans.some(([s, e]) => s <= a && b <= e))) return 'old-answer-left';
    // … or inside another word ("Avatarland"): any case-insensitive occurrence outside the swapped spans.
    const lower = swap.passage.toLowerCase();
    for (const f of oldForms.map(x => unquote(x).toLowerCase()).filter(Boolean)) {
        for (let i = lower.indexOf(f); i >= 0; i = lower.indexOf(f, i + 1)) {
            if (!swap.spans.some(([s, e]) => s <= i && i + f.length <= e)) return 'old-answer-left';
        }
    }
    if (occurrences(swap.passage, [fresh]).length === 0) return 'new-answer-missing';
    // Outside the swapped spans the passage is what it was.
    let rebuilt = '';
    let at = 0;
    for (const [s, e] of swap.spans) { rebuilt += swap.passage.slice(at, s) + '\u0000'; at = e; }
    rebuilt += swap.passage.slice(at);
    const hits = occurrences(original, oldForms);
    let base = '';
    at = 0;
    for (const [s, e] of hits) { base += original.slice(at, s) + '\u0000'; at = e; }
    base += original.slice(at);
    return rebuilt === base ? undefined : 'extra-changes';
}
