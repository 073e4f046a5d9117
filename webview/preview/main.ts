/**
 * The preview table: only the rows in view exist in the DOM (100k rows stay smooth), a filter box,
 * per-model token and cost estimates, and source links that open the CSV at the row's line.
 */
import type { PreviewData, PreviewRow } from '../../src/protocol/webview.js';
import { connect, el, post, status } from '../shared/host.js';
import {
    columnWidths,
    filterRows,
    formatForecast,
    formatKeywords,
    rowOffsets,
    rowText,
    rowWindow,
    wrappedLines,
} from './model.js';

/** A question wraps (issue 36 item 5: never cut): a row is as tall as its question's lines (media/preview.css: line-height). */
const LINE = 18,
    ROW_PAD = 10;
/** Lines per question (data.rows order), for the question column's width `linesFor`; each shown row's top. */
let lines = new Uint16Array(0);
let linesFor = -1;
let offsets: ArrayLike<number> = new Float64Array(1);
let data: PreviewData | undefined;
let texts: string[] = [];
let shown: number[] = [];
let viewport: HTMLDivElement | undefined;
let spacer: HTMLDivElement | undefined;
let body: HTMLDivElement | undefined;
let count: HTMLSpanElement | undefined;

const COLUMNS: { title: string; cls: string }[] = [
    { title: 'Probe', cls: 'c-probe' },
    { title: 'Phrasing', cls: 'c-phrasing' },
    { title: 'Question', cls: 'c-question' },
    { title: 'Gold', cls: 'c-gold' },
    { title: 'Keywords', cls: 'c-keywords' },
    { title: 'Source', cls: 'c-source' },
    { title: 'Tokens', cls: 'c-tokens' },
];

function layout(d: PreviewData): void {
    const app = document.getElementById('app')!;
    const header = el('header');
    header.append(el('h1', {}, d.title));
    const filter = el('input', {
        type: 'search',
        id: 'filter',
        placeholder: 'Filter: words, probe:name, gold:yes, kind:path',
        'aria-label': 'Filter questions',
    });
    count = el('span', { id: 'count', role: 'status' });
    header.append(filter, count);
    const estimates = el('ul', { class: 'estimates', id: 'estimates', 'aria-label': 'Token and cost estimate per model' });
    for (const e of d.forecasts) estimates.append(el('li', {}, formatForecast(e)));
    const notes = el('ul', { class: 'notes' });
    for (const n of d.notes) notes.append(el('li', {}, n));
    const head = el('div', { class: 'row head', role: 'row' });
    for (const c of COLUMNS) head.append(el('div', { class: `cell ${c.cls}`, role: 'columnheader' }, c.title));
    viewport = el('div', { class: 'viewport', id: 'rows', role: 'table', 'aria-label': 'Generated questions', tabindex: '0' });
    spacer = el('div', { class: 'spacer' });
    body = el('div', { class: 'body', role: 'rowgroup' });
    spacer.append(body);
    viewport.append(spacer);
    app.replaceChildren(header, estimates, notes, head, viewport);
    linesFor = -1;
    // The short columns as wide as their values (media/preview.css reads these).
    const widths = columnWidths(d.rows);
    for (const [name, chars] of Object.entries(widths)) app.style.setProperty(`--w-${name}`, String(chars));
    filter.addEventListener('input', () => {
        apply(filter.value);
    });
    viewport.addEventListener('scroll', () => requestAnimationFrame(render), { passive: true });
}

// Once, not per layout: each init / update lays the table out again.
window.addEventListener('resize', () =>
    requestAnimationFrame(() => {
        measure();
        render();
    }),
);

function apply(filter: string): void {
    if (!data) return;
    shown = filterRows(data.rows, filter, texts);
    if (count)
        count.textContent = `${shown.length.toLocaleString('en-US')} of ${data.rows.length.toLocaleString('en-US')} questions`;
    if (viewport) viewport.scrollTop = 0;
    measure();
    place();
    render();
}

