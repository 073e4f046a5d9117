/** The Markdown report: metrics tables with intervals, paths per hop, overrides, judge, and failing examples. */
import type { GroupMetrics } from '../verify/metrics.js';
import { groupKey, groupLabel, LABEL_PARTS, partText, questionKey } from './labels.js';
import { ciText, failureReason, passed, pct, type ReportData } from './model.js';

/** Model text inside a Markdown table cell or line: no pipes, no line breaks, no HTML, bounded. */
export function mdText(s: string, max = 160): string {
    const one = s.replace(/\s+/g, ' ').trim();
    const cut = one.length > max ? one.slice(0, max - 1) + '…' : one;
    return cut.replace(/[\\`*_[\]|<>#]/g, c => `\\${c}`);
}

/** The group key as table cells (model | probe | phrasing | variant | mode), the same in every table. */
const KEY_HEAD = `| ${LABEL_PARTS.join(' | ')} |`;
const KEY_RULE = `|${LABEL_PARTS.map(() => '---').join('|')}|`;
const keyCells = (g: GroupMetrics) => `| ${LABEL_PARTS.map(p => mdText(partText(groupKey(g), p))).join(' | ')} |`;

export function metricsTable(groups: GroupMetrics[]): string[] {
    const lines = [`${KEY_HEAD} N | A | R | AR | M | H | C |`, `${KEY_RULE}---:|---|---|---|---|---|---|`];
    for (const g of groups) {
        if (g.na) { lines.push(`${keyCells(g)} – | ${mdText(g.na)} | | | | | |`); continue; }
        const f = (k: 'A' | 'R' | 'AR' | 'M' | 'H') => `${pct(g[k])} ${ciText(g.ci[k])}`;
        lines.push(`${keyCells(g)} ${g.n} | ${f('A')} | ${f('R')} | ${f('AR')} | ${f('M')} | ${f('H')} | ${pct(g.C)} |`);
    }
    return lines;
}

export function renderMarkdown(d: ReportData, maxExamples = 50): string {
    const out: string[] = [];
    out.push(`# HalluProbe report — run ${mdText(d.run.id)}`, '');
    out.push(`Spec \`${mdText(d.run.spec)}\`, suite \`${mdText(d.run.suite)}\`, started ${d.run.started}, status ${d.run.status}.`);
    const failed = d.rows.filter(r => !passed(r));
    out.push(`${d.rows.length} verdicts, ${d.rows.length - failed.length} passed, ${failed.length} failed${d.unverified ? `, ${d.unverified} answers not verified yet` : ''}.`, '');
    out.push('A = answer correct, R = critical keywords in the rationale, AR = both, M = unsure or unparseable, H = 1 − A − M (hallucination; lower is better), C = a keyword contradicted by another value from the data. Brackets: Wilson 95 % interval.', '');
    out.push('## Metrics', '', ...metricsTable(d.metrics), '');
    const paths = d.metrics.filter(g => g.hops && !g.na);
    if (paths.length) {
        out.push('## Paths, hop by hop', '', `${KEY_HEAD} R-ext | hop | R | AR-ext | P(r_i \\| r_i−1) | P(r_i \\| ¬r_i−1) |`, `${KEY_RULE}---|---:|---|---|---|---|`);
        for (const g of paths) for (const h of g.hops!) {
            out.push(`${keyCells(g)} ${pct(g.rExt?.value)} | ${h.hop} | ${pct(h.r.value)} ${ciText(h.r.ci)} | ${pct(h.ar.value)} ${ciText(h.ar.ci)} | ${h.givenPrevious ? `${pct(h.givenPrevious.value)} (N ${h.givenPrevious.n})` : ''} | ${h.givenNotPrevious ? `${pct(h.givenNotPrevious.value)} (N ${h.givenNotPrevious.n})` : ''} |`);
        }
        out.push('');
    }
    const choice = d.metrics.filter(g => g.multiple && !g.na);
    if (choice.length) {
        out.push('## Multiple choice errors', '', `${KEY_HEAD} multiple-answer | binding |`, `${KEY_RULE}---|---|`);
        for (const g of choice) out.push(`${keyCells(g)} ${pct(g.multiple!.value)} ${ciText(g.multiple!.ci)} | ${pct(g.binding!.value)} ${ciText(g.binding!.ci)} |`);
        out.push('');
    }
    if (d.judge) {
        out.push(`## ${d.judge.label} (opt-in, preset "${d.judge.preset}")`, '', `Agreement with the deterministic verifier on ${d.judge.n} sampled verdicts: ${pct(d.judge.agreement)}; Cohen's kappa ${pct(d.judge.kappa)}.`, '');
    }
    if (d.overrides.length) {
        out.push('## Overrides', '', '| question | model | sample | correct | rationale | by | at | why |', '|---|---|---:|---|---|---|---|---|');
        for (const o of d.overrides) out.push(`| ${mdText(o.questionId)} | ${mdText(o.model)} | ${o.sample} | ${o.correct ?? ''} | ${o.rationale ?? ''} | ${mdText(o.by)} | ${o.at} | ${mdText(o.why)} |`);
        out.push('');
    }
    if (failed.length) {
        out.push(`## Failing questions (${Math.min(maxExamples, failed.length)} of ${failed.length})`, '');
        for (const r of failed.slice(0, maxExamples)) {
            out.push(`- **${mdText(r.verdict.model)}** · ${mdText(groupLabel(questionKey(r.question)))}: ${mdText(r.question.question)}`,
                `  - ${mdText(failureReason(r))}`, `  - response: ${mdText(r.response, 300)}`);
        }
        out.push('');
    }
    return out.join('\n');
}
