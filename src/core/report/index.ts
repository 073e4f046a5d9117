/** Reports of a run in six formats, and run-to-run comparison. Pure: plain data in, text out. */
import { renderJson, renderCsv, renderJsonl, renderJunit } from './formats.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderPaperTables } from './paper.js';
import type { ReportData, ReportFormat } from './model.js';

export {
    buildReport,
    passed,
    failedRows,
    failureReason,
    explainVerdict,
    readText,
    REPORT_FORMATS,
    type ReportData,
    type ReportFormat,
    type ReportInput,
    type ReportRow,
    type ReportRun,
} from './model.js';
export {
    compareRuns,
    renderComparison,
    changedVerdictsMarkdown,
    differenceInterval,
    type Comparison,
    type MetricDelta,
    type VerdictChange,
} from './compare.js';
export { renderJson, renderCsv, renderJsonl, renderJunit, groupJson, csvField, xmlEscape } from './formats.js';
export { renderHtml, esc } from './html.js';
export { renderMarkdown } from './markdown.js';
export { renderFacts, FACT_FORMATS } from './facts-render.js';
export { factsJson, factMatches, selectFacts } from './facts.js';
export { renderPaperTables, paperFigure } from './paper.js';
export {
    compareCells,
    pairDifference,
    regressions,
    PAIRED_FIGURES,
    type Cell,
    type CellComparison,
    type Flip,
    type PairedDifference,
    type PairedMatrix,
    type PairedOptions,
    type Regression,
} from './paired.js';
export {
    compareGrid,
    renderPaired,
    renderPairedCsv,
    renderPairedHtml,
    renderPairedJson,
    renderPairedMarkdown,
    regressionLines,
    matrixTitle,
    num as pairedNumber,
    pText,
    PAIRED_CSV_COLUMNS,
    type PairedFormat,
} from './paired-render.js';
export { loadReport, resolveRunId, type LoadReportOptions, type JudgeOptions } from './load.js';

export function renderReport(data: ReportData, format: ReportFormat): string {
    switch (format) {
        case 'md':
            return renderMarkdown(data);
        case 'html':
            return renderHtml(data);
        case 'json':
            return renderJson(data);
        case 'csv':
            return renderCsv(data);
        case 'jsonl':
            return renderJsonl(data);
        case 'junit':
            return renderJunit(data);
        case 'erbench':
            return renderPaperTables(data);
    }
}
export * from './light.js';
export { groupKey, groupLabel, variantId } from './labels.js';
export { agreementGate, agreementText, trustLine } from './trust.js';
export { reviewView, reviewStatus, reviewOpening, reviewEnd, readerVerdict, readSpans, outcomeText } from './review-view.js';
