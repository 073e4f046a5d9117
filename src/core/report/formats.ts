/** The machine-readable report formats: json, csv, jsonl, junit. */
import { csvField } from './csv.js';
import { factsJson } from './facts.js';
import { modelReadAgreement } from '../verify/model-read.js';
import type { GroupMetrics } from '../verify/metrics.js';
import { groupLabel, questionKey, variantId } from './labels.js';
import { failureReason, figureColumns, figureText, passed, type ReportData } from './model.js';
import { isMeasured } from '../verify/passed.js';
import { findCapability } from '../probes/registry.js';
import { round4, roundCi } from './numbers.js';
import { TRUST_COLUMNS, trustCells, trustJson, trustLine, trustOf, trustProperties } from './trust.js';

const round = round4;

/** A figure that does not apply to the group reads "n/a" in CSV (not 0, not a blank); JSON writes it null. */
function shownFigure(g: GroupMetrics, k: 'R' | 'AR' | 'C'): number | null | 'n/a' {
    return g[k] === null && g.notApplicable?.includes(k) ? 'n/a' : round(g[k]);
}

/** JSON's names of the figures that do not apply to a group (C is written `contradicted`). */
const JSON_NAME: Record<string, string> = { C: 'contradicted' };

/** The JSON shape of one group: {model, probe, phrasing, mode, n, A, R, AR, M, H, contradicted, ci} plus the extras. */
function groupJson(g: GroupMetrics): Record<string, unknown> {
    const out: Record<string, unknown> = {
        model: g.model,
        probe: g.probe,
        phrasing: g.phrasing,
        mode: g.mode,
        n: g.n,
        A: round(g.A),
        R: round(g.R),
        AR: round(g.AR),
        M: round(g.M),
        H: round(g.H),
        contradicted: round(g.C),
        ci: Object.fromEntries(Object.entries(g.ci).map(([k, v]) => [k, roundCi(v)])),
        kind: g.kind,
        variant: g.variant,
        variantId: g.variantId ?? g.variant,
        counts: g.counts,
        overrides: g.overrides,
    };
    // A figure that does not apply is null, as is one without data; `notApplicable` says which (issue 36 item 12: never "n/a").
    if (g.notApplicable?.length) out.notApplicable = g.notApplicable.map(k => JSON_NAME[k] ?? k);
    if (g.na) out.na = g.na;
    // A family's figures that are group fields of their own (path: rExt, hops; choice: multiple, binding).
    Object.assign(out, findCapability(g.kind, 'report')?.groupJson?.(g));
    if (g.outdated) out.outdated = { value: round(g.outdated.value), k: g.outdated.k, ci: roundCi(g.outdated.ci) };
    // A family's own figures (GroupMetrics' `figures` field): each key a field of the group, its numbers rounded.
    for (const [key, value] of Object.entries(g.figures ?? {})) out[key] = roundDeep(value);
    return out;
}

/** Every number of a plain-data value rounded to 4 decimals (counts stay whole). */
function roundDeep(v: unknown): unknown {
    if (typeof v === 'number') return Number.isInteger(v) ? v : Math.round(v * 10000) / 10000;
    if (Array.isArray(v)) return v.map(roundDeep);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, roundDeep(x)]));
    return v;
}

export { csvField };

export function renderJson(d: ReportData): string {
    const body: Record<string, unknown> = {
        run: d.run,
        groups: d.metrics.map(groupJson),
        // The JSON's question groups as before: `heldAs` is the editor's wording, not a figure.
        questionGroups: d.questionGroups.map(({ heldAs: _heldAs, ...g }) => ({
            ...g,
            ok: { k: g.ok.k, n: g.ok.n, value: round(g.ok.value), ci: roundCi(g.ok.ci) },
        })),
        overrides: d.overrides,
        questions: d.rows.length,
        passed: d.rows.filter(passed).length,
        unverified: d.unverified,
        failedCalls: d.failedCalls,
        notAnswered: d.notAnswered,
        unanswered: d.unanswered,
    };
    if (d.judge)
        body.judge = {
            label: d.judge.label,
            preset: d.judge.preset,
            n: d.judge.n,
            agreement: d.judge.agreement,
            kappa: d.judge.kappa,
        };
    const reader = modelReadAgreement(d.rows);
    if (reader.length) body.modelReader = reader;
    body.trust = trustJson(d.trust);
    // One fact, every family (docs/facts.md): present when the run's questions record facts.
    if (d.facts.facts.length) body.facts = factsJson(d.facts);
    return JSON.stringify(body, null, 2) + '\n';
}

