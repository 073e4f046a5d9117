/**
 * A paired comparison (paired.ts) as Markdown, HTML, JSON and CSV: the same numbers in each, written by `num` and
 * `pText`. Every name that came from the user, the data or a model (cells, probes, questions) is escaped.
 */
import { csvField } from './formats.js';
import { esc } from './html.js';
import { mdText } from './markdown.js';
import type { CellComparison, Flip, PairedDifference, PairedMatrix, Regression } from './paired.js';
import type { CompareGrid } from '../../protocol/webview.js';

/** A difference, a value or an interval limit: four decimals in every format. */
export const num = (x: number) => (Object.is(Math.round(x * 10000), -0) ? 0 : x).toFixed(4);
/** A p-value: four decimals, or three significant digits below 0.0001. */
const pText = (p: number) => (p < 0.0001 ? p.toExponential(2) : p.toFixed(4));

const CORRECTIONS = { holm: 'Holm', bh: 'Benjamini–Hochberg' } as const;
const METHODS = {
    'tango-mcnemar': "Tango's interval, McNemar's exact test",
    'cluster-bootstrap': 'cluster bootstrap, sign-flip test',
} as const;

function matrixTitle(m: Pick<PairedMatrix, 'figure' | 'probe' | 'phrasing' | 'higherIsBetter'>): string {
    return `${m.figure} · ${m.probe}${m.phrasing !== undefined ? ` · ${m.phrasing}` : ''} (${m.higherIsBetter ? 'higher' : 'lower'} is better)`;
}

function method(c: CellComparison): string {
    return (
        `Paired over the questions both cells answered: ${METHODS['tango-mcnemar']} where each question is one 0/1 outcome; ` +
        `${METHODS['cluster-bootstrap']} over shared facts (${c.by === 'probe' ? 'phrasings of one row pooled, ' : ''}several samples, scores), seed ${c.seed}. ` +
        `p-values adjusted over each matrix's pairs (${CORRECTIONS[c.correction]}); a winner only where the adjusted p < ${c.alpha}.`
    );
}

const flipText = (f: Flip) => `${f.entity}: ${f.question} (${num(f.a)} → ${num(f.b)})`;
const pairOf = (m: PairedMatrix, a: string, b: string) => m.pairs.find(p => p.a === a && p.b === b);
const gridText = (p: PairedDifference) => `${num(p.delta)}${p.winner ? ' ✓' : ''}`;

function renderPairedMarkdown(c: CellComparison, maxFlips = 10): string {
    const out = [`# HalluProbe compare: ${c.runs.map(r => mdText(r)).join(', ')}`, '', mdText(method(c), 1000), ''];
    out.push(`${c.cells.length} cells: ${c.cells.map(x => mdText(x.id)).join('; ')}.`, '');
    if (c.discordant !== null)
        out.push(
            `Discordant share (A differs between two cells): ${num(c.discordant)} — give it to \`estimate --power --discordant\`.`,
            '',
        );
    for (const m of c.matrices) {
        out.push(
            `## ${mdText(matrixTitle(m))}`,
            '',
            'Row → column: the difference column − row (✓: the adjusted test names a winner).',
            '',
        );
        out.push(`| | ${m.cells.map(x => mdText(x)).join(' | ')} |`, `|---|${m.cells.map(() => '---:').join('|')}|`);
        for (const a of m.cells)
            out.push(
                `| ${mdText(a)} | ${m.cells
                    .map(b => {
                        const p = pairOf(m, a, b);
                        return p ? gridText(p) : '';
                    })
                    .join(' | ')} |`,
            );
        out.push(
            '',
            '| a | b | N | a | b | b − a | 95 % interval | p | p adjusted | winner | flipped to b | flipped to a | method |',
            '|---|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---|',
        );
        for (const p of m.pairs) {
            out.push(
                `| ${mdText(p.a)} | ${mdText(p.b)} | ${p.n} | ${num(p.valueA)} | ${num(p.valueB)} | ${num(p.delta)} | [${num(p.ci[0])}, ${num(p.ci[1])}] | ${pText(p.p)} | ${pText(p.pAdjusted)} | ${p.winner ? mdText(p.winner) : '–'} | ${p.flips.toB.length} | ${p.flips.toA.length} | ${METHODS[p.method]} |`,
            );
        }
        out.push('');
        for (const p of m.pairs.filter(x => x.winner)) {
            for (const [dir, list] of [
                [`higher on ${p.b}`, p.flips.toB],
                [`higher on ${p.a}`, p.flips.toA],
            ] as const) {
                if (!list.length) continue;
                out.push(`Flipped, ${mdText(dir)} (${Math.min(maxFlips, list.length)} of ${list.length}):`, '');
                for (const f of list.slice(0, maxFlips)) out.push(`- ${mdText(flipText(f), 240)}`);
                out.push('');
            }
        }
    }
    return out.join('\n');
}

