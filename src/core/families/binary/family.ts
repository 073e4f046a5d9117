/**
 * Binary probes (ERBench §1): one row and one FD `X -> Y`; the question states X, the Y values are the
 * critical keywords. Basic phrasing gold yes, negated gold no, user phrasings with their own gold or a
 * `when` condition over the row (thresholds, buckets, equality).
 */
import type { PhrasingDecl, ProbeDecl, SpecModel } from '../../spec/model.js';
import type { LoadedData } from '../../data/types.js';
import { SYSTEM_BINARY } from '../../probes/prompts.js';
import {
    compilePhrasings,
    fdPlanStart,
    phrasedItems,
    sentence,
    settingTemplate,
    starPath,
    type Plan,
} from '../../probes/plan.js';
import { describeBy, labelOf, relationLabel } from '../../probes/scope.js';
import { violatingRows } from '../../probes/rows.js';
import type { ProbeFamily } from '../../probes/contract/family.js';
import { ANSWER_SETTINGS, parseYesNo, scoreYesNo, yesNoGuess, yesNoText } from '../../probes/answers.js';
import { binaryColumn, paperOrder, plainCells } from '../../report/paper-cells.js';
import type { Problem } from '../../errors.js';
import { dateItem, probeAsOf } from '../../probes/as-of.js';
import { declareSettings } from '../../spec/settings.js';
import { rowFacts } from '../../probes/facts.js';

function binaryPlan(spec: SpecModel, data: LoadedData, probe: ProbeDecl, problems: Problem[]): Plan | undefined {
    const start = fdPlanStart(spec, data, probe, problems);
    if (!start) return undefined;
    const { fd, slot, rel, scope } = start;
    let decls: PhrasingDecl[] = probe.phrasings;
    if (decls.length === 0) {
        // No phrasing written: the ERBench pattern over the relation's labels.
        const about = `${relationLabel(rel)} whose ${describeBy(rel, fd.lhs)}`;
        decls = [
            { name: 'basic', gold: { kind: 'yes' }, text: `Is there a ${about}?`, loc: probe.loc },
            { name: 'negated', gold: { kind: 'no' }, text: `Is it true that there is no ${about}?`, loc: probe.loc },
        ];
    }
    const phrasings = compilePhrasings(scope, decls);
    for (const a of [...fd.lhs, ...fd.rhs]) scope.need(0, a);
    const explainTemplate = settingTemplate(scope, BINARY_SETTINGS.read(probe.settings).explain);
    const labels = fd.rhs.map(a => labelOf(rel, a));
    const violating = violatingRows(slot.table, fd.lhs, fd.rhs);
    const asOf = probeAsOf(scope.slots, probe, problems);
    return {
        probe,
        scope,
        system: SYSTEM_BINARY,
        constraints: [fd.loc],
        bind(row, rows) {
            rows[0] = row;
            if (scope.hasNull(rows)) return 'null';
            if (violating?.[row]) return 'violating';
            return undefined;
        },
        items(rows, only) {
            const keywords = fd.rhs.map(a => scope.keywords(rows, 0, a, { relation: rel.name, attribute: a }));
            const explain =
                only === 'questions'
                    ? ''
                    : explainTemplate
                      ? explainTemplate(rows)
                      : labels.map((label, i) => sentence(label, keywords[i]!)).join(' ');
            const items = phrasedItems(scope, phrasings, rows, [keywords.flat()], explain);
            if (items === 'invalid' || only === 'questions') return items;
            // Basic and negated alike rest on the FD's right-hand side (docs/facts.md).
            const facts = rowFacts(scope, rows, 0, fd.rhs, 'asked', {}, fd.lhs);
            for (const item of items) {
                item.facts = facts;
                if (asOf) dateItem(item, asOf, [item.template]);
            }
            return items;
        },
        path: rows => starPath(scope, rows, fd.lhs, fd.rhs),
    };
}

/** Without phrasings a binary probe asks the ERBench pair. */
const DEFAULT_PHRASINGS = ['basic', 'negated'];

/** The settings a binary probe reads, declared once (src/core/spec/settings.ts) and read through this table. */
const BINARY_SETTINGS = declareSettings('probe binary', {
    explain: { type: 'text', doc: "A template for the demonstration's rationale (few-shot and chain-of-thought variants)." },
});

export const binaryFamily: ProbeFamily = {
    core: {
        kind: 'binary',
        title: 'yes / no questions from one FD: its left-hand side stated, its right-hand side the keywords',
        docs: 'probes.md#binary-probes-one-row-one-fd',
        target: 'fd',
        example: "write 'using <fd name>'",
        members: ['phrasing'],
        settings: [...ANSWER_SETTINGS.decls, ...BINARY_SETTINGS.decls],
        compile: ({ spec, data, probe, problems }) => binaryPlan(spec, data, probe, problems),
        phrasings: probe => (probe.phrasings.length ? probe.phrasings.map(p => p.name) : DEFAULT_PHRASINGS),
        pathPerItem: false,
        parse: parseYesNo,
        score: scoreYesNo,
        measured: true,
        decidesKnowledge: false,
        keywordsUnstated: true,
    },
    report: {
        paperColumns: groups => paperOrder(groups).map(g => ({ column: binaryColumn(g.phrasing), cells: plainCells(g) })),
    },
    simulator: { answerText: yesNoText, guess: yesNoGuess },
};
