/**
 * The answer in the question: a binary probe's keywords are its fd's right-hand side, which the model's
 * rationale has to supply. A phrasing that states them (a `{director}` placeholder, the value written out, or
 * the same value reached through an fk) gives the answer away, and the rationale check then measures nothing.
 * Found on the rendered questions, so every way of stating the value is caught, whatever the template says.
 */
import { findFd, type ProbeDecl, type SpecModel } from '../spec/model.js';
import { findCore } from './registry.js';
import type { Plan } from './plan.js';
import type { Problem } from '../errors.js';

/** Rows looked at per probe: enough for a placeholder (every row) or a written-out value among the first rows. */
const ROWS_LOOKED_AT = 200;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A value's expression, made once per value: the same values come back row after row and probe after probe (a
 * large spec's first diagnostics made one per keyword of 200 rows of each binary probe). Bounded: cleared when full.
 */
const wordOf = new Map<string, RegExp>();
const WORDS_KEPT = 4096;
/** The value as a whole word or phrase, in any case ("Cameron" is not found inside "Cameroon"). */
function stated(question: string, value: string): boolean {
    const word = value.trim();
    if (word.length === 0) return false;
    let re = wordOf.get(word);
    if (!re) {
        if (wordOf.size >= WORDS_KEPT) wordOf.clear();
        wordOf.set(word, (re = new RegExp(`(?<![\\p{L}\\p{N}])${escape(word)}(?![\\p{L}\\p{N}])`, 'iu')));
    }
    return re.test(question);
}

/** A warning per phrasing whose questions state one of their keywords, with the first such question. */
export function answerInQuestion(spec: SpecModel, probe: ProbeDecl, plan: Plan): Problem[] {
    if (!findCore(probe.kind)?.keywordsUnstated) return [];
    const found = new Map<string, { question: string; attribute: string; value: string }>();
    const rows = new Int32Array(plan.scope.slots.length);
    const total = Math.min(plan.scope.slots[0]!.table.rowCount, ROWS_LOOKED_AT);
    // Every phrasing the probe asks (the declared ones, or the family's own when none is written): once each has
    // stated its answer, the rows left cannot add a warning.
    const phrasings = new Set(probe.phrasings.map(p => p.name));
    for (let row = 0; row < total; row++) {
        if (plan.bind(row, rows)) continue;
        const items = plan.items(rows, 'questions');
        if (items === 'invalid') continue;
        for (const item of items) {
            if (probe.phrasings.length === 0) phrasings.add(item.phrasing);
            if (found.has(item.phrasing)) continue;
            const keyword = item.keywords.flat().find(k => stated(item.question, k.value));
            if (keyword)
                found.set(item.phrasing, { question: item.question, attribute: keyword.attribute, value: keyword.value });
        }
        if (found.size === phrasings.size) break;
    }
    const fd = probe.fd ? findFd(spec, probe.fd) : undefined;
    const lhs = fd ? ` (${fd.lhs.join(', ')})` : '';
    return [...found].map(([phrasing, f]) => ({
        location: probe.phrasings.find(p => p.name === phrasing)?.loc ?? probe.loc,
        severity: 'warning',
        code: 'probe-answer-in-question',
        message:
            `Phrasing ${phrasing} of probe ${probe.name} states its answer: "${f.question}" contains "${f.value}", ` +
            `the ${f.attribute}, which is the right-hand side of ${fd?.id ?? probe.fd ?? 'its fd'} and the keyword the rationale must supply. ` +
            `Remedy: mention only the left-hand side${lhs} in the question and leave ${f.attribute} for the answer to name (see docs/language.md, "Binary probes").`,
    }));
}
