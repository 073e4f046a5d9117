/**
 * The preview table: only the rows in view exist in the DOM (100k rows stay smooth), a filter box,
 * per-model token and cost estimates, and source links that open the CSV at the row's line.
 */
import type { PreviewData, PreviewRow } from '../../src/protocol/webview.js';
import { connect, el, post, status } from '../shared/host.js';
import { columnWidths, filterRows, formatEstimate, formatKeywords, rowText, visibleWindow } from './model.js';

const ROW_HEIGHT = 28;
let data: PreviewData | undefined;
let texts: string[] = [];
let shown: number[] = [];
let viewport: HTMLDivElement | undefined;
let spacer: HTMLDivElement | undefined;
let body: HTMLDivElement | undefined;
let count: HTMLSpanElement | undefined;

const COLUMNS: { title: string; cls: string }[] = [
    { title: 'Probe', cls: 'c-probe' }, { title: 'Phrasing', cls: 'c-phrasing' }, { title: 'Question', cls: 'c-question' },
    { title: 'Gold', cls: 'c-gold' }, { title: 'Keywords', cls: 'c-keywords' }, { title: 'Source', cls: 'c-source' }, { title: 'Tokens', cls: 'c-tokens' },
];

function layout(d: PreviewData): void {
    const app = document.getElementById('app')!;
    const header = el('header');
    header.append(el('h1', {}, d.title));
    const filter = el('input', { type: 'search', id: 'filter', placeholder: 'Filter: words, probe:name, gold:yes, kind:path', 'aria-label': 'Filter questions' });
    count = el('span', { id: 'count', role: 'status' });
    header.append(filter, count);
    const estimates = el('ul', { class: 'estimates', id: 'estimates', 'aria-label': 'Token and cost estimate per model' });
    for (const e of d.estimates) estimates.append(el('li', {}, formatEstimate(e)));
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
    // The short columns as wide as their values (media/preview.css reads these).
    const widths = columnWidths(d.rows);
    for (const [name, chars] of Object.entries(widths)) app.style.setProperty(`--w-${name}`, String(chars));
    filter.addEventListener('input', () => { apply(filter.value); });
    viewport.addEventListener('scroll', () => requestAnimationFrame(render), { passive: true });
}

// Once, not per layout: each init / update lays the table out again.
window.addEventListener('resize', () => requestAnimationFrame(render));

function apply(filter: string): void {
    if (!data) return;
    shown = filterRows(data.rows, filter, texts);
    if (count) count.textContent = `${shown.length.toLocaleString('en-US')} of ${data.rows.length.toLocaleString('en-US')} questions`;
    if (viewport) viewport.scrollTop = 0;
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
    if (r.source) {
        const link = el('button', { class: 'link', title: `Open ${r.source.file} at line ${r.source.line}` }, r.source.label);
        const { file, line } = r.source;
        link.addEventListener('click', () => post({ type: 'openSource', file, line }));
        src.append(link);
    }
    const graph = el('button', { class: 'link graph', title: 'Open this question in the graph panel', 'aria-label': 'Graph' }, '⌬');
    graph.addEventListener('click', () => post({ type: 'openQuestion', questionId: r.id }));
    src.append(graph);
    row.append(src, el('div', { class: 'cell c-tokens' }, String(r.tokens)));
    return row;
}

function render(): void {
    if (!data || !viewport || !spacer || !body) return;
    const w = visibleWindow(viewport.scrollTop, viewport.clientHeight, ROW_HEIGHT, shown.length);
    spacer.style.height = `${w.totalHeight}px`;
    body.style.transform = `translateY(${w.offsetTop}px)`;
    const rows: HTMLDivElement[] = [];
    for (let i = w.first; i < w.last; i++) rows.push(rowElement(data.rows[shown[i]!]!, shown[i]!));
    body.replaceChildren(...rows);
}

connect(msg => {
    if (msg.type === 'busy') { status(msg.message); return; }
    if (msg.type === 'error') { status(msg.message, 'error'); return; }
    if ((msg.type === 'init' || msg.type === 'update') && msg.panel === 'preview') {
        data = msg.data;
        texts = data.rows.map(rowText);
        layout(data);
        apply('');
    }
});