/**
 * Figures any group may carry beyond A / R / AR / M / H whatever its family (dated questions: outdated): a CSV column
 * and a JUnit property each, present when a group of the report has the figure, "n/a" on the groups that do not. A
 * family's own figures (path: R-ext and per hop; choice: multiple-answer and binding) are its figure columns.
 */
const OPTIONAL_COLUMNS: { name: string; value(g: GroupMetrics): number | string | null | undefined }[] = [
    { name: 'outdated', value: g => g.outdated?.value },
];

export function renderCsv(d: ReportData): string {
    // The families' figure columns follow the shared ones (e.g. the statement family's T / I / C, the rule family's categories).
    const extra = figureColumns(d.metrics, { derived: true });
    const optional = OPTIONAL_COLUMNS.filter(c => d.metrics.some(g => c.value(g) !== undefined));
    const cols = [
        'model',
        'probe',
        'kind',
        'phrasing',
        'variant',
        'variant_id',
        'mode',
        'n',
        'na',
        'A',
        'A_low',
        'A_high',
        'R',
        'R_low',
        'R_high',
        'AR',
        'AR_low',
        'AR_high',
        'M',
        'M_low',
        'M_high',
        'H',
        'H_low',
        'H_high',
        'contradicted',
        'overrides',
        'not_answered',
        'failed_calls',
        ...TRUST_COLUMNS,
        ...optional.map(c => c.name),
        ...extra.map(e => e.column.name),
    ];
    const lines = [cols.join(',')];
    // Per model and probe: the questions without an answer, on each of its rows (and on a row of its own when none was answered).
    const missing = new Map(d.unanswered.map(u => [`${u.model}\u0000${u.probe}`, u]));
    const written = new Set<string>();
    for (const g of d.metrics) {
        const fig = (k: 'A' | 'R' | 'AR' | 'M' | 'H') =>
            k !== 'A' && k !== 'M' && k !== 'H' && g[k] === null && g.notApplicable?.includes(k)
                ? ['n/a', 'n/a', 'n/a']
                : [round(g[k]), round(g.ci[k]?.[0] ?? null), round(g.ci[k]?.[1] ?? null)];
        const u = missing.get(`${g.model}\u0000${g.probe}`);
        written.add(`${g.model}\u0000${g.probe}`);
        const own = extra
            .map(e => (e.kind === g.kind && !g.na ? e.column.value(g) : null))
            .map(v => (typeof v === 'number' ? round(v) : v));
        const opt = optional.map(c => {
            const v = c.value(g);
            return v === undefined || v === null ? 'n/a' : typeof v === 'number' ? round(v) : v;
        });
        const row = [
            g.model,
            g.probe,
            g.kind,
            g.phrasing,
            g.variant,
            g.variantId ?? g.variant,
            g.mode,
            g.n,
            g.na ?? '',
            ...fig('A'),
            ...fig('R'),
            ...fig('AR'),
            ...fig('M'),
            ...fig('H'),
            shownFigure(g, 'C'),
            g.overrides,
            u?.notAnswered ?? 0,
            u?.failed ?? 0,
            ...trustCells(trustOf(d.trust, g)),
            ...opt,
            ...own,
        ];
        lines.push(row.map(csvField).join(','));
    }
    for (const [k, u] of missing) {
        if (written.has(k)) continue;
        lines.push(
            [
                u.model,
                u.probe,
                '',
                '',
                '',
                '',
                '',
                0,
                'no answers',
                ...Array.from({ length: 17 }, () => ''),
                u.notAnswered,
                u.failed,
                ...trustCells(undefined),
                ...optional.map(() => ''),
                ...extra.map(() => ''),
            ]
                .map(csvField)
                .join(','),
        );
    }
    return lines.join('\n') + '\n';
}

