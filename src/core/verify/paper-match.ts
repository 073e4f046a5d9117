/**
 * The ERBench authors' keyword check (`check_reasoning` in their multiple-choice scoring code), for probes that
 * ask for it with `keyword_match paper`: a keyword is found when its value, or a spelling the spec's aliases give
 * it (`keywordForms(…, { paper: true })`), occurs lower-cased *anywhere* in the whole response — the answer line
 * included, as a substring, not a word — with line breaks read as spaces. No contradiction is looked for.
 *
 * Our default (whole words in the rationale, folded, contradictions detected) is sounder: "pop" is found in
 * "popular" here, and "CL" in "include". This one exists to reproduce the paper's R figures; docs/verification.md.
 */
import type { KeywordForms } from './aliases.js';
import type { Span } from './types.js';

/** The response as the authors compared it: blank lines collapsed, line breaks as spaces, lower case. */
export function paperText(response: string): string {
    return response.replaceAll('\n\n', '\n').replaceAll('\n', ' ').toLowerCase();
}

/**
 * Where the keyword (or its first spelling that occurs) is in `text` (from `paperText`, same offsets as the response):
 * its spans and the rule that matched ('paper' for the value itself, 'paper:<rule>' for an alias's spelling).
 */
export function findPaperKeyword(text: string, value: string, forms: KeywordForms): { spans: Span[]; rule?: string } {
    const candidates = [{ text: value, rule: '' }, ...forms.alternatives];
    for (const c of candidates) {
        const needle = c.text.toLowerCase();
        if (!needle) continue;
        const spans: Span[] = [];
        for (let at = text.indexOf(needle); at >= 0 && spans.length < 20; at = text.indexOf(needle, at + needle.length))
            spans.push({ start: at, end: at + needle.length });
        if (spans.length > 0) return { spans, rule: c.rule ? `paper:${c.rule}` : 'paper' };
    }
    return { spans: [] };
}
