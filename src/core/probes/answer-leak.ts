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
/** The value as a whole word or phrase, in any case ("Cameron" is not found inside "Cameroon"). */
const stated = (question: string, value: string) =>
    value.trim().length > 0 && new RegExp(`(?<![\\p{L}\\p{N}])${escape(value.trim())}(?![\\p{L}\\p{N}])`, 'iu').test(question);

/** A warning per phrasing whose questions state one of their keywords, with the first such question. */
export function answerInQuestion(spec: SpecModel, probe: ProbeDecl, plan: Plan): Problem[] {
    if (!findCore(probe.kind)?.keywordsUnstated) return [];
    const found = new Map<string, { question: string; attribute: string; value: string }>();
    const rows = new Int32Array(plan.scope.slots.length);
    const total = Math.min(plan.scope.slots[0]!.table.rowCount, ROWS_LOOKED_AT);
    for (let row = 0; row < total; row++) {
        if (plan.bind(row, rows)) continue;
        const items = plan.items(rows);
        if (items === 'invalid') continue;
        for (const item of items) {
            if (found.has(item.phrasing)) continue;
            const keyword = item.keywords.flat().find(k => stated(item.question, k.value));
            if (keyword)
                found.set(item.phrasing, { question: item.question, attribute: keyword.attribute, value: keyword.value });
        }
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
