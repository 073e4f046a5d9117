/**
 * `halluprobe report --facts [--fact SELECTOR]` (docs/facts.md): the run's facts alone, in md, html, json or csv.
 * The tables are the report's Facts sections (facts.ts); nothing is counted here.
 */
import { factSections, factsCsv, factsJson, selectFacts } from './facts.js';
import { esc } from './html.js';
import { mdText } from './markdown.js';
import type { ReportData } from './model.js';
import type { ReportFormat } from './model.js';

/** The formats `report --facts` writes. */
export const FACT_FORMATS: readonly ReportFormat[] = ['md', 'html', 'json', 'csv'];

export function renderFacts(
    d: Pick<ReportData, 'run' | 'facts'>,
    format: ReportFormat,
    selectors: readonly string[] = [],
): string {
    const r = selectFacts(d.facts, selectors);
    if (format === 'json') return JSON.stringify(factsJson(r), null, 2) + '\n';
    if (format === 'csv') return factsCsv(r);
    const sections = factSections(r, Number.POSITIVE_INFINITY);
    const title = `Facts — run ${d.run.id}${selectors.length ? ` (${selectors.join(', ')})` : ''}`;
    const none = r.facts.length
        ? []
        : [
              selectors.length
                  ? `No fact of the run matches ${selectors.join(', ')}.`
                  : "The run's questions record no facts (asked before facts were recorded, or by families that test none).",
          ];
    if (format === 'html') {
        return [
            `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${esc(title)}</title>`,
            '<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}</style></head><body>',
            `<h1>${esc(title)}</h1>`,
            ...none.map(n => `<p>${esc(n)}</p>`),
            ...sections.flatMap(s => [
                `<h2>${esc(s.title)}</h2>`,
                `<table><tr>${s.columns.map(c => `<th>${esc(c)}</th>`).join('')}</tr>`,
                ...s.rows.map(row => `<tr>${row.map(c => `<td>${esc(c)}</td>`).join('')}</tr>`),
                '</table>',
            ]),
            '</body></html>',
            '',
        ].join('\n');
    }
    const out = [`# ${mdText(title)}`, '', ...none];
    for (const s of sections) {
        out.push(
            `## ${mdText(s.title)}`,
            '',
            `| ${s.columns.map(c => mdText(c)).join(' | ')} |`,
            `|${s.columns.map(() => '---').join('|')}|`,
        );
        for (const row of s.rows) out.push(`| ${row.map(c => mdText(c)).join(' | ')} |`);
        out.push('');
    }
    return out.join('\n') + '\n';
}