function renderPairedJson(c: CellComparison): string {
    return JSON.stringify(c, null, 2) + '\n';
}

const PAIRED_CSV_COLUMNS = [
    'figure',
    'probe',
    'phrasing',
    'a',
    'b',
    'n',
    'clusters',
    'value_a',
    'value_b',
    'delta',
    'ci_low',
    'ci_high',
    'p',
    'p_adjusted',
    'correction',
    'winner',
    'flipped_to_b',
    'flipped_to_a',
    'method',
];

function renderPairedCsv(c: CellComparison): string {
    const rows = [PAIRED_CSV_COLUMNS.join(',')];
    for (const m of c.matrices)
        for (const p of m.pairs) {
            rows.push(
                [
                    p.figure,
                    p.probe,
                    p.phrasing ?? '',
                    p.a,
                    p.b,
                    p.n,
                    p.clusters,
                    num(p.valueA),
                    num(p.valueB),
                    num(p.delta),
                    num(p.ci[0]),
                    num(p.ci[1]),
                    pText(p.p),
                    pText(p.pAdjusted),
                    c.correction,
                    p.winner ?? '',
                    p.flips.toB.length,
                    p.flips.toA.length,
                    p.method,
                ]
                    .map(csvField)
                    .join(','),
            );
        }
    return rows.join('\n') + '\n';
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5em;color:#1f2937}table{border-collapse:collapse;margin:.5em 0 1.5em}
th,td{border:1px solid #d1d5db;padding:4px 8px;vertical-align:top}td.num{text-align:right;font-variant-numeric:tabular-nums}
td.win{background:#dcfce7}td.lose{background:#fee2e2}details summary{cursor:pointer}ul{margin:.2em 0;padding-left:1.2em}`;

function flipList(title: string, list: readonly Flip[]): string {
    return list.length
        ? `<div>${esc(title)} (${list.length})<ul>${list.map(f => `<li>${esc(flipText(f))}</li>`).join('')}</ul></div>`
        : '';
}

/** A grid cell: the difference, marked where the winner is the column (green) or the row (red), opening its flipped questions. */
function gridCell(p: PairedDifference | undefined): string {
    if (!p) return '<td></td>';
    const cls = p.winner === p.b ? 'num win' : p.winner === p.a ? 'num lose' : 'num';
    return (
        `<td class="${cls}"><details><summary>${esc(gridText(p))}</summary><div>[${num(p.ci[0])}, ${num(p.ci[1])}], p adjusted ${pText(p.pAdjusted)}</div>` +
        `${flipList(`higher on ${p.b}`, p.flips.toB)}${flipList(`higher on ${p.a}`, p.flips.toA)}</details></td>`
    );
}

function renderPairedHtml(c: CellComparison): string {
    const parts = [
        `<!doctype html><html><head><meta charset="utf-8"><title>HalluProbe compare</title><style>${STYLE}</style></head><body>`,
        `<h1>HalluProbe compare: ${esc(c.runs.join(', '))}</h1><p>${esc(method(c))}</p>`,
    ];
    if (c.discordant !== null) parts.push(`<p>Discordant share (A differs between two cells): ${num(c.discordant)}</p>`);
    for (const m of c.matrices) {
        parts.push(
            `<h2>${esc(matrixTitle(m))}</h2><p>Row → column: the difference column − row; green: the column wins, red: the row wins (adjusted test). Click a cell for its flipped questions.</p>`,
        );
        parts.push(`<table class="grid"><tr><th></th>${m.cells.map(x => `<th>${esc(x)}</th>`).join('')}</tr>`);
        for (const a of m.cells) parts.push(`<tr><th>${esc(a)}</th>${m.cells.map(b => gridCell(pairOf(m, a, b))).join('')}</tr>`);
        parts.push(
            '</table><table class="pairs"><tr><th>a</th><th>b</th><th>N</th><th>a</th><th>b</th><th>b − a</th><th>95 % interval</th><th>p</th><th>p adjusted</th><th>winner</th><th>method</th></tr>',
        );
        for (const p of m.pairs) {
            parts.push(
                `<tr><td>${esc(p.a)}</td><td>${esc(p.b)}</td><td class="num">${p.n}</td><td class="num">${num(p.valueA)}</td><td class="num">${num(p.valueB)}</td><td class="num">${num(p.delta)}</td>` +
                    `<td class="num">[${num(p.ci[0])}, ${num(p.ci[1])}]</td><td class="num">${pText(p.p)}</td><td class="num">${pText(p.pAdjusted)}</td><td>${esc(p.winner ?? '–')}</td><td>${esc(METHODS[p.method])}</td></tr>`,
            );
        }
        parts.push('</table>');
    }
    parts.push('</body></html>');
    return parts.join('\n');
}

export type PairedFormat = 'md' | 'html' | 'json' | 'csv';
export function renderPaired(c: CellComparison, format: PairedFormat): string {
    return format === 'html'
        ? renderPairedHtml(c)
        : format === 'json'
          ? renderPairedJson(c)
          : format === 'csv'
            ? renderPairedCsv(c)
            : renderPairedMarkdown(c);
}

/** What the CI gate says: each regression with its interval and the questions that flipped the bad way, or that none was found. */
export function regressionLines(
    r: { checked: number; regressions: Regression[] },
    figure: string,
    margin: number,
    maxFlips = 20,
): string[] {
    if (!r.regressions.length)
        return [
            `No regression: ${figure} did not get worse by ${num(margin)} or more in any of ${r.checked} paired comparison(s) (paired interval, Bonferroni over them).`,
        ];
    const out = [
        `Regression: ${figure} got worse by ${num(margin)} or more in ${r.regressions.length} of ${r.checked} paired comparison(s):`,
    ];
    for (const { pair: p, higherIsBetter } of r.regressions) {
        out.push(
            `  ${p.probe}${p.phrasing !== undefined ? ` · ${p.phrasing}` : ''}: ${p.a} ${num(p.valueA)} → ${p.b} ${num(p.valueB)}, difference ${num(p.delta)} [${num(p.ci[0])}, ${num(p.ci[1])}], N ${p.n}`,
        );
        const worse = higherIsBetter ? p.flips.toA : p.flips.toB;
        out.push(`    flipped the worse way (${worse.length}):`, ...worse.slice(0, maxFlips).map(f => `      ${flipText(f)}`));
        if (worse.length > maxFlips) out.push(`      … ${worse.length - maxFlips} more (--format json lists all)`);
    }
    return out;
}

/** The matrices as the editor's Compare Models panel shows them (types: src/protocol/webview.ts): every text made here, so the panel recomputes nothing. */
export function compareGrid(c: CellComparison): CompareGrid {
    return {
        title: `Compare Models · ${c.runs.join(', ')}`,
        method: method(c),
        matrices: c.matrices.map(m => ({
            title: matrixTitle(m),
            cells: m.cells,
            rows: m.cells.map(a =>
                m.cells.map(b => {
                    const p = pairOf(m, a, b);
                    if (!p) return null;
                    return {
                        text: gridText(p),
                        winner: p.winner === p.b ? 'column' : p.winner === p.a ? 'row' : null,
                        detail: `${p.b} − ${p.a}: ${num(p.delta)} [${num(p.ci[0])}, ${num(p.ci[1])}], N ${p.n}, p ${pText(p.p)}, p adjusted ${pText(p.pAdjusted)} (${METHODS[p.method]})${p.winner ? `; winner ${p.winner}` : ''}`,
                        flips: [
                            { title: `higher on ${p.b} (${p.flips.toB.length})`, questions: p.flips.toB.map(flipText) },
                            { title: `higher on ${p.a} (${p.flips.toA.length})`, questions: p.flips.toA.map(flipText) },
                        ],
                    };
                }),
            ),
        })),
    };
}
