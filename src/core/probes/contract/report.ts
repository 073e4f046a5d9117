/**
 * The report capability of a probe family (optional): the tables, charts, JSON fields, paper cells and failure
 * explanations it adds to every report format. A leaf, types only.
 */
import type { GroupMetrics } from '../../verify/figures.js';
import type { Verdict } from '../../verify/types.js';
import type { Question } from '../question.js';

/** A line chart of a report section: one line per series, points with their intervals (the HTML report draws them). */
export interface ReportCurve {
    title: string;
    x: string;
    y: string;
    series: { name: string; points: { x: number; y: number; ci: [number, number] | null }[] }[];
}

/** A table a family adds to the reports (rendered by every format the same way), with optional curves. */
export interface ReportSection {
    title: string;
    columns: string[];
    rows: string[][];
    curves?: ReportCurve[];
}

/** One bar chart of the HTML report: a bar group per label (the label's lines under it), each bar with its interval. */
export interface BarChart {
    title: string;
    groups: { lines: string[]; bars: { name: string; value: number | null; ci: [number, number] | null }[] }[];
}

/** Bar charts a family adds to the HTML report under one heading, with the legend of its bars (path: per hop). */
export interface ChartSet {
    title: string;
    legend: string[];
    charts: BarChart[];
}

/** One column block of the ERBench paper's tables (BN(Y), BN(N), MC) with its cells, already written as figures. */
export interface PaperColumn {
    column: string;
    cells: { label: string; text: string }[];
}

/** What a family adds to the reports; every part is optional (none: the reports show A / R / AR / M / H only). */
export interface ReportCapability {
    /** Tables it adds to the reports, from its metric groups. */
    sections?(groups: readonly GroupMetrics[]): ReportSection[];
    /**
     * Its figures that are fields of the group (added to `GroupMetrics` from its folder, not in the figure slot:
     * path's `rExt` and `hops`, choice's `multiple` and `binding`) as fields of the group's JSON, rounded as
     * the JSON report rounds (`round4`, `roundCi` in report/numbers.ts). The figure slot needs nothing here.
     */
    groupJson?(group: GroupMetrics): Record<string, unknown>;
    /** Bar charts it adds to the HTML report after the metrics (path: R and AR-ext per hop). */
    charts?(groups: readonly GroupMetrics[]): ChartSet | undefined;
    /**
     * Its blocks of the ERBench paper's table (`report --format erbench`), from the groups of one model, probe,
     * variant and mode; families the paper has no column for leave it out.
     */
    paperColumns?(groups: readonly GroupMetrics[]): PaperColumn[];
    /**
     * Why a verdict of this family failed, in its own terms (open: which claim the data contradicts and by which
     * edge; none supported), from the reader's spans; every face shows these lines. Absent or empty: the generic
     * "answer X, expected Y" and the failed hops say it.
     */
    explainFailure?(question: Question, verdict: Verdict, response: string): string[];
}
