/**
 * The "Facts" part of every report format (docs/facts.md): the per-fact step's result (verify/facts.ts, computed once
 * in buildReport) as the JSON object `report --facts --format json` writes, as CSV rows, and as tables (md, html).
 * Nothing here classifies or counts: it only selects (`--fact`) and lays out.
 */
import { FACT_CLASSES, FACT_CLASS_TEXT, type FactReport, type FactVerdict } from '../verify/facts.js';
import { csvField } from './csv.js';
import { ciText, pct, round4, roundCi } from './numbers.js';
import type { ReportSection } from '../probes/contract/report.js';

/** Does `--fact SELECTOR` name this fact: its id, its label, `Relation.attribute` of a key, or `key.attribute` ("Avatar.director"). */
function factMatches(f: Pick<FactVerdict, 'id' | 'label' | 'relation' | 'key' | 'attribute'>, selector: string): boolean {
    const s = selector.trim();
    if (s === f.id || s === f.label) return true;
    const keys = [f.key.join(', '), ...f.key, f.key.join(' ')];
    return keys.some(k => s === `${k}.${f.attribute}` || s === `${f.relation}(${k}).${f.attribute}`);
}

/** The facts of a report, only those `--fact` names when it is given (several: any of them). */
export function selectFacts(r: FactReport, selectors: readonly string[] = []): FactReport {
    if (selectors.length === 0) return r;
    const facts = r.facts.filter(f => selectors.some(s => factMatches(f, s)));
    return { ...r, facts };
}

/** A fact as every view names it: which fact of the data, the model asked, and its class. */
export function factHead(f: FactVerdict) {
    return {
        id: f.id,
        label: f.label,
        relation: f.relation,
        key: f.key,
        attribute: f.attribute,
        value: f.value,
        model: f.model,
        class: f.class,
    };
}

/** `{ facts: [{ id, relation, key, attribute, value, model, class, families: { kind: { verdict, value } } }], summary, pairs, disagreesMost }`. */
export function factsJson(r: FactReport): Record<string, unknown> {
    return {
        facts: r.facts.map(f => ({
            ...factHead(f),
            families: Object.fromEntries(
                Object.entries(f.families).map(([kind, v]) => [
                    kind,
                    {
                        verdict: v.verdict,
                        ...(v.value !== undefined ? { value: v.value } : {}),
                        answers: v.answers,
                        ...(v.swapped ? { swapped: v.swapped } : {}),
                    },
                ]),
            ),
            ...(f.believed ? { believed: f.believed } : {}),
            ...(f.fragile ? { fragile: f.fragile } : {}),
        })),
        summary: r.summary.map(s => ({
            model: s.model,
            facts: s.facts,
            ...Object.fromEntries(
                FACT_CLASSES.map(c => [
                    c,
                    { share: round4(s.shares[c].value), ci: roundCi(s.shares[c].ci), k: s.shares[c].k, n: s.shares[c].n },
                ]),
            ),
        })),
        pairs: r.pairs.map(p => ({
            model: p.model,
            a: p.a,
            b: p.b,
            agreement: round4(p.agreement.value),
            ci: roundCi(p.agreement.ci),
            agree: p.agreement.k,
            n: p.agreement.n,
        })),
        disagreesMost: r.disagreesMost.map(d => ({
            model: d.model,
            kind: d.kind,
            agreement: round4(d.agreement.value),
            ci: roundCi(d.agreement.ci),
        })),
    };
}

/** The kinds that asked any of the facts, in the order the step first saw them. */
const kindsOf = (facts: readonly FactVerdict[]) => [...new Set(facts.flatMap(f => Object.keys(f.families)))];

/** What one family's answers gave, in a cell: "right (James Cameron)", "wrong (Steven Spielberg)", "abstained", "followed the swap". */
function cell(f: FactVerdict, kind: string): string {
    const v = f.families[kind];
    if (!v) return '';
    const said = v.answers === 0 ? '' : v.value !== undefined ? `${v.verdict} (${v.value})` : v.verdict;
    const swap = v.swapped ? `swapped passage: followed ${v.swapped.followed} of ${v.swapped.answers}` : '';
    return [said, swap].filter(Boolean).join('; ');
}

/** CSV: a row per fact and model, each family's verdict and value in two columns. */
export function factsCsv(r: FactReport): string {
    const kinds = kindsOf(r.facts);
    const head = [
        'id',
        'label',
        'relation',
        'key',
        'attribute',
        'value',
        'model',
        'class',
        'believed',
        ...kinds.flatMap(k => [`${k}_verdict`, `${k}_value`]),
    ];
    const lines = [head.join(',')];
    for (const f of r.facts) {
        lines.push(
            [
                f.id,
                f.label,
                f.relation,
                f.key.join(', '),
                f.attribute,
                f.value,
                f.model,
                f.class,
                f.believed?.value ?? '',
                ...kinds.flatMap(k => [f.families[k]?.verdict ?? '', f.families[k]?.value ?? '']),
            ]
                .map(csvField)
                .join(','),
        );
    }
    return lines.join('\n') + '\n';
}

/** Rows the md and html reports show at most; the JSON and `report --facts` show every fact. */
const FACT_ROWS_SHOWN = 500;

/** The Facts tables (md, html): the classes per model, the family pairs, then a row per fact (those not known first). */
export function factSections(r: FactReport, limit = FACT_ROWS_SHOWN): ReportSection[] {
    if (r.facts.length === 0) return [];
    const sections: ReportSection[] = [
        {
            title: 'Facts: what each model does with a fact across families',
            columns: ['model', 'facts', ...FACT_CLASSES],
            rows: r.summary.map(s => [
                s.model,
                String(s.facts),
                ...FACT_CLASSES.map(c => `${pct(s.shares[c].value)} ${ciText(s.shares[c].ci)} (${s.shares[c].k})`.trim()),
            ]),
        },
    ];
    sections[0]!.columns = sections[0]!.columns.map(c =>
        FACT_CLASSES.includes(c as never) ? `${c}: ${FACT_CLASS_TEXT[c as keyof typeof FACT_CLASS_TEXT]}` : c,
    );
    if (r.pairs.length) {
        const worst = new Map(r.disagreesMost.map(d => [d.model, d]));
        sections.push({
            title: 'Facts: how often two families agree on a fact (both right or both wrong)',
            columns: ['model', 'family', 'family', 'agree', 'share', 'disagrees most'],
            rows: r.pairs.map(p => [
                p.model,
                p.a,
                p.b,
                `${p.agreement.k} of ${p.agreement.n}`,
                `${pct(p.agreement.value)} ${ciText(p.agreement.ci)}`.trim(),
                [p.a, p.b].includes(worst.get(p.model)?.kind ?? '')
                    ? `${worst.get(p.model)!.kind} (${pct(worst.get(p.model)!.agreement.value)} with the others)`
                    : '',
            ]),
        });
    }
    const order = new Map(FACT_CLASSES.map((c, i) => [c, c === 'knows' ? FACT_CLASSES.length : i]));
    const shown = [...r.facts].sort((a, b) => order.get(a.class)! - order.get(b.class)!).slice(0, limit);
    const kinds = kindsOf(shown);
    sections.push({
        title: `Facts${shown.length < r.facts.length ? ` (${shown.length} of ${r.facts.length}: report --facts --format json has every one)` : ''}`,
        columns: ['fact', 'value', 'model', 'class', ...kinds],
        rows: shown.map(f => [
            f.label,
            f.value,
            f.model,
            f.believed ? `${f.class}: ${f.believed.value}` : f.class,
            ...kinds.map(k => cell(f, k)),
        ]),
    });
    return sections;
}