export function renderJsonl(d: ReportData): string {
    const out: string[] = [];
    for (const r of d.rows) {
        const q = r.question;
        out.push(
            JSON.stringify({
                question: q.id,
                probe: q.probe,
                kind: q.kind,
                phrasing: q.phrasing,
                variant: q.variant,
                variantId: variantId(q),
                text: q.question,
                gold: q.gold,
                keywords: q.keywords.map(h => h.map(k => k.value)),
                model: r.verdict.model,
                sample: r.verdict.sample,
                response: r.response,
                passed: passed(r),
                verdict: r.verdict,
            }),
        );
    }
    // A question whose calls failed is a line too, so that counting lines never hides it.
    for (const f of d.failedSlots) {
        out.push(
            JSON.stringify({
                question: f.question.id,
                probe: f.question.probe,
                kind: f.question.kind,
                phrasing: f.question.phrasing,
                text: f.question.question,
                model: f.model,
                sample: f.sample,
                status: 'failed',
                error: f.error,
            }),
        );
    }
    // And one not asked yet (a stopped run): counted the same way.
    for (const p of d.pendingSlots) {
        out.push(
            JSON.stringify({
                question: p.question.id,
                probe: p.question.probe,
                kind: p.question.kind,
                phrasing: p.question.phrasing,
                text: p.question.question,
                model: p.model,
                sample: p.sample,
                status: 'not answered',
            }),
        );
    }
    // The judge is opt-in and always labelled: one trailing line, distinct from the per-question lines.
    if (d.judge)
        out.push(
            JSON.stringify({
                judge: {
                    label: d.judge.label,
                    preset: d.judge.preset,
                    n: d.judge.n,
                    agreement: d.judge.agreement,
                    kappa: d.judge.kappa,
                },
            }),
        );
    return out.join('\n') + (out.length ? '\n' : '');
}

/** XML 1.0 text: escapes markup and drops characters XML cannot carry (NUL, most C0 controls, lone surrogates). */
function xmlEscape(s: string): string {
    return s
        .replace(
            /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
            '',
        )
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;');
}

/**
 * JUnit: one test suite per model × probe, one test case per question and sample, named by its phrasing and
 * variant (as every output labels groups) so that no two cases of a suite share a name.
 */
