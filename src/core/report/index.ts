/** Reports of a run in six formats, and run-to-run comparison. Pure: plain data in, text out. */
import { renderJson, renderCsv, renderJsonl, renderJunit } from './formats.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderPaperTables } from './paper.js';
import type { ReportData, ReportFormat } from './model.js';

export {
    buildReport,
    failedRows,
    failureReason,
    readText,
    REPORT_FORMATS,
    type ReportData,
    type ReportFormat,
    type ReportInput,
} from './model.js';
export { compareRuns, renderComparison, changedVerdictsMarkdown, differenceInterval } from './compare.js';
export { csvField } from './formats.js';
export { renderFacts, FACT_FORMATS } from './facts-render.js';
export { compareCells, regressions, PAIRED_FIGURES, type CellComparison } from './paired.js';
export { compareGrid, renderPaired, regressionLines, num as pairedNumber, type PairedFormat } from './paired-render.js';
export { loadReport, resolveRunId } from './load.js';

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
export { agreementGate, agreementText } from './trust.js';
export { reviewView, reviewStatus, reviewOpening, reviewEnd, readerVerdict, readSpans, outcomeText } from './review-view.js';
