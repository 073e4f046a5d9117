/**
 * The HTML report: ONE self-contained file (inline CSS, inline SVG charts, no script, no external resource).
 * Every piece of text that came from a model, the data or the user goes through `esc`, so a response containing
 * <script> is shown as text and stays inert.
 */
import type { GroupMetrics } from '../verify/metrics.js';
import { groupKey, groupLabel, LABEL_PARTS, partText, questionKey, type GroupKey, type LabelPart } from './labels.js';
import { trustLine } from './trust.js';
import { ciText, countsLine, failureReason, overrodeText, passed, pct, reportSections, type ReportData } from './model.js';
import type { ChartSet, ReportCurve } from '../probes/contract/report.js';
import { familyKinds, findCapability } from '../probes/registry.js';
import { goldText } from '../probes/question.js';

export function esc(s: unknown): string {
    return String(s ?? '').replace(/[&<>"'`]/g, c => `&#${c.charCodeAt(0)};`);
}

const COLOURS: Record<string, string> = { A: '#3b82f6', R: '#10b981', AR: '#8b5cf6', H: '#ef4444' };

/** Label text is 11 px; a character is at most this wide (system-ui digits and capitals), so labels are sized, never cut. */
const LABEL_PX = 11;
const CHAR_PX = 0.62 * LABEL_PX;
const LINE_PX = 14;

interface ChartGroup {
    lines: string[];
    bars: { name: string; value: number | null; ci: [number, number] | null }[];
}

/**
 * Grouped bars with Wilson whiskers, one group per label. A label is the lines of its group key that differ
 * within the chart (what is common is in the caption), written level under its bars; each group is as wide as
 * its longest line, so no label is cut or overlaps its neighbour, and the chart is as wide as its data.
 */
function barChart(caption: string, groups: ChartGroup[]): string {
    const barW = 14,
        gap = 18,
        h = 160,
        top = 10,
        left = 34;
    const barsW = Math.max(1, ...groups.map(g => g.bars.length)) * barW;
    const widths = groups.map(g => Math.max(barsW, ...g.lines.map(l => Math.ceil(l.length * CHAR_PX))) + gap);
    const lineCount = Math.max(0, ...groups.map(g => g.lines.length));
    const w = left + widths.reduce((a, b) => a + b, 0) + 6;
    const height = top + h + 6 + lineCount * LINE_PX + 6;
    const y = (v: number) => top + h - v * h;
    const parts: string[] = [
        `<figure class="chart"><figcaption>${esc(caption)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${height}" role="img" aria-label="${esc(caption)}">`,
    ];
    for (const t of [0, 0.5, 1])
        parts.push(
            `<line x1="${left}" x2="${w - 6}" y1="${y(t)}" y2="${y(t)}" class="grid"/><text x="4" y="${y(t) + 4}" class="ax">${t.toFixed(1)}</text>`,
        );
    let x0 = left;
    groups.forEach((g, gi) => {
        const centre = x0 + widths[gi]! / 2;
        const first = centre - (g.bars.length * barW) / 2;
        g.bars.forEach((b, bi) => {
            const x = first + bi * barW;
            const v = b.value ?? 0;
            parts.push(
                `<rect x="${x}" y="${y(v)}" width="${barW - 2}" height="${Math.max(0, h * v)}" fill="${COLOURS[b.name] ?? '#64748b'}"><title>${esc(`${g.lines.join(' · ')} ${b.name} ${pct(b.value)} ${ciText(b.ci)}`)}</title></rect>`,
            );
            if (b.ci)
                parts.push(
                    `<line x1="${x + barW / 2 - 1}" x2="${x + barW / 2 - 1}" y1="${y(b.ci[1])}" y2="${y(b.ci[0])}" class="ci"/>`,
                );
        });
        const tspans = g.lines.map((l, i) => `<tspan x="${centre}" dy="${i === 0 ? 0 : LINE_PX}">${esc(l)}</tspan>`).join('');
        parts.push(`<text x="${centre}" y="${top + h + 6 + LABEL_PX}" class="lbl" text-anchor="middle">${tspans}</text>`);
        x0 += widths[gi]!;
    });
    parts.push('</svg></figure>');
    return parts.join('');
}

const SERIES = ['#3b82f6', '#ef4444', '#10b981', '#8b5cf6', '#f59e0b', '#0ea5e9', '#64748b', '#db2777'];

/** Lines over x in [0, 1] with Wilson whiskers at each point, and a legend of the series. */
function lineChart(c: ReportCurve): string {
    const h = 160,
        top = 24,
        left = 34,
        right = 12;
    const w = Math.max(460, left + c.title.length * 7.5);
    const x = (v: number) => left + v * (w - left - right);
    const y = (v: number) => top + h - v * h;
    const parts: string[] = [
        `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${top + h + 36 + 14 * c.series.length}" role="img" aria-label="${esc(c.title)}">`,
        `<text x="${left}" y="14" class="t">${esc(c.title)}</text>`,
    ];
    for (const t of [0, 0.5, 1]) {
        parts.push(
            `<line x1="${left}" x2="${w - right}" y1="${y(t)}" y2="${y(t)}" class="grid"/><text x="4" y="${y(t) + 4}" class="ax">${t.toFixed(1)}</text>`,
        );
        parts.push(`<text x="${x(t) - 6}" y="${top + h + 14}" class="ax">${t.toFixed(1)}</text>`);
    }
    parts.push(`<text x="${x(0.5) - c.x.length * 2.5}" y="${top + h + 26}" class="ax">${esc(c.x)}</text>`);
    c.series.forEach((s, i) => {
        const colour = SERIES[i % SERIES.length]!;
        const pts = [...s.points].sort((a, b) => a.x - b.x);
        parts.push(
            `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${pts.map(p => `${x(p.x)},${y(p.y)}`).join(' ')}"/>`,
        );
        for (const p of pts) {
            parts.push(
                `<circle cx="${x(p.x)}" cy="${y(p.y)}" r="3" fill="${colour}"><title>${esc(`${s.name} @ ${p.x}: ${pct(p.y)} ${ciText(p.ci)}`)}</title></circle>`,
            );
            if (p.ci)
                parts.push(
                    `<line x1="${x(p.x)}" x2="${x(p.x)}" y1="${y(p.ci[1])}" y2="${y(p.ci[0])}" stroke="${colour}" class="ci"/>`,
                );
        }
        parts.push(
            `<rect x="${left}" y="${top + h + 32 + 14 * i}" width="10" height="4" fill="${colour}"/><text x="${left + 14}" y="${top + h + 38 + 14 * i}" class="ax">${esc(s.name)}</text>`,
        );
    });
    parts.push('</svg>');
    return parts.join('');
}

function legend(names: string[]): string {
    return `<p class="legend">${names.map(n => `<span><i style="background:${COLOURS[n] ?? '#64748b'}"></i>${esc(n)}</span>`).join(' ')}</p>`;
}

const BAR_PARTS: readonly LabelPart[] = ['phrasing', 'variant'];

/**
 * One chart per model, probe and mode (the caption says which); its bars are labelled by the parts of the
 * group key that vary within it (phrasing, variant), so labels stay short enough to read whole.
 */
function metricsCharts(groups: GroupMetrics[]): string {
    const byChart = new Map<string, GroupMetrics[]>();
    for (const g of groups) {
        if (g.na || g.n === 0) continue;
        const key = groupLabel(groupKey(g), ['model', 'probe', 'mode']);
        let list = byChart.get(key);
        if (!list) {
            list = [];
            byChart.set(key, list);
        }
        list.push(g);
    }
    const out: string[] = [];
    for (const list of byChart.values()) {
        const keys = list.slice(0, 40).map(groupKey);
        const varying = BAR_PARTS.filter(p => new Set(keys.map(k => k[p])).size > 1);
        const common = LABEL_PARTS.filter(p => !varying.includes(p));
        out.push(
            barChart(
                groupLabel(keys[0]!, common),
                keys.map((k, i) => ({
                    lines: labelLines(k, varying),
                    bars: (['A', 'R', 'AR', 'H'] as const).map(m => ({ name: m, value: list[i]![m], ci: list[i]!.ci[m] })),
                })),
            ),
        );
    }
    return out.join('\n');
}

/** A bar group's label, one part per line (a default part, e.g. zero_shot, shown when it tells bars apart). */
function labelLines(k: GroupKey, parts: readonly LabelPart[]): string[] {
    return parts.map(p => partText(k, p));
}

/** The charts of the families whose groups are in the report, in the registry's order. */
function familyCharts(groups: GroupMetrics[]): ChartSet[] {
    const kinds = new Set(groups.map(g => g.kind));
    return familyKinds()
        .filter(k => kinds.has(k))
        .flatMap(k => findCapability(k, 'report')?.charts?.(groups) ?? []);
}

function metricsTable(groups: GroupMetrics[]): string {
    const head = `<tr>${LABEL_PARTS.map(p => `<th>${p}</th>`).join('')}<th>N</th><th>A</th><th>R</th><th>AR</th><th>M</th><th>H</th><th>contradicted</th></tr>`;
    const rows = groups.map(g => {
        const key = LABEL_PARTS.map(p => `<td>${esc(partText(groupKey(g), p))}</td>`).join('');
        if (g.na) return `<tr class="na">${key}<td colspan="7">${esc(g.na)}</td></tr>`;
        const f = (k: 'A' | 'R' | 'AR' | 'M' | 'H') => `<td>${pct(g[k])} <small>${ciText(g.ci[k])}</small></td>`;
        return `<tr>${key}<td>${g.n}</td>${f('A')}${f('R')}${f('AR')}${f('M')}${f('H')}<td>${pct(g.C)}</td></tr>`;
    });
    return `<table>${head}${rows.join('')}</table>`;
}

/** The response with the evidence spans marked (found keyword / conflicting value), all text escaped. */
function marked(response: string, row: ReportData['rows'][number]): string {
    const marks: { start: number; end: number; cls: string }[] = [];
    for (const h of row.verdict.hops)
        for (const k of h.keywords) {
            for (const s of k.spans) marks.push({ ...s, cls: 'found' });
            for (const s of k.conflict?.spans ?? []) marks.push({ ...s, cls: 'conflict' });
            for (const s of k.alsoStated?.spans ?? []) marks.push({ ...s, cls: 'also' });
        }
    marks.sort((a, b) => a.start - b.start);
    const limit = 2000;
    let out = '';
    let at = 0;
    for (const m of marks) {
        if (m.start < at || m.end > limit) continue;
        out += esc(response.slice(at, m.start)) + `<mark class="${m.cls}">${esc(response.slice(m.start, m.end))}</mark>`;
        at = m.end;
    }
    out += esc(response.slice(at, limit));
    return out + (response.length > limit ? '…' : '');
}

/** Tables with more columns than this are laid out wide (class `wide`). */
const WIDE_COLUMNS = 10;

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#0f172a;max-width:1200px}h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #cbd5e1;padding:3px 7px;text-align:left;vertical-align:top}th{background:#f1f5f9}
tr.na td{color:#64748b}small{color:#64748b}figure.chart{display:inline-block;vertical-align:top;margin:6px 16px 10px 0;max-width:100%;overflow-x:auto}figcaption{font-weight:600;font-size:12px}.ax{font-size:10px;fill:#475569}.lbl{font-size:11px;fill:#334155}
.grid{stroke:#e2e8f0}.ci{stroke:#0f172a;stroke-width:1.5}.legend span{margin-right:12px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
mark.found{background:#bbf7d0}mark.conflict{background:#fecaca}mark.also{background:#fde68a}.resp{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:12px}
.label{display:inline-block;background:#fef3c7;border:1px solid #f59e0b;padding:0 6px;border-radius:4px}
.tw{overflow-x:auto;width:calc(100vw - 64px)}table.wide{font-size:11px;margin:0}table.wide td,table.wide th{padding:2px 4px}`;

export function renderHtml(d: ReportData, maxExamples = 200): string {
    const failed = d.rows.filter(r => !passed(r));
    const parts: string[] = [];
    parts.push(
        `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`,
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
        `<title>${esc(`HalluProbe report ${d.run.id}`)}</title><style>${CSS}</style></head><body>`,
    );
    parts.push(
        `<h1>HalluProbe report — run ${esc(d.run.id)}</h1>`,
        `<p>Spec <code>${esc(d.run.spec)}</code>, suite <code>${esc(d.run.suite)}</code>, started ${esc(d.run.started)}, status ${esc(d.run.status)}. ${esc(countsLine(d))}</p>`,
        '<p><small>A = answer correct, R = critical keywords in the rationale, AR = both, M = unsure or unparseable, H = 1 − A − M (lower is better), contradicted = a keyword contradicted by another value from the data; n/a = the figure does not apply. Bracketed and whiskers: Wilson 95 % intervals.</small></p>',
    );
    parts.push(`<p>${esc(trustLine(d.trust))}</p>`);
    parts.push('<h2>Metrics</h2>', legend(['A', 'R', 'AR', 'H']), metricsCharts(d.metrics), metricsTable(d.metrics));
    // The families' own charts (path: per hop), each set under its heading.
    for (const set of familyCharts(d.metrics))
        parts.push(`<h2>${esc(set.title)}</h2>`, legend(set.legend), set.charts.map(c => barChart(c.title, c.groups)).join('\n'));
    for (const section of reportSections(d)) {
        parts.push(`<h2>${esc(section.title)}</h2>`, ...(section.curves ?? []).map(lineChart));
        // A table of many columns (a family's figures) takes the window's width in a smaller type, its headers breaking
        // at underscores, and scrolls inside itself if it still does not fit: the page never scrolls sideways (issue 36 item 12).
        const wide = section.columns.length > WIDE_COLUMNS;
        parts.push(
            `${wide ? '<div class="tw"><table class="wide">' : '<table>'}<tr>${section.columns.map(c => `<th>${esc(c).replace(/_/g, '_<wbr>')}</th>`).join('')}</tr>`,
            ...section.rows.map(row => `<tr>${row.map(c => `<td>${esc(c)}</td>`).join('')}</tr>`),
            wide ? '</table></div>' : '</table>',
        );
    }
    if (d.unanswered.length) {
        parts.push(
            '<h2>Questions without an answer</h2><table><tr><th>probe</th><th>model</th><th>calls failed</th><th>not answered yet</th></tr>',
            ...d.unanswered.map(
                u => `<tr><td>${esc(u.probe)}</td><td>${esc(u.model)}</td><td>${u.failed}</td><td>${u.notAnswered}</td></tr>`,
            ),
            '</table>',
        );
    }
    if (d.judge)
        parts.push(
            `<h2><span class="label">${esc(d.judge.label)}</span> opt-in, preset “${esc(d.judge.preset)}”</h2><p>Agreement with the deterministic verifier on ${d.judge.n} sampled verdicts: ${pct(d.judge.agreement)}; Cohen's kappa ${pct(d.judge.kappa)}.</p>`,
        );
    if (d.overrides.length) {
        parts.push(
            '<h2>Overrides</h2><table><tr><th>question</th><th>model</th><th>sample</th><th>correct</th><th>rationale</th><th>by</th><th>at</th><th>why</th><th>overrode</th></tr>',
            ...d.overrides.map(
                o =>
                    `<tr><td>${esc(o.questionId)}</td><td>${esc(o.model)}</td><td>${o.sample}</td><td>${esc(o.correct ?? '')}</td><td>${esc(o.rationale ?? '')}</td><td>${esc(o.by)}</td><td>${esc(o.at)}</td><td>${esc(o.why)}</td><td>${esc(overrodeText(o))}</td></tr>`,
            ),
            '</table>',
        );
    }
    if (failed.length) {
        parts.push(
            `<h2>Failing questions (${Math.min(maxExamples, failed.length)} of ${failed.length})</h2><table><tr><th>model</th><th>question</th><th>why</th><th>response</th></tr>`,
        );
        for (const r of failed.slice(0, maxExamples)) {
            parts.push(
                `<tr><td>${esc(r.verdict.model)}</td><td>${esc(r.question.question)}<br><small>${esc(groupLabel(questionKey(r.question)))} · gold ${esc(goldText(r.question))}</small></td><td>${esc(failureReason(r))}</td><td class="resp">${marked(r.response, r)}</td></tr>`,
            );
        }
        parts.push('</table>');
    }
    parts.push('</body></html>\n');
    return parts.join('\n');
}
