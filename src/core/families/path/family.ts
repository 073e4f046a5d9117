/**
 * Path (multi-hop) probes: `along R1.fk -> R2.fk -> … -> Rn.end`. The question shows attributes of the
 * start entity and the end attribute (or a predicate on it) and hides every FK value in between; the
 * rationale must recall one keyword set per hop (a list value: all of its items).
 */
import type { ProbeDecl, SpecModel } from '../../spec/model.js';
import { dateItem, probeAsOf } from '../../probes/as-of.js';
import type { LoadedData } from '../../data/types.js';
import type { KgEdge, KgNode, Keyword } from '../../probes/question.js';
import { AMBIGUOUS, DANGLING, FkJoin, resolvePath } from '../../kg/graph.js';
import { SYSTEM_BINARY } from '../../probes/prompts.js';
import {
    compilePhrasings,
    entityNode,
    phrasedItems,
    planFailure,
    sentence,
    settingTemplate,
    valueNode,
    type Plan,
} from '../../probes/plan.js';
import { labelOf, Scope, slotFor, type TemplateSlot } from '../../probes/scope.js';
import type { ProbeFamily } from '../../probes/contract/family.js';
import { ANSWER_SETTINGS, parseYesNo, scoreYesNo, yesNoGuess, yesNoText } from '../../probes/answers.js';
import { hopCharts, PATH_COLUMNS, pathJson, pathMetrics, rExtShare, type HopMetrics } from './metrics.js';
import { ciText, pct } from '../../report/numbers.js';
import { LABEL_PARTS, keyCells } from '../../report/labels.js';
import { binaryColumn, paperFigure, paperOrder } from '../../report/paper-cells.js';
import type { Problem } from '../../errors.js';
import { declareSettings } from '../../spec/settings.js';
import { rowFact } from '../../probes/facts.js';

declare module '../../probes/question.js' {
    interface QuestionData {
        /** path questions: how AR-ext is counted (`complete`: only over questions whose path has every hop); absent = per hop. */
        pathScoring?: { arExt: 'complete' };
    }
}

function pathPlan(spec: SpecModel, data: LoadedData, probe: ProbeDecl, problems: Problem[]): Plan | undefined {
    const fail = planFailure(problems, probe);
    const resolution = resolvePath(spec, probe.path ?? []);
    if ('error' in resolution) return fail('probe-path', resolution.error);
    const { hops, relations, cycleAt } = resolution.path;
    if (cycleAt !== undefined) {
        problems.push({
            location: probe.loc,
            severity: 'warning',
            code: 'probe-path-cycle',
            message: `The path returns to ${relations[cycleAt]} at hop ${cycleAt + 1} (a cycle): rows whose join comes back to the same entity are skipped.`,
        });
    }
    if (probe.phrasings.length === 0)
        return fail(
            'probe-phrasing',
            `Path probe ${probe.name} needs at least one phrasing, e.g. basic "Was the director of {title} born in the {decade(birth_year)}s?".`,
        );
    const slots: TemplateSlot[] = [];
    for (const name of relations) {
        const s = slotFor(spec, data.tables, name);
        if (typeof s === 'string') return fail('probe-data', s);
        slots.push(s);
    }
    const last = slots.length - 1;
    const end = hops[last]!.step.attribute;
    const hidden = new Set<string>();
    hops.forEach((h, i) => {
        if (!h.fk) return;
        h.fk.from.attributes.forEach(a => hidden.add(`${i}.${a}`));
        h.fk.to.attributes.forEach(a => hidden.add(`${i + 1}.${a}`));
    });
    const scope = new Scope(slots, [{ slot: 0 }, { slot: last, only: end }], hidden);
    const phrasings = compilePhrasings(scope, probe.phrasings);
    const explainTemplate = settingTemplate(scope, PATH_SETTINGS.read(probe.settings).explain);
    const arExt = PATH_SETTINGS.read(probe.settings).ar_ext;
    // Each hop's keyword lives in the slot the hop reaches (the FK target), the last one at the end attribute.
    const keywordSlot = hops.map((_, i) => (i < last ? i + 1 : last));
    hops.forEach((h, i) => scope.need(keywordSlot[i]!, h.keyword.attribute));
    const asOf = probeAsOf(slots, probe, problems);
    const joins = hops
        .slice(0, last)
        .map((h, i) => new FkJoin(slots[i]!.table, h.fk!.from.attributes, slots[i + 1]!.table, h.fk!.to.attributes));
    return {
        probe,
        scope,
        system: SYSTEM_BINARY,
        constraints: hops.flatMap(h => (h.fk ? [h.fk.loc] : [])),
        bind(row, rows) {
            rows[0] = row;
            for (let i = 0; i < joins.length; i++) {
                const t = joins[i]!.target(rows[i]!);
                if (t === DANGLING) return 'dangling';
                if (t === AMBIGUOUS) return 'violating';
                for (let j = 0; j <= i; j++) if (relations[j] === relations[i + 1] && rows[j] === t) return 'cycle';
                rows[i + 1] = t;
            }
            return scope.hasNull(rows) ? 'null' : undefined;
        },
        items(rows) {
            const keywords: Keyword[][] = hops.map((h, i) =>
                scope.keywords(rows, keywordSlot[i]!, h.keyword.attribute, h.keyword),
            );
            // A path whose last value is empty (a city that never hosted) has one hop fewer: no keyword to find.
            while (keywords.length > 0 && keywords[keywords.length - 1]!.length === 0) keywords.pop();
            const explain = explainTemplate
                ? explainTemplate(rows)
                : hops
                      .flatMap((h, i) =>
                          keywords[i]?.length ? [sentence(labelOf(slots[i]!.relation, h.step.attribute), keywords[i]!)] : [],
                      )
                      .join(' ');
            const items = phrasedItems(scope, phrasings, rows, keywords, explain);
            if (items === 'invalid') return items;
            // One fact per hop (docs/facts.md): the row the hop leaves from and the attribute it follows.
            const facts = keywords.flatMap(
                (_, i) => rowFact(scope, rows, i, hops[i]!.step.attribute, 'hop', { hop: i + 1 }) ?? [],
            );
            for (const item of items) item.facts = facts;
            if (arExt === 'complete') for (const item of items) item.pathScoring = { arExt: 'complete' };
            if (asOf) for (const item of items) dateItem(item, asOf, [item.template]);
            return items;
        },
        path(rows) {
            const start = entityNode(scope, rows, 0, 0, true);
            const nodes: KgNode[] = [start];
            const edges: KgEdge[] = [];
            for (const r of scope.used.values()) {
                if (r.slot !== 0 || hidden.has(`0.${r.attribute.name}`)) continue;
                const n = valueNode(scope, rows, 0, r.attribute.name, 0, true);
                nodes.push(n);
                edges.push({ from: start.id, to: n.id, label: r.attribute.name, hop: 0 });
            }
            let at = start;
            hops.forEach((h, i) => {
                const next =
                    i < last ? entityNode(scope, rows, i + 1, i + 1, false) : valueNode(scope, rows, last, end, i + 1, false);
                nodes.push(next);
                edges.push({ from: at.id, to: next.id, label: h.step.attribute, hop: i + 1 });
                at = next;
            });
            return { nodes, edges };
        },
    };
}

