/** The Markdown report: metrics tables with intervals, paths per hop, overrides, judge, and failing examples. */
import type { GroupMetrics } from '../verify/metrics.js';
import { groupLabel, LABEL_PARTS, keyCells, questionKey } from './labels.js';
import { trustLine } from './trust.js';
import { ciText, countsLine, failureReason, overrodeText, passed, pct, reportSections, type ReportData } from './model.js';

/** Model text inside a Markdown table cell or line: no pipes, no line breaks, no HTML, bounded. */
export function mdText(s: string, max = 160): string {
    const one = s.replace(/\s+/g, ' ').trim();
    const cut = one.length > max ? one.slice(0, max - 1) + '…' : one;
    return cut.replace(/[\\`*_[\]|<>#]/g, c => `\\${c}`);
}

/** The group key as table cells (model | probe | phrasing | variant | mode), the same in every table. */
const KEY_HEAD = `| ${LABEL_PARTS.join(' | ')} |`;
const KEY_RULE = `|${LABEL_PARTS.map(() => '---').join('|')}|`;
const keyRow = (g: GroupMetrics) =>
    `| ${keyCells(g)
        .map(c => mdText(c))
        .join(' | ')} |`;

function metricsTable(groups: GroupMetrics[]): string[] {
    const lines = [`${KEY_HEAD} N | A | R | AR | M | H | contradicted |`, `${KEY_RULE}---:|---|---|---|---|---|---|`];
    for (const g of groups) {
        if (g.na) {
            lines.push(`${keyRow(g)} – | ${mdText(g.na)} | | | | | |`);
            continue;
        }
        const f = (k: 'A' | 'R' | 'AR' | 'M' | 'H') => `${pct(g[k])} ${ciText(g.ci[k])}`.trim();
        lines.push(`${keyRow(g)} ${g.n} | ${f('A')} | ${f('R')} | ${f('AR')} | ${f('M')} | ${f('H')} | ${pct(g.C)} |`);
    }
    return lines;
}

export function renderMarkdown(d: ReportData, maxExamples = 50): string {
    const out: string[] = [];
    out.push(`# HalluProbe report — run ${mdText(d.run.id)}`, '');
    out.push(
        `Spec \`${mdText(d.run.spec)}\`, suite \`${mdText(d.run.suite)}\`, started ${d.run.started}, status ${d.run.status}.`,
    );
    const failed = d.rows.filter(r => !passed(r));
    out.push(countsLine(d), '');
    out.push(
        'A = answer correct, R = critical keywords in the rationale, AR = both, M = unsure or unparseable, H = 1 − A − M (hallucination; lower is better), contradicted = a keyword contradicted by another value from the data; n/a = the figure does not apply (no keywords to look for). Brackets: Wilson 95 % interval.',
        '',
    );
    out.push(trustLine(d.trust), '');
    out.push('## Metrics', '', ...metricsTable(d.metrics), '');
    for (const section of reportSections(d)) {
        out.push(
            `## ${mdText(section.title)}`,
            '',
            `| ${section.columns.map(c => mdText(c)).join(' | ')} |`,
            `|${section.columns.map(() => '---').join('|')}|`,
        );
        for (const row of section.rows) out.push(`| ${row.map(c => mdText(c)).join(' | ')} |`);
        out.push('');
    }
    if (d.unanswered.length) {
        out.push(
            '## Questions without an answer',
            '',
            '| probe | model | calls failed | not answered yet |',
            '|---|---|---:|---:|',
        );
        for (const u of d.unanswered) out.push(`| ${mdText(u.probe)} | ${mdText(u.model)} | ${u.failed} | ${u.notAnswered} |`);
        out.push('');
    }
    if (d.judge) {
        out.push(
            `## ${d.judge.label} (opt-in, preset "${d.judge.preset}")`,
            '',
            `Agreement with the deterministic verifier on ${d.judge.n} sampled verdicts: ${pct(d.judge.agreement)}; Cohen's kappa ${pct(d.judge.kappa)}.`,
            '',
        );
    }
    if (d.overrides.length) {
        out.push(
            '## Overrides',
            '',
            '| question | model | sample | correct | rationale | by | at | why | overrode |',
            '|---|---|---:|---|---|---|---|---|---|',
        );
        for (const o of d.overrides)
            out.push(
                `| ${mdText(o.questionId)} | ${mdText(o.model)} | ${o.sample} | ${o.correct ?? ''} | ${o.rationale ?? ''} | ${mdText(o.by)} | ${o.at} | ${mdText(o.why)} | ${mdText(overrodeText(o))} |`,
            );
        out.push('');
    }
    if (failed.length) {
        out.push(`## Failing questions (${Math.min(maxExamples, failed.length)} of ${failed.length})`, '');
        for (const r of failed.slice(0, maxExamples)) {
            out.push(
                `- **${mdText(r.verdict.model)}** · ${mdText(groupLabel(questionKey(r.question)))}: ${mdText(r.question.question)}`,
                `  - ${mdText(failureReason(r), 600)}`,
                `  - response: ${mdText(r.response, 300)}`,
            );
        }
        out.push('');
    }
    return out.join('\n');
}