function rowElement(r: PreviewRow, index: number): HTMLDivElement {
    const row = el('div', { class: 'row', role: 'row', 'data-id': r.id, 'aria-rowindex': String(index + 1) });
    row.append(
        el('div', { class: 'cell c-probe', title: r.kind }, r.probe),
        el('div', { class: 'cell c-phrasing', title: r.phrasing }, r.phrasing),
        el('div', { class: 'cell c-question', title: r.question }, r.question),
        el('div', { class: 'cell c-gold', title: r.gold }, r.gold),
        el('div', { class: 'cell c-keywords', title: formatKeywords(r.keywords) }, formatKeywords(r.keywords)),
    );
    const src = el('div', { class: 'cell c-source' });
    // The graph button first: a long source link is cut, never the button after it.
    const graph = el(
        'button',
        { class: 'link graph', title: 'Open this question in the graph panel', 'aria-label': 'Graph' },
        '⌬',
    );
    graph.addEventListener('click', () => post({ type: 'openQuestion', questionId: r.id }));
    src.append(graph);
    if (r.source) {
        const link = el('button', { class: 'link', title: `Open ${r.source.file} at line ${r.source.line}` }, r.source.label);
        const { file, line } = r.source;
        link.addEventListener('click', () => post({ type: 'openSource', file, line }));
        src.append(link);
    }
    row.append(src, el('div', { class: 'cell c-tokens' }, String(r.tokens)));
    return row;
}

const height = (i: number) => (lines[i] ?? 1) * LINE + ROW_PAD;

/** The question column's text width in px, from the header's question cell (its padding taken off). */
function questionWidth(): number {
    const cell = document.querySelector<HTMLElement>('.row.head .c-question');
    if (!cell) return 0;
    const css = getComputedStyle(cell);
    return cell.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
}

let context: CanvasRenderingContext2D | null | undefined;

/** Counts each question's lines at the question column's width (again only when that width changed). */
function measure(): void {
    if (!data) return;
    const width = questionWidth();
    if (width === linesFor && lines.length === data.rows.length) return;
    context ??= document.createElement('canvas').getContext('2d');
    if (!context) return;
    context.font = getComputedStyle(document.body).font;
    const widths = new Map<string, number>();
    const px = (s: string) => {
        let w = widths.get(s);
        if (w === undefined) {
            w = context!.measureText(s).width;
            widths.set(s, w);
        }
        return w;
    };
    // A pixel of slack: the canvas and the page may round a line's width differently.
    lines = Uint16Array.from(data.rows, r => Math.min(60, wrappedLines(r.question, width - 1, px)));
    linesFor = width;
    place();
}

/** The shown rows' tops from their heights. */
function place(): void {
    offsets = rowOffsets(shown.map(height));
}

function render(): void {
    if (!data || !viewport || !spacer || !body) return;
    const w = rowWindow(viewport.scrollTop, viewport.clientHeight, offsets);
    spacer.style.height = `${w.totalHeight}px`;
    body.style.transform = `translateY(${w.offsetTop}px)`;
    const rows: HTMLDivElement[] = [];
    for (let i = w.first; i < w.last; i++) {
        const row = rowElement(data.rows[shown[i]!]!, shown[i]!);
        row.style.height = `${height(shown[i]!)}px`;
        rows.push(row);
    }
    body.replaceChildren(...rows);
    // Where the page wrapped a question onto more lines than counted, that row grows (once) and the table is placed again.
    let grew = false;
    for (const row of rows) {
        const cell = row.querySelector<HTMLElement>('.c-question')!;
        if (cell.scrollHeight <= cell.clientHeight + 1) continue;
        const i = Number(row.getAttribute('aria-rowindex')) - 1;
        lines[i] = Math.ceil(cell.scrollHeight / LINE);
        grew = true;
    }
    if (grew) {
        place();
        render();
        return;
    }
    document.body.dataset.layoutWidth = String(innerWidth);
}

connect(msg => {
    if (msg.type === 'busy') {
        status(msg.message);
        return;
    }
    if (msg.type === 'error') {
        status(msg.message, 'error');
        return;
    }
    if ((msg.type === 'init' || msg.type === 'update') && msg.panel === 'preview') {
        data = msg.data;
        texts = data.rows.map(rowText);
        layout(data);
        apply('');
    }
});