/** The settings a path probe reads, declared once (src/core/spec/settings.ts) and read through this table. */
const PATH_SETTINGS = declareSettings('probe path', {
    explain: { type: 'text', doc: "A template for the demonstration's rationale (few-shot and chain-of-thought variants)." },
    // per_hop: AR-ext of hop i over the questions whose path has hop i; complete: over the questions whose path has
    // every hop only (the ERBench authors' Soccer & Olympic figures, Table 4).
    ar_ext: {
        type: 'text',
        values: ['per_hop', 'complete'],
        default: 'per_hop',
        doc: "How AR-ext counts: per_hop (default) or complete (only questions whose path has every hop, the ERBench authors' Soccer & Olympic scoring).",
    },
});

export const pathFamily: ProbeFamily = {
    core: {
        kind: 'path',
        title: 'multi-hop yes / no questions along FK joins: the values in between hidden, one keyword set per hop',
        docs: 'probes.md#path-probes-multi-hop-questions-along-fks',
        target: 'path',
        example: "write 'along Movie.director -> Director.birth_year'",
        members: ['phrasing'],
        settings: [...ANSWER_SETTINGS.decls, ...PATH_SETTINGS.decls],
        compile: ({ spec, data, probe, problems }) => pathPlan(spec, data, probe, problems),
        phrasings: probe => probe.phrasings.map(p => p.name),
        pathPerItem: false,
        parse: parseYesNo,
        score: scoreYesNo,
        measured: true,
        decidesKnowledge: false,
    },
    figures: {
        extras: items => pathMetrics(items),
        // R-ext per question (the share of its hops the rationale names; the group's R-ext is their mean): compare pairs it by bootstrap.
        questionFigures: [{ name: 'r_ext', higherIsBetter: true, outcome: rExtShare }],
        columns: PATH_COLUMNS,
    },
    report: {
        groupJson: pathJson,
        charts: hopCharts,
        sections: groups => {
            const rows: string[][] = [];
            for (const g of groups) {
                if (!g.hops || g.na) continue;
                for (const h of g.hops) {
                    rows.push([
                        ...keyCells(g),
                        pct(g.rExt?.value),
                        String(h.hop),
                        `${pct(h.r.value)} ${ciText(h.r.ci)}`,
                        `${pct(h.ar.value)} ${ciText(h.ar.ci)}`,
                        snowballText(h.givenPrevious),
                        snowballText(h.givenNotPrevious),
                    ]);
                }
            }
            return rows.length
                ? [
                      {
                          title: 'Paths, hop by hop',
                          columns: [...LABEL_PARTS, 'R-ext', 'hop', 'R', 'AR-ext', 'P(r_i | r_i−1)', 'P(r_i | ¬r_i−1)'],
                          rows,
                      },
                  ]
                : [];
        },
        // Table 4's cells: A, R-ext, AR-ext of every hop ("h1/h2/…"), H.
        paperColumns: groups =>
            paperOrder(groups).map(g => {
                const f = (x: number | null | undefined) => (g.na ? 'n/a' : paperFigure(x));
                return {
                    column: binaryColumn(g.phrasing),
                    cells: [
                        { label: 'A', text: f(g.A) },
                        { label: 'R-ext', text: f(g.rExt?.value) },
                        { label: 'AR-ext', text: g.na ? 'n/a' : (g.hops ?? []).map(h => f(h.ar.value)).join('/') },
                        { label: 'H', text: f(g.H) },
                    ],
                };
            }),
    },
    simulator: { answerText: yesNoText, guess: yesNoGuess },
};

function snowballText(f: HopMetrics['givenPrevious']): string {
    if (!f) return '';
    return f.value === null ? `n/a (N ${f.n})` : `${pct(f.value)} (N ${f.n})`;
}