export function renderJunit(d: ReportData): string {
    const suites = new Map<string, typeof d.rows>();
    const errored = new Map<string, ReportData['failedSlots']>();
    const suite = (key: string) => {
        if (!suites.has(key)) suites.set(key, []);
        return suites.get(key)!;
    };
    for (const r of d.rows) {
        if (!isMeasured(r.question)) continue;
        suite(`${r.verdict.model} / ${r.question.probe}`).push(r);
    }
    // A question whose calls failed is a test case in error (JUnit's word for "could not run").
    for (const f of d.failedSlots) {
        const key = `${f.model} / ${f.question.probe}`;
        suite(key);
        errored.set(key, [...(errored.get(key) ?? []), f]);
    }
    // Questions not answered yet have no test case: each suite says how many (a property), even a suite with none answered.
    const unanswered = new Map(d.unanswered.map(u => [`${u.model} / ${u.probe}`, u]));
    for (const key of unanswered.keys()) suite(key);
    const parts: string[] = [];
    let tests = 0,
        failures = 0,
        errors = 0;
    // The opt-in judge, labelled, as a property of every suite (where JUnit readers look for properties).
    const judge = d.judge
        ? `    <properties><property name="LLM judge" value="${xmlEscape(`preset ${d.judge.preset}, n ${d.judge.n}, agreement ${d.judge.agreement?.toFixed(3) ?? 'n/a'}, kappa ${d.judge.kappa?.toFixed(3) ?? 'n/a'}`)}"/></properties>`
        : undefined;
    for (const [name, rows] of suites) {
        const failed = rows.filter(r => !passed(r)).length;
        const broken = errored.get(name) ?? [];
        tests += rows.length + broken.length;
        failures += failed;
        errors += broken.length;
        parts.push(
            `  <testsuite name="${xmlEscape(name)}" tests="${rows.length + broken.length}" failures="${failed}" errors="${broken.length}">`,
        );
        // The families' figure columns of this model and probe (all questions), one property per phrasing and column.
        const [model, probe] = rows[0]
            ? [rows[0].verdict.model, rows[0].question.probe]
            : broken[0]
              ? [broken[0].model, broken[0].question.probe]
              : [unanswered.get(name)?.model, unanswered.get(name)?.probe];
        const property = (key: string, value: string) => `<property name="${xmlEscape(key)}" value="${xmlEscape(value)}"/>`;
        const u = unanswered.get(name);
        // How far to trust the suite's figures: the review's line when nobody reviewed, else each group's agreement and corrected figures.
        const trust =
            d.trust.labels === 0
                ? [property('review', trustLine(d.trust))]
                : d.trust.groups
                      .filter(t => t.model === model && t.probe === probe)
                      .flatMap(trustProperties)
                      .map(([k, v]) => property(k, v));
        const figures = [
            ...(u ? [property('not answered yet', String(u.notAnswered)), property('calls failed', String(u.failed))] : []),
            ...d.metrics
                .filter(g => g.model === model && g.probe === probe && g.mode === 'all' && !g.na)
                .flatMap(g => [
                    ...OPTIONAL_COLUMNS.flatMap(c => {
                        const v = c.value(g);
                        return v === undefined ? [] : [property(`${g.phrasing} ${c.name}`, figureText(v))];
                    }),
                    ...figureColumns([g], { derived: true }).map(({ column }) =>
                        property(`${g.phrasing} ${column.name}`, figureText(column.value(g))),
                    ),
                ]),
            ...trust,
        ];
        if (judge && figures.length === 0) parts.push(judge);
        else if (figures.length)
            parts.push(
                `    <properties>${judge ? judge.replace(/^\s*<properties>|<\/properties>$/g, '') : ''}${figures.join('')}</properties>`,
            );
        for (const r of rows) {
            const caseName = `${groupLabel(questionKey(r.question), ['phrasing', 'variant'])}: ${r.question.question}${r.verdict.sample ? ` #${r.verdict.sample}` : ''}`;
            parts.push(
                `    <testcase classname="${xmlEscape(`${r.verdict.model}.${r.question.probe}`)}" name="${xmlEscape(caseName)}">`,
            );
            if (!passed(r)) {
                parts.push(`      <failure message="${xmlEscape(failureReason(r))}">${xmlEscape(r.response)}</failure>`);
            }
            parts.push('    </testcase>');
        }
        for (const f of broken) {
            const caseName = `${groupLabel(questionKey(f.question), ['phrasing', 'variant'])}: ${f.question.question}${f.sample ? ` #${f.sample}` : ''}`;
            parts.push(
                `    <testcase classname="${xmlEscape(`${f.model}.${f.question.probe}`)}" name="${xmlEscape(caseName)}">`,
                `      <error message="${xmlEscape(`the call failed: ${f.error}`)}"/>`,
                '    </testcase>',
            );
        }
        parts.push('  </testsuite>');
    }
    return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlEscape(`halluprobe ${d.run.id}`)}" tests="${tests}" failures="${failures}" errors="${errors}">\n${parts.join('\n')}\n</testsuites>\n`;
}
