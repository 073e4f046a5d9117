/**
 * The figures capability of a probe family (optional): figures beyond A / R / AR / M / H, how they are computed
 * (over one phrasing's group, or over every phrasing of a probe at once), the columns every report and the editor's
 * CodeLens and hover show them in, and the ones `compare` pairs per question. A leaf, types only.
 */
import type { GroupMetrics } from '../../verify/figures.js';
import type { Verdict } from '../../verify/types.js';
import type { Question } from '../question.js';

/** The verdicts of a metrics group with their questions. */
export type GroupItems = readonly { v: Verdict; q: Question }[];

/**
 * One figure of a family's groups as a column: CSV, JUnit properties, the md / html "figures" table, and the
 * CodeLens and hover of the probe's line show it.
 */
export interface FigureColumn {
    /** Column name (CSV header, JUnit property, table column): short, no spaces, e.g. `echo_rate`. */
    readonly name: string;
    /** Its value for a group (usually read from the group's figure slot); null when it does not apply. */
    value(group: GroupMetrics): number | string | null;
    /**
     * The part of the figure slot it shows, as a dotted path (`statements.T`, or `statements.byRelation` for all under
     * it): CSV and JUnit, which also carry every slot figure by path, then leave those out instead of repeating them.
     */
    readonly slot?: string;
}

/** A family figure measured on each question (`compare` pairs it): its name, its direction, one verdict's outcome. */
export interface QuestionFigure {
    /** Short, no spaces (a matrix title, a JSON and CSV value): e.g. `factscore`. */
    readonly name: string;
    readonly higherIsBetter: boolean;
    /** Its outcome is a 0/1 per question (a proportion: Tango and McNemar may apply); absent: a score, always bootstrapped. */
    readonly proportion?: boolean;
    /** The verdict's outcome (0/1 or a score in [0, 1]); null where the question has none. */
    outcome(question: Question, verdict: Verdict): number | null;
}

export interface FiguresCapability {
    /** Figures of one group of its verdicts (path: R-ext per hop; choice: error rates; others: `{ figures: { key: … } }`). */
    extras?(items: GroupItems): Partial<GroupMetrics>;
    /**
     * Figures that span phrasings: computed over the verdicts of every phrasing of one model × probe × variant × mode
     * at once (echo: both askings of a row got the same answer), under figure-slot keys as `extras` gives them. Every
     * group of that probe (each phrasing's, the mean, the probe's line in the editor) carries the same value, merged
     * into its figure slot, so the columns below show it like any other figure: no second mechanism.
     */
    acrossPhrasings?(items: GroupItems): Record<string, unknown>;
    /** Its phrasings are alternatives of one question (choice stems): metrics add their mean. */
    readonly meanOverPhrasings?: boolean;
    /**
     * Its figures as named columns: every report format shows them without knowing them (CSV columns, JUnit
     * properties per suite, a figures table in md / html, and JSON through the group's figure slot), and the probe's
     * line in the editor (CodeLens: the first few; hover: all) beside A / R / AR / H.
     */
    readonly columns?: readonly FigureColumn[];
    /**
     * Its figures that have an outcome per question (a 0/1 or a score), so `compare` pairs them question by question
     * beside A / H / R / AR (a 0/1 outcome per single question gets Tango's interval and McNemar's test; a score
     * the cluster bootstrap). Absent: its group figures are only shown, not paired.
     */
    readonly questionFigures?: readonly QuestionFigure[];
}
