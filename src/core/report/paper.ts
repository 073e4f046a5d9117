/**
 * `report --format erbench`: a run's figures in the layout of the ERBench paper's tables, to put next to it —
 * one table per evaluation mode and prompt variant, a row per model, column blocks BN(Y) / BN(N) / MC (each
 * family says which blocks its groups give: `paperColumns`), cells A / R / AR / H (paths: A / R-ext / AR-ext
 * per hop / H). Figures as the paper prints them (".74"); n/a where a group is not reported.
 */
import type { GroupMetrics } from '../verify/metrics.js';
import { MODE_LABELS, type EvaluationMode } from '../verify/metrics.js';
import { findCapability } from '../probes/registry.js';
import type { PaperColumn } from '../probes/contract/report.js';
import type { ReportData } from './model.js';
export { paperFigure } from './paper-cells.js';

const MODES: EvaluationMode[] = ['known', 'all_known', 'all'];

function escapeCell(s: string): string {
    return s
        .replace(/\\/g, '\\\\')
        .replace(/\|/g, '\\|')
        .replace(/[\r\n]+/g, ' ');
}

/** The column blocks of one model in one table: every probe's, in the order the groups come. */
function blocksOf(groups: readonly GroupMetrics[]): { probe: string; blocks: PaperColumn[] }[] {
    const byProbe = new Map<string, GroupMetrics[]>();
    for (const g of groups) byProbe.set(g.probe, [...(byProbe.get(g.probe) ?? []), g]);
    const out: { probe: string; blocks: PaperColumn[] }[] = [];
    for (const [probe, list] of byProbe) {
        const blocks = findCapability(list[0]!.kind, 'report')?.paperColumns?.(list) ?? [];
        if (blocks.length) out.push({ probe, blocks });
    }
    return out;
}

export function renderPaperTables(d: ReportData): string {
    const lines: string[] = [`# ERBench tables — run ${d.run.id}`, ''];
    lines.push(
        'A = answer correct, R = critical keywords in the rationale, AR = both, H = 1 − A − M (hallucination). Paths: R-ext = mean share of hops recalled, AR-ext per hop (h1/h2/…). BN(Y) = basic questions (gold yes), BN(N) = negated, MC = multiple choice (mean over stems).',
        '',
    );
    const variants = [...new Set(d.metrics.map(g => g.variantId ?? g.variant))];
    let tables = 0;
    for (const mode of MODES) {
        for (const variant of variants) {
            const groups = d.metrics.filter(g => g.mode === mode && (g.variantId ?? g.variant) === variant);
            const models = [...new Set(groups.map(g => g.model))];
            const rows = models
                .map(m => ({ model: m, probes: blocksOf(groups.filter(g => g.model === m)) }))
                .filter(r => r.probes.length);
            if (rows.length === 0) continue;
            // The header comes from the widest row (every model of one run has the same probes).
            const layout = rows.reduce((a, b) =>
                b.probes.flatMap(p => p.blocks).length > a.probes.flatMap(p => p.blocks).length ? b : a,
            ).probes;
            const several = layout.length > 1;
            const heads = layout.flatMap(p =>
                p.blocks.flatMap(b => b.cells.map(c => `${several ? `${p.probe} ` : ''}${b.column} ${c.label}`)),
            );
            const covers = groups.find(g => g.covers)?.covers;
            lines.push(`## ${MODE_LABELS[mode]}${covers ? ` (${covers.join(', ')})` : ''} · ${variant}`, '');
            lines.push(`| model | ${heads.map(escapeCell).join(' | ')} |`);
            lines.push(`|---|${heads.map(() => '---:').join('|')}|`);
            for (const r of rows) {
                const cells = layout.flatMap(p =>
                    p.blocks.flatMap(b => {
                        const mine = r.probes.find(x => x.probe === p.probe)?.blocks.find(x => x.column === b.column);
                        return b.cells.map(c => mine?.cells.find(x => x.label === c.label)?.text ?? '');
                    }),
                );
                lines.push(`| ${escapeCell(r.model)} | ${cells.map(escapeCell).join(' | ')} |`);
            }
            const na = [...new Set(groups.filter(g => g.na).map(g => g.na!))];
            for (const why of na) lines.push('', `- ${why}`);
            lines.push('');
            tables++;
        }
    }
    if (tables === 0)
        lines.push('This run has no binary, path or multiple-choice groups: the ERBench layout has nothing to show.', '');
    return lines.join('\n');
}
